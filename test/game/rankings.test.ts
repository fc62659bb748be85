// The ranking queries of src/game/ranking-query.ts against a reference computed here from the rows by the pure rules
// (src/domain/rankings.ts): through the GraphQL `ranking` query, page by page, and called directly for every page
// and standing, where the standings index serves them and where it does not, under every tie and membership rule.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { rankingOf, rankingPage, rankingsOf } from '../../src/game/ranking-query.ts';
import { rankStandings, roundWins } from '../../src/domain/rankings.ts';
import type { TieRule } from '../../src/domain/scoring-settings.ts';
import { Prisma } from '../../src/db/sql.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { forgeAccessToken } from '../helpers/tokens.ts';

let s: TestServer;
let token: string;
let admin: string;
let tournamentId: number;
beforeAll(async () => {
  s = await startTestServer();
  token = await s.loginAs('player');
  admin = await s.loginAs('admin');
  tournamentId = s.demo.tournament;
});
afterAll(() => s.close());

const Q = `query($t: Int!, $r: Int, $a: Int, $skip: Int, $take: Int) { ranking(tournamentId: $t, roundId: $r, areaId:
  $a, skip: $skip, take: $take) {
  total entries { position points exactHits outcomeHits user { id name } }
  me { position points exactHits outcomeHits } } }`;

type Rules = { tieRule: TieRule; rankAdmins: boolean; rankNonPlayers: boolean };
const DEFAULT_RULES: Rules = { tieRule: 'HITS', rankAdmins: true, rankNonPlayers: true };

/** The reference: the same standings computed here from the rows, ranked by the pure function. */
async function reference(
  filter: { roundId?: number; roundIds?: number[]; areaId?: number } = {},
  rules: Rules = DEFAULT_RULES,
) {
  const p = s.t.db.prisma;
  const demoId = s.demo.companies.DEMO;
  const everyone = await p.user.findMany({
    where: {
      companyId: demoId,
      deletedAt: null,
      ...(filter.areaId
        ? { OR: [{ areaLevel1Id: filter.areaId }, { areaLevel2Id: filter.areaId }, { areaLevel3Id: filter.areaId }] }
        : {}),
    },
  });
  const rounds = filter.roundIds ?? (filter.roundId ? [filter.roundId] : null);
  const predictions = await p.prediction.findMany({
    where: { status: 'SCORED', match: { tournamentId, ...(rounds ? { roundId: { in: rounds } } : {}) } },
    include: { match: { select: { roundId: true } } },
  });
  // Dream-final picks and bonus answers count in the general ranking only.
  const picks = rounds
    ? []
    : [
        ...(await p.dreamFinalPick.findMany({ where: { setting: { tournamentId, companyId: demoId } } })),
        ...(await p.bonusAnswer.findMany({ where: { question: { tournamentId, companyId: demoId } } })),
      ];
  // Who played: any prediction in the tournament (scored or not), dream-final picks or bonus answers.
  const players = new Set([
    ...(await p.prediction.findMany({ where: { match: { tournamentId } } })).map((x) => x.userId),
    ...(await p.dreamFinalPick.findMany({ where: { setting: { tournamentId } } })).map((x) => x.userId),
    ...(await p.bonusAnswer.findMany({ where: { question: { tournamentId } } })).map((x) => x.userId),
  ]);
  const users = everyone.filter(
    (u) => (rules.rankAdmins || u.role === 'player') && (rules.rankNonPlayers || players.has(u.id)),
  );
  const members = new Set(users.map((u) => u.id));
  const perRound = new Map<string, { userId: number; roundId: number; points: number }>();
  for (const x of predictions.filter((x) => members.has(x.userId))) {
    const key = `${x.userId}:${x.match.roundId}`;
    const entry = perRound.get(key) ?? { userId: x.userId, roundId: x.match.roundId, points: 0 };
    entry.points = Math.round((entry.points + (x.points ?? 0)) * 100) / 100;
    perRound.set(key, entry);
  }
  const wins = roundWins([...perRound.values()]);
  return rankStandings(
    users.map((u) => {
      const mine = predictions.filter((x) => x.userId === u.id);
      const points =
        mine.reduce((a, x) => a + (x.points ?? 0), 0) +
        picks.filter((x) => x.userId === u.id).reduce((a, x) => a + (x.points ?? 0), 0);
      return {
        userId: u.id,
        name: u.name,
        points: Math.round(points * 100) / 100,
        exactHits: mine.filter((x) => x.exactHit).length,
        outcomeHits: mine.filter((x) => x.outcomeHit).length,
        ...(rules.tieRule === 'ROUND_WINS' ? { roundWins: wins.get(u.id) ?? 0 } : {}),
      };
    }),
    rules.tieRule,
  );
}

/**
 * A player of the demo company who alone has the most points of a round (computed here from the predictions), or,
 * `amongPlayers`, the most of the company's players.
 */
