// Match statistics and round winners over real HTTP, each figure checked against a computation written here in
// plain TypeScript over the rows the test created: a tournament of Demo Corp and Globex with decided and undecided
// rounds, deleted users, admins, ties, cancelled matches and a match not yet kicked off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let tokens: Record<'player' | 'admin' | 'globexPlayer', string>;
const as = (who: keyof typeof tokens) => bearer(tokens[who]);

const HOUR = 3600_000;
type Status = 'FINISHED' | 'CANCELLED' | 'SCHEDULED';
interface UserInfo {
  id: number;
  name: string;
  companyId: number;
  role: string;
  deleted: boolean;
}
interface PredictionRow {
  userId: number;
  matchId: number;
  home: number;
  away: number;
  status: 'SCORED' | 'VOID' | 'PENDING';
  points: number | null;
}
interface MatchInfo {
  id: number;
  roundId: number;
  date: Date;
  status: Status;
}

/** The rows created, as the independent computation reads them. */
const rows = {
  tournament: 0,
  rounds: [] as Array<{ id: number; name: string; position: number }>,
  matches: [] as MatchInfo[],
  users: new Map<number, UserInfo>(),
  predictions: [] as PredictionRow[],
};

/** A small deterministic generator, so a failure replays. */
let seed = 44;
const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];

// Each round: its matches' statuses and kickoffs (hours from now), and the points its predictions may earn.
const ROUNDS: Array<{ name: string; matches: Array<[Status, number]>; points: number[]; pending?: boolean }> = [
  {
    name: 'Round A',
    matches: [
      ['FINISHED', -90],
      ['FINISHED', -80],
      ['FINISHED', -70],
    ],
    points: [0, 1, 3, 1.5, 4.25],
  },
  {
    name: 'Round B',
    matches: [
      ['FINISHED', -60],
      ['SCHEDULED', 48],
    ],
    points: [0, 1, 3],
  },
  {
    name: 'Round C',
    matches: [
      ['FINISHED', -50],
      ['CANCELLED', -49],
    ],
    points: [0, 2, 3],
  },
  {
    name: 'Round D',
    matches: [
      ['FINISHED', -40],
      ['FINISHED', -39],
    ],
    points: [0, 3],
    pending: true,
  },
  { name: 'Round E', matches: [['FINISHED', -30]], points: [0] },
  { name: 'Round F', matches: [['FINISHED', -20]], points: [] },
  // A hundred matches under way: a response with over a hundred matches to count.
  { name: 'Round G', matches: Array.from({ length: 100 }, () => ['SCHEDULED', -1] as [Status, number]), points: [] },
];

async function createRows(t: TestServer) {
  const p = t.t.db.prisma;
  const { companies, teams, tournament: demoCup } = t.demo;
  const { countryId } = await p.tournament.findUniqueOrThrow({ where: { id: demoCup } });
  const tournament = await p.tournament.create({ data: { name: 'Statistics Cup', countryId } });
  rows.tournament = tournament.id;
  await p.companyTournament.createMany({
    data: [companies.DEMO, companies.GLOBEX].map((companyId) => ({ companyId, tournamentId: tournament.id })),
  });
  const [homeTeamId, awayTeamId] = Object.values(teams);
  const now = Date.now();
  for (const [i, r] of ROUNDS.entries()) {
    const round = await p.round.create({
      data: {
        tournamentId: tournament.id,
        name: r.name,
        position: i + 1,
        date: new Date(now + r.matches[0][1] * HOUR),
      },
    });
    rows.rounds.push({ id: round.id, name: r.name, position: i + 1 });
    for (const [status, hours] of r.matches) {
      const date = new Date(now + hours * HOUR);
      const match = await p.match.create({
        data: {
          roundId: round.id,
          tournamentId: tournament.id,
          date,
          homeTeamId,
          awayTeamId,
          status,
          ...(status === 'FINISHED' ? { homeTeamGoals: 1, awayTeamGoals: 0 } : {}),
        },
      });
      rows.matches.push({ id: match.id, roundId: round.id, date, status });
    }
  }
  // A deleted user of Demo Corp, who predicted well and counts nowhere.
  const gone = await p.user.create({
    data: {
      ...DEFAULT_USER_JSON,
      companyId: companies.DEMO,
      email: 'gone@demo.test',
      name: 'Gone Player',
      externalId: 'gone',
      loginProviderId: 'gone',
      deletedAt: new Date(),
    },
  });
  const users = await p.user.findMany({ where: { companyId: { in: [companies.DEMO, companies.GLOBEX] } } });
  for (const u of [...users, gone])
    rows.users.set(u.id, { id: u.id, name: u.name, companyId: u.companyId!, role: u.role, deleted: !!u.deletedAt });
}

