// The `matches` and `myPredictions` queries over HTTP on the demo data: what the caller's company may see, in
// kickoff order, with their filters, paging, validation and statement counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let player: string;
let globexPlayer: string;
let reseller: string;
let x: { demoCup: number; globexCup: number; globexMatch: number; hiddenMatch: number; player1: number };

beforeAll(async () => {
  s = await startTestServer({ env: { RESPONSE_CACHE_MB: '0' } });
  const p = s.t.db.prisma;
  [player, globexPlayer, reseller] = await Promise.all([
    s.loginAs('player'),
    s.loginAs('globexPlayer'),
    s.loginAs('reseller'),
  ]);
  const demoCup = await p.tournament.findUniqueOrThrow({ where: { id: s.demo.tournament } });
  const player1 = s.demo.users['player1@demo.test'];
  const { countryId } = demoCup;
  const kickoff = new Date(Date.UTC(2031, 5, 1, 18));
  // A tournament only Globex plays, and one of Demo Corp's own that was deleted: neither may show to Demo Corp.
  const custom = async (name: string, companyId: number, deletedAt: Date | null) => {
    const t = await p.tournament.create({ data: { name, countryId, ownerCompanyId: companyId, deletedAt } });
    const round = await p.round.create({
      data: { tournamentId: t.id, name: `${name} round`, date: kickoff, position: 1 },
    });
    const [home, away] = await Promise.all(
      ['Home', 'Away'].map((side) => p.team.create({ data: { name: `${name} ${side}`, countryId, companyId } })),
    );
    const m = await p.match.create({
      data: { roundId: round.id, tournamentId: t.id, date: kickoff, homeTeamId: home.id, awayTeamId: away.id },
    });
    return { t, m };
  };
  const globex = await custom('Globex Office Cup', s.demo.companies.GLOBEX, null);
  const hidden = await custom('Deleted Demo Cup', s.demo.companies.DEMO, new Date());
  await p.prediction.create({
    data: { userId: s.demo.users['player1@globex.test'], matchId: globex.m.id, homeTeamGoals: 2, awayTeamGoals: 1 },
  });
  await p.prediction.create({ data: { userId: player1, matchId: hidden.m.id, homeTeamGoals: 1, awayTeamGoals: 1 } });
  x = { demoCup: demoCup.id, globexCup: globex.t.id, globexMatch: globex.m.id, hiddenMatch: hidden.m.id, player1 };
});
afterAll(() => s.close());

const code = (r: { errors?: Array<{ extensions: { code: string } }> }) => r.errors?.[0]?.extensions.code;
const argument = (r: { errors?: Array<{ extensions: Record<string, unknown> }> }) =>
  r.errors?.[0]?.extensions.argumentName;

const MATCHES = `query($from: DateTime, $to: DateTime, $t: Int, $status: [MatchStatus!], $skip: Int, $take: Int) {
  matches(from: $from, to: $to, tournamentId: $t, status: $status, skip: $skip, take: $take) {
    id date status homeTeam { name } awayTeam { name } round { name tournament { id } }
    predictions(onlyMine: true) { homeTeamGoals user { email } } } }`;

type M = { id: number; date: string; status: string; round: { tournament: { id: number } } };

/** What the demo database says the result must be: Demo Cup matches in the window, by kickoff then id. */
async function expected(where: Record<string, unknown>) {
  const rows = await s.t.db.prisma.match.findMany({
    where: { tournamentId: x.demoCup, ...where },
    orderBy: [{ date: 'asc' }, { id: 'asc' }],
    take: 100,
  });
  return rows.map((m) => m.id);
}