async function soleRoundWinner({ amongPlayers = false } = {}) {
  const p = s.t.db.prisma;
  const players = await p.user.findMany({
    where: { companyId: s.demo.companies.DEMO, deletedAt: null, role: 'player' },
    select: { id: true },
  });
  const ids = new Set(players.map((u) => u.id));
  const predictions = await p.prediction.findMany({
    where: { status: 'SCORED', match: { tournamentId } },
    include: { match: { select: { roundId: true } } },
  });
  const byRound = new Map<number, Map<number, number>>();
  for (const x of predictions.filter((x) => !amongPlayers || ids.has(x.userId))) {
    const round = byRound.get(x.match.roundId) ?? new Map<number, number>();
    round.set(x.userId, Math.round(((round.get(x.userId) ?? 0) + (x.points ?? 0)) * 100) / 100);
    byRound.set(x.match.roundId, round);
  }
  for (const round of byRound.values()) {
    const best = Math.max(...round.values());
    const top = [...round].filter(([, points]) => points === best);
    if (best > 0 && top.length === 1 && ids.has(top[0][0])) return { userId: top[0][0] };
  }
  throw new Error('no round has a single winner among the players');
}

/**
 * The plan of a statement as text. PostgreSQL would scan or sort a table this small (its costs tie): told not to, it
 * shows the index the statement can walk.
 */