async function createPredictions(t: TestServer) {
  const p = t.t.db.prisma;
  const adminId = t.demo.users['admin@demo.test'];
  const [first, second] = [t.demo.users['player1@demo.test'], t.demo.users['player2@demo.test']];
  for (const [i, r] of ROUNDS.entries()) {
    const matches = rows.matches.filter((m) => m.roundId === rows.rounds[i].id);
    for (const m of matches) {
      for (const u of rows.users.values()) {
        if (r.name !== 'Round F' && next() < 0.2) continue;
        let points: number | null = m.status === 'FINISHED' ? pick(r.points.length ? r.points : [0]) : null;
        // Round F: the admin best, two players level behind, a deleted user and Globex's player above them all.
        if (r.name === 'Round F' && m.status === 'FINISHED')
          points = u.id === adminId ? 7 : u.id === first || u.id === second ? 5 : u.deleted ? 10 : 0;
        if (r.name === 'Round F' && u.companyId === t.demo.companies.GLOBEX && points === 0) points = 9;
        const status = m.status === 'CANCELLED' ? 'VOID' : points === null ? 'PENDING' : 'SCORED';
        rows.predictions.push({
          userId: u.id,
          matchId: m.id,
          home: pick([0, 1, 2]),
          away: pick([0, 1, 2]),
          status,
          points,
        });
      }
    }
    // Round D: one prediction still waits for its rescoring.
    if (r.pending) {
      const waiting = rows.predictions.find((x) => x.matchId === matches[0].id)!;
      Object.assign(waiting, { status: 'PENDING', points: null });
    }
  }
  await p.prediction.createMany({
    data: rows.predictions.map((x) => ({
      userId: x.userId,
      matchId: x.matchId,
      homeTeamGoals: x.home,
      awayTeamGoals: x.away,
      status: x.status,
      points: x.points,
      exactHit: false,
      outcomeHit: false,
    })),
  });
}

/** Who the company counts: its active users, admins only when it ranks them. */
const counted = (companyId: number, rankAdmins: boolean) => (userId: number) => {
  const u = rows.users.get(userId)!;
  return u.companyId === companyId && !u.deleted && (rankAdmins || u.role === 'player');
};
const hundredths = (x: number) => Math.round(x * 100) / 100;

function expectedStatistics(matchId: number, companyId: number, rankAdmins: boolean, take: number) {
  const match = rows.matches.find((m) => m.id === matchId)!;
  if (match.date.getTime() > Date.now()) return null;
  const mine = rows.predictions.filter((x) => x.matchId === matchId && counted(companyId, rankAdmins)(x.userId));
  const scored = mine.filter((x) => x.status === 'SCORED');
  const byScore = new Map<string, { homeTeamGoals: number; awayTeamGoals: number; count: number }>();
  for (const x of mine) {
    const key = `${x.home}:${x.away}`;
    const entry = byScore.get(key) ?? { homeTeamGoals: x.home, awayTeamGoals: x.away, count: 0 };
    entry.count++;
    byScore.set(key, entry);
  }
  const top = [...byScore.values()].sort(
    (a, b) => b.count - a.count || a.homeTeamGoals - b.homeTeamGoals || a.awayTeamGoals - b.awayTeamGoals,
  );
  return {
    predictions: mine.length,
    home: mine.filter((x) => x.home > x.away).length,
    draw: mine.filter((x) => x.home === x.away).length,
    away: mine.filter((x) => x.home < x.away).length,
    averagePoints: scored.length ? scored.reduce((sum, x) => sum + x.points!, 0) / scored.length : null,
    topScores: top.slice(0, take),
  };
}

function expectedWinners(companyId: number, rankAdmins: boolean) {
  const over = new Set(['FINISHED', 'AWARDED', 'CANCELLED']);
  const result = [];
  for (const round of rows.rounds) {
    const matches = rows.matches.filter((m) => m.roundId === round.id);
    const ids = new Set(matches.map((m) => m.id));
    const predictions = rows.predictions.filter((x) => ids.has(x.matchId));
    const decided =
      matches.length > 0 &&
      matches.every((m) => over.has(m.status)) &&
      predictions.every((x) => x.status !== 'PENDING');
    if (!decided) continue;
    const sums = new Map<number, number>();
    for (const x of predictions)
      if (x.status === 'SCORED' && counted(companyId, rankAdmins)(x.userId))
        sums.set(x.userId, (sums.get(x.userId) ?? 0) + x.points!);
    const best = Math.max(0, ...[...sums.values()].map(hundredths));
    const winners = best > 0 ? [...sums].filter(([, sum]) => hundredths(sum) === best).map(([id]) => id) : [];
    const named = winners
      .map((id) => rows.users.get(id)!)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    result.push({ round: { id: round.id, name: round.name }, points: best, winners: named.map((u) => u.id) });
  }
  return result;
}