describe('matches', () => {
  it('from now on by default: the tenant tournaments only, by kickoff, with nested fields', async () => {
    const r = await s.gql(MATCHES, { take: 100 }, bearer(player));
    expect(r.errors).toBeUndefined();
    const list: M[] = r.data.matches;
    const ids = list.map((m) => m.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(await expected({ date: { gte: new Date(Date.parse(list[0].date) - 1) } }));
    expect(ids).not.toContain(x.globexMatch);
    expect(ids).not.toContain(x.hiddenMatch);
    for (const m of list) expect(Date.parse(m.date)).toBeGreaterThanOrEqual(Date.now() - 60_000);
    const dates = list.map((m) => Date.parse(m.date));
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    expect(JSON.stringify(r.data)).not.toMatch(/globex/i);
  });

  it('a window in the past, a status filter, a tournament filter and paging', async () => {
    const from = '2000-01-01T00:00:00.000Z';
    const to = new Date().toISOString();
    const past = await s.gql(MATCHES, { from, to, take: 100 }, bearer(player));
    expect(past.errors?.[0]?.message).toMatch(/at most 400 days/);
    const since = new Date(Date.now() - 399 * 86400e3).toISOString();
    const recent = await s.gql(MATCHES, { from: since, to, take: 100 }, bearer(player));
    expect(recent.errors).toBeUndefined();
    const want = await expected({ date: { gte: new Date(since), lte: new Date(to) } });
    expect(want.length).toBeGreaterThan(1);
    expect(recent.data.matches.map((m: M) => m.id)).toEqual(want);

    const finished = await s.gql(MATCHES, { from: since, status: ['FINISHED'], take: 100 }, bearer(player));
    const wantFinished = await expected({ date: { gte: new Date(since) }, status: 'FINISHED' });
    expect(wantFinished.length).toBeGreaterThan(0);
    expect(finished.data.matches.map((m: M) => m.id)).toEqual(wantFinished);
    // One value stands for a list of one.
    const single = await s.gql(
      `{ matches(from: "${since}", status: FINISHED, tournamentId: ${x.demoCup}, take: 100) { id } }`,
      {},
      bearer(player),
    );
    expect(single.data.matches.map((m: M) => m.id)).toEqual(wantFinished);

    const page = await s.gql(MATCHES, { from: since, skip: 1, take: 2 }, bearer(player));
    expect(page.data.matches.map((m: M) => m.id)).toEqual(want.slice(1, 3));
  });

  it('returns [] when nothing kicks off in the window', async () => {
    const r = await s.gql(MATCHES, { from: '2099-01-01T00:00:00.000Z' }, bearer(player));
    expect(r.errors).toBeUndefined();
    expect(r.data.matches).toEqual([]);
  });

  it("another company's tournament is NOT_FOUND; its own players see it", async () => {
    const r = await s.gql(MATCHES, { t: x.globexCup }, bearer(player));
    expect(code(r)).toBe('NOT_FOUND');
    expect(r.data).toBeNull();
    const g = await s.gql(MATCHES, { t: x.globexCup }, bearer(globexPlayer));
    expect(g.data.matches.map((m: M) => m.id)).toEqual([x.globexMatch]);
    expect(g.data.matches[0].predictions.map((p: { user: { email: string } }) => p.user.email)).toEqual([
      'player1@globex.test',
    ]);
  });

  it('refuses bad input with the argument named', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ from: '2030-01-02T00:00:00.000Z', to: '2030-01-01T00:00:00.000Z' }, 'to'],
      [{ take: 0 }, 'take'],
      [{ take: 101 }, 'take'],
      [{ skip: -1 }, 'skip'],
      [{ status: [] }, 'status'],
      [{ t: 0 }, 'tournamentId'],
    ];
    for (const [vars, name] of cases) {
      const r = await s.gql(MATCHES, vars, bearer(player));
      expect(code(r), JSON.stringify(vars)).toBe('BAD_USER_INPUT');
      expect(argument(r)).toBe(name);
    }
    const notADate = await s.gql(MATCHES, { from: 'tomorrow' }, bearer(player));
    expect(code(notADate)).toBe('BAD_USER_INPUT');
  });

  it('needs a signed-in caller', async () => {
    expect(code(await s.gql(MATCHES, {}))).toBe('UNAUTHENTICATED');
  });
});

const MINE = `query($t: Int, $status: [PredictionStatus!], $skip: Int, $take: Int) {
  myPredictions(tournamentId: $t, status: $status, skip: $skip, take: $take) {
    id status homeTeamGoals awayTeamGoals user { email } match { id date homeTeam { name } round { name } } } }`;

type P = { id: number; status: string; user: { email: string }; match: { id: number; date: string } };