async function planOf(sql: Prisma.Sql): Promise<string> {
  const p = s.t.db.prisma;
  const plan =
    s.t.target.provider === 'postgresql'
      ? await p.$transaction(async (tx) => {
          await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
          await tx.$executeRawUnsafe('SET LOCAL enable_sort = off');
          // An index on the first key and an incremental sort on the rest would also tie.
          await tx.$executeRawUnsafe('SET LOCAL enable_incremental_sort = off');
          return tx.$queryRaw<Record<string, string>[]>(Prisma.sql`EXPLAIN ${sql}`);
        })
      : await p.$queryRaw<Record<string, string>[]>(Prisma.sql`EXPLAIN QUERY PLAN ${sql}`);
  return JSON.stringify(plan, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
}

/** The standings index each tie rule's general ranking walks (without admins, ROUND_WINS counts players' wins). */
const indexOf = (rules: Rules) =>
  rules.tieRule === 'ROUND_WINS' && !rules.rankAdmins
    ? 'TournamentStanding_player_round_wins_order_idx'
    : {
        HITS: 'TournamentStanding_ranking_order_idx',
        POINTS: 'TournamentStanding_points_order_idx',
        ROUND_WINS: 'TournamentStanding_round_wins_order_idx',
      }[rules.tieRule];

const asEntries = (ranked: Awaited<ReturnType<typeof reference>>) =>
  ranked.map((r) => ({
    position: r.position,
    points: r.points,
    exactHits: r.exactHits,
    outcomeHits: r.outcomeHits,
    user: { id: r.userId, name: r.name },
  }));

describe('ranking query', () => {
  it("the general ranking equals the reference computation, page by page, with the caller's standing", async () => {
    const expected = await reference();
    const first = await s.gql(Q, { t: tournamentId, take: 10 }, bearer(token));
    expect(first.errors).toBeUndefined();
    const second = await s.gql(Q, { t: tournamentId, skip: 10, take: 100 }, bearer(token));
    expect(first.data.ranking.total).toBe(expected.length);
    expect([...first.data.ranking.entries, ...second.data.ranking.entries]).toEqual(asEntries(expected));
    const me = expected.find((r) => r.name === 'Demo Player 1')!;
    expect(first.data.ranking.me).toEqual({
      position: me.position,
      points: me.points,
      exactHits: me.exactHits,
      outcomeHits: me.outcomeHits,
    });
    // The demo data has ties.
    expect(expected.some((r, i) => i > 0 && r.position === expected[i - 1].position)).toBe(true);
  });

  it(
    'standings rebuilt from scratch (as a migration or the benchmark generator does) give the same ' + 'ranking',
    async () => {
      const { rebuildStandings } = await import('../../src/game/standings.ts');
      await s.t.db.prisma.tournamentStanding.deleteMany();
      await rebuildStandings(s.t.db.prisma, [tournamentId]);
      const r = await s.gql(Q, { t: tournamentId, take: 100 }, bearer(token));
      expect(r.data.ranking.entries).toEqual(asEntries(await reference()));
    },
  );

  it('a round ranking and an area ranking equal the reference too', async () => {
    const round = s.demo.rounds['Semi-finals'];
    const byRound = await s.gql(Q, { t: tournamentId, r: round, take: 100 }, bearer(token));
    expect(byRound.data.ranking.entries).toEqual(asEntries(await reference({ roundId: round })));
    const area = s.demo.areas.Argentina;
    const byArea = await s.gql(Q, { t: tournamentId, a: area, take: 100 }, bearer(token));
    expect(byArea.data.ranking.entries).toEqual(asEntries(await reference({ areaId: area })));
    expect(byArea.data.ranking.total).toBeLessThan(21);
  });

  it("a combined-rounds ranking from the company's definitions equals the reference over those rounds", async () => {
    const p = s.t.db.prisma;
    const [md1, md2] = await p.round.findMany({
      where: { tournamentId, name: { startsWith: 'Matchday' } },
      orderBy: { position: 'asc' },
    });
    await p.company.update({
      where: { appPath: 'demo' },
      data: { combinedRoundsRankingDefinitions: ['Group stage: ' + md1.id + ',' + md2.id] },
    });
    const r = await s.gql(
      'query($t: Int!) { ranking(tournamentId: $t, combinedRoundsDefinition: 0, take: 100) { entries { position ' +
        'points exactHits outcomeHits user { id name } } } }',
      { t: tournamentId },
      bearer(token),
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.ranking.entries).toEqual(asEntries(await reference({ roundIds: [md1.id, md2.id] })));
    const bad = await s.gql(
      'query($t: Int!) { ranking(tournamentId: $t, combinedRoundsDefinition: 3) { total } }',
      { t: tournamentId },
      bearer(token),
    );
    expect(bad.errors?.[0].extensions.argumentName).toBe('combinedRoundsDefinition');
  });

  it('follows featureSettings and minUsersForAreaRanking for players; admins see every ranking', async () => {
    const p = s.t.db.prisma;
    const demo = await p.company.findFirstOrThrow({ where: { appPath: 'demo' } });
    const small = s.demo.areas.Finance;
    await p.company.update({
      where: { id: demo.id },
      data: {
        featureSettings: {
          ...(demo.featureSettings as object),
          areas: { minUsersForAreaRanking: 50, selfAssignOnSignUp: false },
          rankings: {
            showGeneralRanking: false,
            showRoundRankings: true,
            showRoundRankingsForAreas: true,
            visibleAreaRankings: 'all',
          },
        },
      },
    });
    try {
      const hidden = await s.gql(Q, { t: tournamentId }, bearer(token));
      expect(hidden.errors?.[0].extensions.code).toBe('FORBIDDEN');
      const tooSmall = await s.gql(Q, { t: tournamentId, a: small }, bearer(token));
      expect(tooSmall.errors?.[0].message).toMatch(/need at least 50/);
      expect((await s.gql(Q, { t: tournamentId }, bearer(admin))).errors).toBeUndefined();
    } finally {
      await p.company.update({ where: { id: demo.id }, data: { featureSettings: demo.featureSettings as object } });
    }
  });

  it('refuses a tournament of no concern, a foreign round and bad paging', async () => {
    expect((await s.gql(Q, { t: 9999 }, bearer(token))).errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await s.gql(Q, { t: tournamentId, r: 9999 }, bearer(token))).errors?.[0].extensions.argumentName).toBe(
      'roundId',
    );
    expect((await s.gql(Q, { t: tournamentId, take: 500 }, bearer(token))).errors?.[0].extensions.argumentName).toBe(
      'take',
    );
  });

  it('costs a bounded number of statements whatever the page size', async () => {
    // The ranking's own statements: with the response cache off, which would add its reads (and, on
    // PostgreSQL, vary with the suite's other databases' writes).
    const off = await startTestServer({ env: { RESPONSE_CACHE_MB: '0' } });
    try {
      const t = await off.loginAs('player');
      const a = await off.gql(Q, { t: tournamentId, take: 2 }, bearer(t));
      const b = await off.gql(Q, { t: tournamentId, take: 100 }, bearer(t));
      expect(a.errors).toBeUndefined();
      expect(b.errors).toBeUndefined();
      // The tenant's tournaments, the counts and the page from the standings index (2 statements), or past the
      // scored users the counts, then the page and counts over all users (3), the caller's standing, and the
      // credential lookup: never more, whatever the page size.
      for (const r of [a, b]) expect(r.extensions!.sqlStatements).toBeLessThanOrEqual(8);
    } finally {
      await off.close();
    }
  });

  const EVERY_RULE: Rules[] = (['HITS', 'POINTS', 'ROUND_WINS'] as const).flatMap((tieRule) =>
    [true, false].flatMap((rankAdmins) =>
      [true, false].map((rankNonPlayers) => ({ tieRule, rankAdmins, rankNonPlayers })),
    ),
  );

  it.each(EVERY_RULE)(
    'every page and every standing equal the reference, where a standings index serves them and where it does ' +
      'not, under $tieRule (rankAdmins $rankAdmins, rankNonPlayers $rankNonPlayers)',
    async (rules) => {
      const p = s.t.db.prisma;
      const demoId = s.demo.companies.DEMO;
      // A user who never predicted (no standing row: ranked on zero) and a deleted user who has a standing row.
      const fresh = await p.user.create({
        data: {
          ...DEFAULT_USER_JSON,
          companyId: demoId,
          email: 'latecomer@demo.test',
          name: 'Aaa Latecomer',
          externalId: 'late',
          loginProviderId: 'late',
        },
      });
      const gone = s.demo.users['player20@demo.test'];
      await p.user.update({ where: { id: gone }, data: { deletedAt: new Date() } });
      // A rename moves a user among those tied with them: the standings carry the name the order reads.
      const renamed = await p.user.findUniqueOrThrow({ where: { id: s.demo.users['player7@demo.test'] } });
      await p.user.update({ where: { id: renamed.id }, data: { name: 'Aaaa Renamed' } });
      try {
        const expected = await reference({}, rules);
        expect(expected.some((r) => r.userId === fresh.id)).toBe(rules.rankNonPlayers);
        const scope = { companyId: demoId, tournamentId, rules };
        for (const take of [1, 3, 7, 100]) {
          for (let skip = 0; skip < expected.length + take; skip += take) {
            const page = await rankingPage(p, scope, skip, take);
            expect(page.total).toBe(expected.length);
            expect(page.entries, `skip ${skip} take ${take}`).toEqual(expected.slice(skip, skip + take));
          }
        }
        for (const r of expected) expect(await rankingOf(p, scope, r.userId)).toEqual(r);
        expect(await rankingOf(p, scope, gone)).toBeNull();
        // Everyone's at once, as a live ranking event reads its subscribers' (the deleted user is not ranked).
        const all = await rankingsOf(p, scope, [...expected.map((r) => r.userId), gone]);
        expect([...all.values()].sort((a, b) => a.userId - b.userId)).toEqual(
          [...expected].sort((a, b) => a.userId - b.userId),
        );
        expect(expected.find((r) => r.userId === renamed.id)!.name).toBe('Aaaa Renamed');
      } finally {
        await p.user.update({ where: { id: renamed.id }, data: { name: renamed.name } });
        await p.user.update({ where: { id: gone }, data: { deletedAt: null } });
        await p.user.delete({ where: { id: fresh.id } });
      }
    },
  );

  it('under POINTS the general page and a standing are read along the POINTS index of the standings', async () => {
    const p = s.t.db.prisma;
    const scope = { companyId: s.demo.companies.DEMO, tournamentId, rules: { ...DEFAULT_RULES, tieRule: 'POINTS' } };
    // The statements rankingPage and rankingOf run, captured as they go to the database.
    const sent: Prisma.Sql[] = [];
    const spy = { $queryRaw: (sql: Prisma.Sql) => (sent.push(sql), p.$queryRaw(sql)) } as unknown as typeof p;
    await rankingPage(spy, scope as never, 0, 5);
    await rankingOf(spy, scope as never, s.demo.users['player1@demo.test']);
    expect(sent).toHaveLength(2);
    const postgres = s.t.target.provider === 'postgresql';
    if (postgres) await p.$executeRawUnsafe('ANALYZE "TournamentStanding"');
    for (const sql of sent) {
      // PostgreSQL would scan a table this small: told not to, it shows which index the statement can walk.
      const plan = postgres
        ? await p.$transaction(async (tx) => {
            await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
            return tx.$queryRaw<Record<string, string>[]>(Prisma.sql`EXPLAIN ${sql}`);
          })
        : await p.$queryRaw<Record<string, string>[]>(Prisma.sql`EXPLAIN QUERY PLAN ${sql}`);
      expect(
        JSON.stringify(plan, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)),
        sql.text,
      ).toContain('TournamentStanding_points_order_idx');
    }
  });

  it('under ROUND_WINS the general page and standings are read from the kept round wins', async () => {
    const p = s.t.db.prisma;
    const rules: Rules = { ...DEFAULT_RULES, tieRule: 'ROUND_WINS' };
    const scope = { companyId: s.demo.companies.DEMO, tournamentId, rules };
    const sent: Prisma.Sql[] = [];
    const spy = { $queryRaw: (sql: Prisma.Sql) => (sent.push(sql), p.$queryRaw(sql)) } as unknown as typeof p;
    await rankingPage(spy, scope, 0, 5);
    await rankingOf(spy, scope, s.demo.users['player1@demo.test']);
    await rankingsOf(spy, scope, [s.demo.users['player1@demo.test']]);
    expect(sent).toHaveLength(3);
    const postgres = s.t.target.provider === 'postgresql';
    for (const sql of sent) {
      const plan = postgres
        ? await p.$transaction(async (tx) => {
            await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
            return tx.$queryRaw<Record<string, string>[]>(Prisma.sql`EXPLAIN ${sql}`);
          })
        : await p.$queryRaw<Record<string, string>[]>(Prisma.sql`EXPLAIN QUERY PLAN ${sql}`);
      const text = JSON.stringify(plan, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
      // Read from the standings' kept round wins, not by summing every scored prediction per round.
      expect(text, sql.text).toContain('TournamentStanding');
      expect(sql.text, sql.text).not.toContain('"Prediction"');
    }
  });

  it.each(EVERY_RULE.filter((r) => !r.rankAdmins || !r.rankNonPlayers))(
    'under $tieRule (rankAdmins $rankAdmins, rankNonPlayers $rankNonPlayers) a page walks the rule’s standings index',
    async (rules) => {
      const p = s.t.db.prisma;
      const sent: Prisma.Sql[] = [];
      const spy = { $queryRaw: (sql: Prisma.Sql) => (sent.push(sql), p.$queryRaw(sql)) } as unknown as typeof p;
      await rankingPage(spy, { companyId: s.demo.companies.DEMO, tournamentId, rules }, 0, 5);
      // One statement: the walk, its counts and the total.
      expect(sent).toHaveLength(1);
      const plan = await planOf(sent[0]);
      expect(plan, sent[0].text).toContain(indexOf(rules));
      // Without non-players the total counts standing rows along the narrow index, not the wide ranking ones.
      if (!rules.rankNonPlayers) expect(plan, sent[0].text).toContain('TournamentStanding_players_count_idx');
    },
  );

  /**
   * The demo company ranked under ROUND_WINS for the rest of the test, as set through the API (which counts its round
   * wins: they are kept under that rule only), and under HITS again after it.
   */
  const underRoundWins = async () => {
    const SET = `mutation($c: Int!, $i: ScoringSettingsInput!) { updateScoringSettings(companyId: $c, input: $i,
      confirm: true) { __typename } }`;
    const set = async (tieRule: TieRule) => {
      const r = await s.gql(SET, { c: s.demo.companies.DEMO, i: { tieRule } }, bearer(admin));
      expect(r.errors).toBeUndefined();
    };
    await set('ROUND_WINS');
    onTestFinished(() => set('HITS'));
  };

  const UPDATE_USER = `mutation($u: Int!, $i: UpdateUserInput!) { updateUser(userId: $u, input: $i) { id role } }`;

  it('without admins, a player made admin leaves every ranking at once and is back when made player', async () => {
    await underRoundWins();
    const p = s.t.db.prisma;
    const winner = await soleRoundWinner();
    const check = async (rules: Rules, what: string) => {
      const expected = await reference({}, rules);
      const scope = { companyId: s.demo.companies.DEMO, tournamentId, rules };
      for (let skip = 0; skip < expected.length; skip += 3)
        expect((await rankingPage(p, scope, skip, 3)).entries, `${what}: skip ${skip}`).toEqual(
          expected.slice(skip, skip + 3),
        );
      expect((await rankingPage(p, scope, 0, 3)).total, what).toBe(expected.length);
      for (const r of expected) expect(await rankingOf(p, scope, r.userId), what).toEqual(r);
      const all = await rankingsOf(p, scope, [...expected.map((r) => r.userId), winner.userId]);
      expect(
        [...all.values()].sort((a, b) => a.userId - b.userId),
        what,
      ).toEqual([...expected].sort((a, b) => a.userId - b.userId));
      return expected;
    };
    const rulesWithoutAdmins = EVERY_RULE.filter((r) => !r.rankAdmins);
    // Through the API, which recounts the round wins among players (a role written around it leaves them as they
    // were until the standings are rebuilt).
    const setRole = async (role: string) => {
      const r = await s.gql(UPDATE_USER, { u: winner.userId, i: { role } }, bearer(admin));
      expect(r.errors).toBeUndefined();
    };
    try {
      await setRole('admin');
      for (const rules of rulesWithoutAdmins) {
        const expected = await check(rules, `made admin, ${JSON.stringify(rules)}`);
        expect(expected.some((r) => r.userId === winner.userId)).toBe(false);
      }
    } finally {
      await setRole('player');
    }
    for (const rules of rulesWithoutAdmins) {
      const expected = await check(rules, `player again, ${JSON.stringify(rules)}`);
      expect(expected.some((r) => r.userId === winner.userId)).toBe(true);
    }
  });

  it('kept round wins follow corrected results and a round winner deactivated and reactivated', async () => {
    await underRoundWins();
    const p = s.t.db.prisma;
    const rules: Rules = { tieRule: 'ROUND_WINS', rankAdmins: true, rankNonPlayers: true };
    const scope = { companyId: s.demo.companies.DEMO, tournamentId, rules };
    const check = async (what: string) => {
      const expected = await reference({}, rules);
      for (const take of [3, 100])
        for (let skip = 0; skip < expected.length; skip += take)
          expect((await rankingPage(p, scope, skip, take)).entries, `${what}: skip ${skip}`).toEqual(
            expected.slice(skip, skip + take),
          );
      for (const r of expected) expect(await rankingOf(p, scope, r.userId), what).toEqual(r);
      const all = await rankingsOf(
        p,
        scope,
        expected.map((r) => r.userId),
      );
      for (const r of expected) expect(all.get(r.userId), what).toEqual(r);
      return new Map(expected.map((r) => [r.userId, r.roundWins]));
    };
    const wins = [await check('as seeded')];
    const { rescoreMatches } = await import('../../src/game/rescore.ts');
    const opener = await p.match.findUniqueOrThrow({ where: { id: s.demo.matches.opener } });
    const setResult = async (homeTeamGoals: number, awayTeamGoals: number) => {
      await p.match.update({ where: { id: opener.id }, data: { homeTeamGoals, awayTeamGoals } });
      await p.$transaction((tx) => rescoreMatches(tx, [opener.id]));
    };
    const deactivate = `mutation($u: Int!) { deactivateUser(userId: $u) { id } }`;
    const reactivate = `mutation($u: Int!) { reactivateUser(userId: $u) { id } }`;
    let deactivated: number | null = null;
    try {
      // Each corrected result of the opener moves some of Matchday 1's points and so, here, its winners.
      for (const [h, a] of [
        [0, 0],
        [3, 0],
        [0, 2],
      ]) {
        await setResult(h, a);
        wins.push(await check(`opener ${h}-${a}`));
      }
      // A round's only winner deactivated: the next best of the round win it instead.
      const leader = await soleRoundWinner();
      const off = await s.gql(deactivate, { u: leader.userId }, bearer(admin));
      expect(off.errors).toBeUndefined();
      deactivated = leader.userId;
      wins.push(await check('a round winner deactivated'));
      const on = await s.gql(reactivate, { u: leader.userId }, bearer(admin));
      expect(on.errors).toBeUndefined();
      deactivated = null;
      wins.push(await check('the round winner reactivated'));
      // The round wins did move along the way (else the checks above prove little).
      const moved = (a: Map<number, number | undefined>, b: Map<number, number | undefined>) =>
        [...a].some(([id, w]) => b.has(id) && b.get(id) !== w);
      expect(wins.slice(1).some((w, i) => moved(wins[i], w))).toBe(true);
      expect(moved(wins[4], wins[5])).toBe(true);
    } finally {
      if (deactivated !== null) await s.gql(reactivate, { u: deactivated }, bearer(admin));
      await setResult(opener.homeTeamGoals!, opener.awayTeamGoals!);
    }
    expect(await check('as seeded again')).toEqual(wins[0]);
  });

  it('round wins are left alone under another tie rule and counted when a company switches to ROUND_WINS', async () => {
    const p = s.t.db.prisma;
    const rules: Rules = { tieRule: 'ROUND_WINS', rankAdmins: false, rankNonPlayers: true };
    const scope = { companyId: s.demo.companies.DEMO, tournamentId, rules };
    const kept = async () =>
      (
        await p.tournamentStanding.findMany({
          where: { tournamentId, companyId: scope.companyId },
          select: { userId: true, roundWins: true, playerRoundWins: true },
          orderBy: { userId: 'asc' },
        })
      ).map((r) => JSON.stringify(r));
    const { rescoreMatches } = await import('../../src/game/rescore.ts');
    const opener = await p.match.findUniqueOrThrow({ where: { id: s.demo.matches.opener } });
    const setResult = async (homeTeamGoals: number | null, awayTeamGoals: number | null) => {
      await p.match.update({ where: { id: opener.id }, data: { homeTeamGoals, awayTeamGoals } });
      await p.$transaction((tx) => rescoreMatches(tx, [opener.id]));
    };
    const before = await kept();
    const wins = (ranked: Awaited<ReturnType<typeof reference>>) => ranked.map((r) => [r.userId, r.roundWins]);
    const seeded = wins(await reference({}, rules));
    try {
      // Under HITS (the demo's rule) a corrected result moves the points, and the kept round wins stay as they were.
      await setResult(3, 0);
      expect(await kept()).toEqual(before);
      const expected = await reference({}, rules);
      expect(wins(expected)).not.toEqual(seeded); // the correction did give rounds other winners
      await underRoundWins();
      expect((await rankingPage(p, scope, 0, 100)).entries).toEqual(expected);
      for (const r of expected) expect(await rankingOf(p, scope, r.userId)).toEqual(r);
      // Kept from now on: the result put back moves them back.
      await setResult(opener.homeTeamGoals, opener.awayTeamGoals);
      expect((await rankingPage(p, scope, 0, 100)).entries).toEqual(await reference({}, rules));
    } finally {
      await setResult(opener.homeTeamGoals, opener.awayTeamGoals);
    }
  });

  it.each<[string, Rules]>([
    ['POINTS', { tieRule: 'POINTS', rankAdmins: true, rankNonPlayers: true }],
    ['ROUND_WINS', { tieRule: 'ROUND_WINS', rankAdmins: true, rankNonPlayers: true }],
    ['HITS without admins', { tieRule: 'HITS', rankAdmins: false, rankNonPlayers: true }],
    ['ROUND_WINS without people who never played', { tieRule: 'ROUND_WINS', rankAdmins: true, rankNonPlayers: false }],
    ['POINTS, players who played only', { tieRule: 'POINTS', rankAdmins: false, rankNonPlayers: false }],
  ])('under %s every ranking and standing equals the reference', async (_name, rules) => {
    const p = s.t.db.prisma;
    const demoId = s.demo.companies.DEMO;
    const SET = `mutation($c: Int!, $i: ScoringSettingsInput!) { updateScoringSettings(companyId: $c, input: $i,
      confirm: true) { rescoredPredictions scoringSettings { tieRule rankAdmins rankNonPlayers } } }`;
    // A latecomer who never played, and the admin who did not predict either in this tournament.
    const fresh = await p.user.create({
      data: {
        ...DEFAULT_USER_JSON,
        companyId: demoId,
        email: 'idle@demo.test',
        name: 'Idle Colleague',
        externalId: 'idle',
        loginProviderId: 'idle',
      },
    });
    try {
      const set = await s.gql(SET, { c: demoId, i: rules }, bearer(admin));
      expect(set.errors).toBeUndefined();
      // Ties and membership are read when ranking: nothing is rescored.
      expect(set.data.updateScoringSettings).toEqual({ rescoredPredictions: 0, scoringSettings: rules });
      const round = s.demo.rounds['Semi-finals'];
      const area = s.demo.areas.Argentina;
      const R = `query($t: Int!, $r: Int, $a: Int, $skip: Int, $take: Int) { ranking(tournamentId: $t, roundId: $r,
        areaId: $a, skip: $skip, take: $take) { total entries { position points roundWins user { id } } } }`;
      for (const filter of [{}, { roundId: round }, { areaId: area }]) {
        const expected = await reference(filter, rules);
        const shown = expected.map((r) => ({
          position: r.position,
          points: r.points,
          roundWins: rules.tieRule === 'ROUND_WINS' ? r.roundWins : null,
          user: { id: r.userId },
        }));
        const first = await s.gql(R, { t: tournamentId, r: filter.roundId, a: filter.areaId, take: 4 }, bearer(admin));
        const rest = await s.gql(
          R,
          { t: tournamentId, r: filter.roundId, a: filter.areaId, skip: 4, take: 100 },
          bearer(admin),
        );
        expect(first.errors).toBeUndefined();
        expect(first.data.ranking.total, JSON.stringify(filter)).toBe(expected.length);
        expect([...first.data.ranking.entries, ...rest.data.ranking.entries], JSON.stringify(filter)).toEqual(shown);
        const scope = {
          companyId: demoId,
          tournamentId,
          roundIds: filter.roundId ? [filter.roundId] : null,
          areaId: filter.areaId ?? null,
          rules,
        };
        for (const r of expected) expect(await rankingOf(p, scope, r.userId)).toEqual(r);
        const all = await rankingsOf(
          p,
          scope,
          expected.map((r) => r.userId),
        );
        for (const r of expected) expect(all.get(r.userId)).toEqual(r);
      }
      const general = await reference({}, rules);
      expect(general.some((r) => r.userId === fresh.id)).toBe(rules.rankNonPlayers);
      if (!rules.rankAdmins) expect(general.some((r) => r.userId === s.demo.users['admin@demo.test'])).toBe(false);
      // Some position is shared under every rule in the demo data.
      expect(general.some((r, i) => i > 0 && r.position === general[i - 1].position)).toBe(true);
    } finally {
      await s.gql(SET, { c: demoId, i: DEFAULT_RULES }, bearer(admin));
      await p.user.delete({ where: { id: fresh.id } });
    }
  });

  it(
    'who played and the round wins among players follow a newcomer, a withdrawn answer, an admin winning rounds ' +
      'and a deactivated, reactivated or erased user, under every rule',
    async () => {
      await underRoundWins();
      const p = s.t.db.prisma;
      const demoId = s.demo.companies.DEMO;
      const byUser = (a: { userId: number }, b: { userId: number }) => a.userId - b.userId;
      const newcomer = (name: string, key: string) =>
        p.user.create({
          data: {
            ...DEFAULT_USER_JSON,
            companyId: demoId,
            email: `${key}@demo.test`,
            name,
            externalId: key,
            loginProviderId: key,
          },
        });
      const [late, answering] = [await newcomer('Late Predictor', 'late-p'), await newcomer('Only Answered', 'only-a')];
      const watched = [late.id, answering.id];
      /** Every page, the total, every standing and everyone's at once equal the reference under every rule. */
      const checkEveryRule = async (what: string) => {
        const ranked = new Map<string, Set<number>>();
        for (const rules of EVERY_RULE) {
          const expected = await reference({}, rules);
          const scope = { companyId: demoId, tournamentId, rules };
          const label = `${what}, ${JSON.stringify(rules)}`;
          for (let skip = 0; skip < expected.length + 4; skip += 4) {
            const page = await rankingPage(p, scope, skip, 4);
            expect(page.total, label).toBe(expected.length);
            expect(page.entries, `${label}: skip ${skip}`).toEqual(expected.slice(skip, skip + 4));
          }
          for (const r of expected) expect(await rankingOf(p, scope, r.userId), label).toEqual(r);
          const ids = new Set(expected.map((r) => r.userId));
          for (const id of watched.filter((w) => !ids.has(w))) expect(await rankingOf(p, scope, id), label).toBeNull();
          const all = await rankingsOf(p, scope, [...ids, ...watched]);
          expect([...all.values()].sort(byUser), label).toEqual([...expected].sort(byUser));
          ranked.set(JSON.stringify(rules), ids);
        }
        // Who the rankings without people who never played rank.
        return (id: number) =>
          EVERY_RULE.filter((r) => !r.rankNonPlayers).map((r) => ranked.get(JSON.stringify(r))!.has(id));
      };
      const hasStanding = async (userId: number) =>
        (await p.tournamentStanding.count({ where: { tournamentId, userId } })) === 1;
      const as = async (user: { id: number; role: string }) =>
        bearer(await forgeAccessToken({ userId: user.id, companyId: demoId, role: user.role, tokenVersion: 0 }));
      const mutate = async (query: string, variables: Record<string, unknown>, headers: Record<string, string>) => {
        const r = await s.gql(query, variables, headers);
        expect(r.errors, query).toBeUndefined();
        return r.data;
      };
      const demoAdmin = await p.user.findUniqueOrThrow({ where: { id: s.demo.users['admin@demo.test'] } });
      const finished = await p.match.findMany({ where: { tournamentId, status: 'FINISHED' } });
      const adminsBefore = await p.prediction.findMany({ where: { userId: demoAdmin.id } });
      let questionId: number | null = null;
      let deactivated: number | null = null;
      try {
        let played = await checkEveryRule('newcomers who did not play');
        expect([...played(late.id), ...played(answering.id)].some(Boolean)).toBe(false);
        expect(await hasStanding(late.id)).toBe(false);

        // A first prediction, on a match still open: a player with nothing scored yet.
        const open = await p.match.findFirstOrThrow({
          where: { tournamentId, status: 'SCHEDULED', date: { gt: new Date(Date.now() + 3_600_000) } },
        });
        const PREDICT = `mutation($i: UpsertPredictionInput!) { upsertPrediction(input: $i) { id } }`;
        await mutate(PREDICT, { i: { matchId: open.id, homeTeamGoals: 1, awayTeamGoals: 0 } }, await as(late));
        expect(await hasStanding(late.id)).toBe(true);
        played = await checkEveryRule('a newcomer predicted');
        expect(played(late.id).every(Boolean)).toBe(true);

        // An answer as the only part played, then withdrawn with its question.
        const ASK = `mutation($i: CreateBonusQuestionInput!) { createBonusQuestion(input: $i) { id } }`;
        const ANSWER = `mutation($id: Int!, $a: String!) { answerBonusQuestion(id: $id, answer: $a) { id } }`;
        const DROP = `mutation($id: Int!) { deleteBonusQuestion(id: $id) }`;
        const asked = await mutate(
          ASK,
          {
            i: {
              tournamentId,
              kind: 'CHOICE',
              text: 'Which half has more goals?',
              options: ['First', 'Second'],
              points: 5,
              closesAt: new Date(Date.now() + 86_400_000).toISOString(),
            },
          },
          bearer(admin),
        );
        questionId = asked.createBonusQuestion.id as number;
        await mutate(ANSWER, { id: questionId, a: '0' }, await as(answering));
        played = await checkEveryRule('a newcomer answered a bonus question');
        expect(played(answering.id).every(Boolean)).toBe(true);
        await mutate(DROP, { id: questionId }, bearer(admin));
        questionId = null;
        expect(await hasStanding(answering.id)).toBe(false);
        played = await checkEveryRule('the only answer withdrawn');
        expect(played(answering.id).some(Boolean)).toBe(false);

        // The admin predicts every finished match exactly (an operator's correction, rescored): they win rounds a
        // player won, so the round wins among everyone and among players differ.
        for (const m of finished) {
          const goals = { homeTeamGoals: m.homeTeamGoals!, awayTeamGoals: m.awayTeamGoals!, penaltiesWinner: null };
          await p.prediction.upsert({
            where: { userId_matchId: { userId: demoAdmin.id, matchId: m.id } },
            create: { userId: demoAdmin.id, matchId: m.id, ...goals, penaltiesWinner: m.penaltiesWinner },
            update: { ...goals, penaltiesWinner: m.penaltiesWinner },
          });
        }
        const { rescoreMatches } = await import('../../src/game/rescore.ts');
        await p.$transaction((tx) =>
          rescoreMatches(
            tx,
            finished.map((m) => m.id),
          ),
        );
        const standings = await p.tournamentStanding.findMany({ where: { tournamentId, companyId: demoId } });
        expect(standings.some((st) => st.roundWins !== st.playerRoundWins)).toBe(true);
        expect(standings.find((st) => st.userId === demoAdmin.id)!.roundWins).toBeGreaterThan(0);
        await checkEveryRule('the admin won rounds');
        // The case that ranked every score per request: now one statement along the index of players' round wins.
        for (const rules of EVERY_RULE.filter((r) => r.tieRule === 'ROUND_WINS' && !r.rankAdmins)) {
          const scope = { companyId: demoId, tournamentId, rules };
          const sent: Prisma.Sql[] = [];
          const spy = { $queryRaw: (sql: Prisma.Sql) => (sent.push(sql), p.$queryRaw(sql)) } as unknown as typeof p;
          await rankingPage(spy, scope, 0, 5);
          await rankingOf(spy, scope, s.demo.users['player1@demo.test']);
          await rankingsOf(spy, scope, [s.demo.users['player1@demo.test']]);
          expect(sent).toHaveLength(3);
          expect(await planOf(sent[0]), sent[0].text).toContain('TournamentStanding_player_round_wins_order_idx');
          for (const sql of sent) expect(sql.text, sql.text).not.toContain('"Prediction"');
        }

        // A round's only winner among players deactivated, reactivated; a newcomer erased.
        const leader = await soleRoundWinner({ amongPlayers: true });
        const DEACTIVATE = `mutation($u: Int!) { deactivateUser(userId: $u) { id } }`;
        const REACTIVATE = `mutation($u: Int!) { reactivateUser(userId: $u) { id } }`;
        const ERASE = `mutation($u: Int!) { deleteUser(userId: $u) }`;
        await mutate(DEACTIVATE, { u: leader.userId }, bearer(admin));
        deactivated = leader.userId;
        await checkEveryRule('a round winner deactivated');
        await mutate(REACTIVATE, { u: leader.userId }, bearer(admin));
        deactivated = null;
        await checkEveryRule('the round winner reactivated');
        await mutate(ERASE, { u: late.id }, bearer(admin));
        played = await checkEveryRule('a newcomer who played erased');
        expect(played(late.id).some(Boolean)).toBe(false);
      } finally {
        if (deactivated !== null)
          await s.gql(`mutation($u: Int!) { reactivateUser(userId: $u) { id } }`, { u: deactivated }, bearer(admin));
        if (questionId !== null)
          await s.gql(`mutation($id: Int!) { deleteBonusQuestion(id: $id) }`, { id: questionId }, bearer(admin));
        // The admin's predictions as seeded, and the standings built from the rows again.
        await p.prediction.deleteMany({ where: { userId: demoAdmin.id } });
        await p.prediction.createMany({ data: adminsBefore });
        const { rebuildStandings } = await import('../../src/game/standings.ts');
        await rebuildStandings(p, [tournamentId]);
        // The erased newcomer stays, as erased people do (the audit trail names them): nobody ranks them.
        await p.user.delete({ where: { id: answering.id } });
      }
    },
  );

  // Last: its rebuild rewrites every standing, and the plan checks read the table before those dead rows.
  it('round wins are whole after a rebuild and after everyone’s standing is remade', async () => {
    const p = s.t.db.prisma;
    const { rebuildStandings, refreshStandings } = await import('../../src/game/standings.ts');
    const variants: Rules[] = [true, false].map((rankAdmins) => ({
      tieRule: 'ROUND_WINS',
      rankAdmins,
      rankNonPlayers: false,
    }));
    const kept = async (what: string) => {
      for (const rules of variants) {
        const scope = { companyId: s.demo.companies.DEMO, tournamentId, rules };
        const expected = await reference({}, rules);
        expect(expected.some((r) => (r.roundWins ?? 0) > 0)).toBe(true);
        expect((await rankingPage(p, scope, 0, 100)).entries, what).toEqual(expected);
        for (const r of expected) expect(await rankingOf(p, scope, r.userId), what).toEqual(r);
      }
    };
    await p.tournamentStanding.deleteMany({ where: { tournamentId } });
    await rebuildStandings(p, [tournamentId]);
    await kept('rebuilt');
    // A rescoring's first standings: one statement for many users, each counting the rounds they win.
    const players = await p.tournamentStanding.findMany({ where: { tournamentId }, select: { userId: true } });
    await p.tournamentStanding.deleteMany({ where: { tournamentId } });
    await refreshStandings(
      p,
      tournamentId,
      players.map((r) => r.userId),
    );
    await kept('refreshed');
  });
});