const STATISTICS = `query($t: Int!, $take: Int!) { tournament(id: $t) { rounds { matches { id
  statistics { predictions home draw away averagePoints topScores(take: $take) { homeTeamGoals awayTeamGoals count } }
} } } }`;
const WINNERS = `query($t: Int!) { roundWinners(tournamentId: $t) { round { id name } points winners { id name } } }`;

type StatisticsAnswer = { averagePoints: number | null; [k: string]: unknown } | null;
async function statisticsAs(who: keyof typeof tokens, take = 20) {
  const r = await s.gql(STATISTICS, { t: rows.tournament, take }, as(who));
  expect(r.errors).toBeUndefined();
  const matches = r.data.tournament.rounds.flatMap((round: { matches: unknown[] }) => round.matches);
  return new Map<number, StatisticsAnswer>(
    matches.map((m: { id: number; statistics: StatisticsAnswer }) => [m.id, m.statistics]),
  );
}

/** The answer against the computation: the average within the hundredth the product rounds to. */
function sameStatistics(actual: StatisticsAnswer, expected: ReturnType<typeof expectedStatistics>, what: string) {
  if (expected === null) return expect(actual, what).toBeNull();
  const { averagePoints, ...rest } = expected;
  expect({ ...actual, averagePoints: undefined }, what).toEqual({ ...rest, averagePoints: undefined });
  if (averagePoints === null) expect(actual!.averagePoints, what).toBeNull();
  else expect(Math.abs(actual!.averagePoints! - averagePoints), what).toBeLessThanOrEqual(0.005 + 1e-9);
}

async function setCompany(data: { rankAdmins?: boolean; showRoundRankings?: boolean; hideNames?: boolean }) {
  const p = s.t.db.prisma;
  const company = await p.company.findUniqueOrThrow({ where: { id: s.demo.companies.DEMO } });
  const scoring = (company.scoringSettings ?? {}) as Record<string, unknown>;
  const features = company.featureSettings as { rankings: Record<string, unknown> };
  await p.company.update({
    where: { id: company.id },
    data: {
      scoringSettings: { ...scoring, rankAdmins: data.rankAdmins ?? true },
      featureSettings: {
        ...features,
        rankings: { ...features.rankings, showRoundRankings: data.showRoundRankings ?? true },
      },
      disableRankingsUserNames: data.hideNames ?? false,
    },
  });
}

beforeAll(async () => {
  s = await startTestServer();
  tokens = await s.loginAll(['player', 'admin', 'globexPlayer']);
  await createRows(s);
  await createPredictions(s);
});
afterAll(() => s?.close());

describe('Match.statistics', () => {
  it("counts each kicked-off match over the company's people, as computed here; null before kickoff", async () => {
    const { DEMO, GLOBEX } = s.demo.companies;
    for (const [who, company] of [
      ['player', DEMO],
      ['globexPlayer', GLOBEX],
    ] as const) {
      const answers = await statisticsAs(who);
      expect(answers.size).toBe(rows.matches.length);
      for (const m of rows.matches)
        sameStatistics(answers.get(m.id)!, expectedStatistics(m.id, company, true, 20), `${who}, match ${m.id}`);
    }
    const future = rows.matches.find((m) => m.date.getTime() > Date.now())!;
    expect((await statisticsAs('admin')).get(future.id)).toBeNull();
    const withThree = await statisticsAs('player', 3);
    const first = rows.matches[0].id;
    sameStatistics(withThree.get(first)!, expectedStatistics(first, DEMO, true, 3), 'take: 3');
  });

  it("leaves the company's admins out when it does not rank them", async () => {
    await setCompany({ rankAdmins: false });
    try {
      const answers = await statisticsAs('player');
      for (const m of rows.matches)
        sameStatistics(answers.get(m.id)!, expectedStatistics(m.id, s.demo.companies.DEMO, false, 20), `${m.id}`);
    } finally {
      await setCompany({});
    }
  });

  it('is counted in a fixed number of statements, however many matches the response holds', async () => {
    const list = (selection: string) =>
      `query($t: Int!) { tournament(id: $t) { rounds { matches { id ${selection} } } } }`;
    const statements = async (selection: string) => {
      const r = await s.gql(list(selection), { t: rows.tournament }, as('admin'));
      expect(r.errors).toBeUndefined();
      return r.extensions!.sqlStatements!;
    };
    const plain = await statements('');
    const counting = await statements('statistics { predictions topScores { count } }');
    // Two statements for all the matches of the response together: the counts and the most predicted scores.
    expect(counting - plain).toBeLessThanOrEqual(2);
    expect(rows.matches.length).toBeGreaterThan(100);
  });

  it('refuses a take outside 1 to 20', async () => {
    for (const take of [0, 21]) {
      const r = await s.gql(STATISTICS, { t: rows.tournament, take }, as('player'));
      expect(r.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'take' });
    }
  });

  it('shows a changed prediction at once, cached or not', async () => {
    const match = rows.matches[0];
    const ONE = `query($id: Int!) { match(id: $id) { statistics { predictions averagePoints } } }`;
    const read = async () => (await s.gql(ONE, { id: match.id }, as('player'))).data.match.statistics;
    await read();
    const before = await read(); // a cache hit where the response cache runs
    const p = s.t.db.prisma;
    const newcomer = s.demo.users['player1@demo.test'];
    const existing = rows.predictions.find((x) => x.matchId === match.id && x.userId === newcomer);
    if (existing) {
      await p.prediction.delete({ where: { userId_matchId: { userId: newcomer, matchId: match.id } } });
      rows.predictions.splice(rows.predictions.indexOf(existing), 1);
    } else {
      const row = { userId: newcomer, matchId: match.id, home: 3, away: 3, status: 'SCORED' as const, points: 99 };
      await p.prediction.create({
        data: { userId: newcomer, matchId: match.id, homeTeamGoals: 3, awayTeamGoals: 3, status: 'SCORED', points: 99 },
      });
      rows.predictions.push(row);
    }
    const after = await read();
    expect(after.predictions).toBe(before.predictions + (existing ? -1 : 1));
    sameStatistics(
      { ...(await statisticsAs('player')).get(match.id)! },
      expectedStatistics(match.id, s.demo.companies.DEMO, true, 20),
      'after the change',
    );
  });
});