async function ownPredictions(where: Record<string, unknown> = {}) {
  const rows = await s.t.db.prisma.prediction.findMany({
    where: { userId: x.player1, match: { tournamentId: x.demoCup }, ...where },
    orderBy: [{ match: { date: 'asc' } }, { id: 'asc' }],
  });
  return rows.map((p) => p.id);
}

describe('myPredictions', () => {
  it("the caller's own, by kickoff, without a deleted tournament's", async () => {
    const r = await s.gql(MINE, { take: 100 }, bearer(player));
    expect(r.errors).toBeUndefined();
    const list: P[] = r.data.myPredictions;
    const want = await ownPredictions();
    expect(want.length).toBeGreaterThan(1);
    expect(list.map((p) => p.id)).toEqual(want);
    for (const p of list) expect(p.user.email).toBe('player1@demo.test');
    expect(list.map((p) => p.match.id)).not.toContain(x.hiddenMatch);
    const dates = list.map((p) => Date.parse(p.match.date));
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
  });

  it('filters by tournament and status, and pages', async () => {
    const byCup = await s.gql(MINE, { t: x.demoCup, take: 100 }, bearer(player));
    expect(byCup.data.myPredictions.map((p: P) => p.id)).toEqual(await ownPredictions());
    const scored = await s.gql(MINE, { status: ['SCORED'], take: 100 }, bearer(player));
    const want = await ownPredictions({ status: 'SCORED' });
    expect(want.length).toBeGreaterThan(0);
    expect(scored.data.myPredictions.map((p: P) => p.id)).toEqual(want);
    const page = await s.gql(MINE, { skip: 1, take: 1 }, bearer(player));
    expect(page.data.myPredictions.map((p: P) => p.id)).toEqual((await ownPredictions()).slice(1, 2));
  });

  it("another company's tournament is NOT_FOUND; Globex's player sees only their own", async () => {
    expect(code(await s.gql(MINE, { t: x.globexCup }, bearer(player)))).toBe('NOT_FOUND');
    const g = await s.gql(MINE, { take: 100 }, bearer(globexPlayer));
    expect(g.errors).toBeUndefined();
    expect(g.data.myPredictions.length).toBeGreaterThan(0);
    for (const p of g.data.myPredictions as P[]) expect(p.user.email).toBe('player1@globex.test');
  });

  it('returns [] where the caller has none: acting on a managed company, or an empty status', async () => {
    const r = await s.gql(MINE, {}, { ...bearer(reseller), 'x-app-path': 'demo' });
    expect(r.errors).toBeUndefined();
    expect(r.data.myPredictions).toEqual([]);
    const none = await s.gql(MINE, { status: ['VOID'] }, bearer(player));
    expect(none.data.myPredictions).toEqual([]);
  });

  it('refuses bad paging, and anonymous callers', async () => {
    const r = await s.gql(MINE, { take: 500 }, bearer(player));
    expect(code(r)).toBe('BAD_USER_INPUT');
    expect(argument(r)).toBe('take');
    expect(code(await s.gql(MINE, {}))).toBe('UNAUTHENTICATED');
  });
});

describe('statements', () => {
  const count = async (query: string, vars: Record<string, unknown>) => {
    const r = await s.gql(query, vars, bearer(player));
    expect(r.errors).toBeUndefined();
    return r.extensions!.sqlStatements!;
  };
  const from = () => new Date(Date.now() - 399 * 86400e3).toISOString();

  it('matches with teams, rounds and own predictions: as many statements for one match as for every one', async () => {
    const one = await count(MATCHES, { from: from(), take: 1 });
    expect(await count(MATCHES, { from: from(), take: 100 })).toBe(one);
    // The caller and tenant, the tournaments, the matches, then one per relation: teams, rounds, predictions, users.
    expect(one).toBeLessThanOrEqual(8);
  });

  it('my predictions with their matches, teams and rounds: as many statements for one as for all', async () => {
    const one = await count(MINE, { take: 1 });
    expect(await count(MINE, { take: 100 })).toBe(one);
    expect(one).toBeLessThanOrEqual(8);
  });
});