describe('roundWinners', () => {
  const winnersAs = async (who: keyof typeof tokens) => {
    const r = await s.gql(WINNERS, { t: rows.tournament }, as(who));
    expect(r.errors).toBeUndefined();
    return r.data.roundWinners as Array<{
      round: { id: number; name: string };
      points: number;
      winners: Array<{ id: number; name: string } | null>;
    }>;
  };
  const ids = (answer: Awaited<ReturnType<typeof winnersAs>>) =>
    answer.map((r) => ({ ...r, winners: r.winners.map((w) => w?.id ?? null) }));

  it('per decided round, the ranked people with its most points, as computed here, for each company', async () => {
    const demo = await winnersAs('player');
    expect(ids(demo)).toEqual(expectedWinners(s.demo.companies.DEMO, true));
    // Decided: A, C (a cancelled match), E (nobody scored), F; B has a match ahead, D a prediction to score.
    expect(demo.map((r) => r.round.name)).toEqual(['Round A', 'Round C', 'Round E', 'Round F']);
    expect(demo.find((r) => r.round.name === 'Round E')).toMatchObject({ points: 0, winners: [] });
    expect(demo.find((r) => r.round.name === 'Round F')).toMatchObject({
      points: 7,
      winners: [{ id: s.demo.users['admin@demo.test'] }],
    });
    expect(ids(await winnersAs('globexPlayer'))).toEqual(expectedWinners(s.demo.companies.GLOBEX, true));
  });

  it('ranks only players where the company ranks no admins: a tie is shared', async () => {
    await setCompany({ rankAdmins: false });
    try {
      const demo = await winnersAs('player');
      expect(ids(demo)).toEqual(expectedWinners(s.demo.companies.DEMO, false));
      const f = demo.find((r) => r.round.name === 'Round F')!;
      expect(f.points).toBe(5);
      expect(f.winners.map((w) => w!.id).sort()).toEqual(
        [s.demo.users['player1@demo.test'], s.demo.users['player2@demo.test']].sort(),
      );
    } finally {
      await setCompany({});
    }
  });

  it("hides the winners' names from players as rankings do; refused where round rankings are hidden", async () => {
    await setCompany({ rankAdmins: false, hideNames: true });
    try {
      const f = (await winnersAs('player')).find((r) => r.round.name === 'Round F')!;
      const me = s.demo.users['player1@demo.test'];
      expect(f.winners.map((w) => w?.id ?? null).sort()).toEqual([me, null].sort());
      const forAdmin = (await winnersAs('admin')).find((r) => r.round.name === 'Round F')!;
      expect(forAdmin.winners.every((w) => w !== null)).toBe(true);
      await setCompany({ showRoundRankings: false });
      const refused = await s.gql(WINNERS, { t: rows.tournament }, as('player'));
      expect(refused.errors?.[0].extensions.code).toBe('FORBIDDEN');
      expect((await winnersAs('admin')).length).toBe(4);
    } finally {
      await setCompany({});
    }
  });

  it('refuses a tournament the company does not play', async () => {
    const other = await s.t.db.prisma.tournament.create({
      data: { name: 'Nobody Cup', countryId: (await s.t.db.prisma.country.findFirstOrThrow()).id },
    });
    const r = await s.gql(WINNERS, { t: other.id }, as('admin'));
    expect(r.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
