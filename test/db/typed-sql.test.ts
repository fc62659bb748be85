// Every statement written with src/db/typed-sql.ts runs here on the suite's database (SQLite; PostgreSQL when
// DATABASE_URL names one), over the seeded demo data: each row a query returns has exactly the columns its shape
// declares, each of a kind the shape reads; a statement of whole rows returns what findMany builds for them; and the
// writes do what their callers count on. PostgreSQL's own statements (prode_meta, row locks, VACUUM) run on
// PostgreSQL. A statement added to a file's list without a case here fails the last test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  META_TABLES,
  Model,
  modelRowsOf,
  readRows,
  rowsOf,
  shapeProblems,
  type ModelQuery,
  type Queryable,
  type Query,
  type RowOf,
  type Shape,
} from '../../src/db/typed-sql.ts';
import { Prisma } from '../../src/db/sql.ts';
import { companiesSql } from '../../src/app/companies.ts';
import { communitySql } from '../../src/app/community.ts';
import { peopleSql } from '../../src/app/people.ts';
import { ssoSql } from '../../src/app/sso.ts';
import { claimSql } from '../../src/db/claims.ts';
import { companyCodeSql } from '../../src/db/company-code.ts';
import { rowLockSql } from '../../src/db/row-locks.ts';
import { authRowSql } from '../../src/engine/db/auth-rows.ts';
import { loaderSql } from '../../src/engine/db/loader-sql.ts';
import { leaseSql } from '../../src/db/leases.ts';
import { rateCounterSql } from '../../src/db/rate-counters.ts';
import { rankingSql, type RankingScope } from '../../src/game/ranking-query.ts';
import type { TieRule } from '../../src/domain/scoring-settings.ts';
import { rescoreSql } from '../../src/game/rescore.ts';
import { rescoreJobSql, rescoreTaskSql } from '../../src/game/rescore-jobs.ts';
import { rescoreNotificationSql } from '../../src/game/rescore-notifications.ts';
import { standingsSql } from '../../src/game/standings.ts';
import { roundWinsSql } from '../../src/game/round-wins.ts';
import { matchStatisticsSql } from '../../src/game/match-statistics.ts';
import { roundWinnersSql } from '../../src/game/round-winners.ts';
import { seasonRankingSql, type SeasonScope } from '../../src/game/season-ranking.ts';
import { areaRankingSql } from '../../src/game/area-ranking.ts';
import { triviaRankingSql, type TriviaRankingScope } from '../../src/game/trivia-ranking.ts';
import type { KindChange } from '../../src/domain/rescore-plan.ts';
import { DEFAULT_COMPANY_JSON } from '../../src/domain/defaults.ts';
import { seededDatabase, suiteProvider, type SeededDatabase } from '../helpers/db.ts';

const named = (prefix: string, statements: object) => Object.keys(statements).map((k) => `${prefix}.${k}`);
/** PostgreSQL's only: its prode_meta tables, its row locks (FOR UPDATE, FOR NO KEY UPDATE) and VACUUM. */
const ON_POSTGRESQL = [
  ...named('rateCounters', rateCounterSql),
  ...named('lease', leaseSql),
  ...named('rescoreJobs', rescoreJobSql),
  ...named('claims', claimSql),
  ...named('rowLocks', rowLockSql),
];
const STATEMENTS = [
  ...named('ranking', rankingSql),
  ...named('standings', standingsSql),
  ...named('roundWins', roundWinsSql),
  ...named('season', seasonRankingSql),
  ...named('areaRanking', areaRankingSql),
  ...named('trivia', triviaRankingSql),
  ...named('matchStatistics', matchStatisticsSql),
  ...named('roundWinners', roundWinnersSql),
  ...named('companyCode', companyCodeSql),
  ...named('companies', companiesSql),
  ...named('people', peopleSql),
  ...named('sso', ssoSql),
  ...named('community', communitySql),
  ...named('rescore', rescoreSql),
  ...named('rescoreNotifications', rescoreNotificationSql),
  ...named('rescoreTasks', rescoreTaskSql),
  ...named('authRows', authRowSql),
  ...named('loader', loaderSql),
  ...(suiteProvider === 'postgresql' ? ON_POSTGRESQL : []),
];
const covered = new Set<string>();

let database: SeededDatabase;
let general: RankingScope;
let player: number;
beforeAll(async () => {
  database = await seededDatabase();
  general = { companyId: database.demo.companies.DEMO, tournamentId: database.demo.tournament };
  player = database.demo.users['player1@demo.test'];
});
afterAll(() => database.drop());

const JS_TYPE = { number: 'number', string: 'string', boolean: 'boolean', date: 'object' } as const;

/** Runs a query once, as the database returns it and as rowsOf reads it; both must be the shape it declares. */
function fits<S extends Shape, A extends unknown[]>(name: string, statement: Query<S, A>, ...args: A) {
  return fitsOn(database.db.prisma, name, statement, ...args);
}

async function fitsOn<S extends Shape, A extends unknown[]>(
  db: Queryable,
  name: string,
  statement: Query<S, A>,
  ...args: A
) {
  covered.add(name);
  const raw = await db.$queryRaw<Record<string, unknown>[]>(statement.sql(...args));
  expect(raw.length, `${name}: rows to check`).toBeGreaterThan(0);
  for (const row of raw) expect(shapeProblems(statement.shape, row), name).toEqual([]);
  const rows = readRows(statement.shape, raw);
  for (const row of rows) {
    expect(Object.keys(row).sort()).toEqual(Object.keys(statement.shape).sort());
    for (const [key, kind] of Object.entries(statement.shape)) {
      const value = (row as Record<string, unknown>)[key];
      if (value === null && kind.endsWith('?')) continue;
      expect(typeof value, `${name}.${key}`).toBe(JS_TYPE[kind.replace('?', '') as keyof typeof JS_TYPE]);
      if (typeof value === 'number') expect(Number.isFinite(value), `${name}.${key}`).toBe(true);
    }
  }
  return rows;
}

/** Runs a statement of whole rows: they are the rows findMany builds for their ids, in the statement's order. */
async function sameRows<M extends Model, A extends unknown[]>(
  name: string,
  statement: ModelQuery<M, A>,
  findMany: (ids: number[]) => Promise<Array<{ id: number }>>,
  ...args: A
) {
  covered.add(name);
  const rows = await modelRowsOf(database.db.prisma, statement, ...args);
  expect(rows.length, `${name}: rows to check`).toBeGreaterThan(0);
  const ids = rows.map((r) => (r as { id: number }).id);
  const found = new Map((await findMany(ids)).map((r) => [r.id, r]));
  expect(rows, name).toEqual(ids.map((id) => found.get(id)));
  return rows;
}

/** A kind of prediction as read, taking the score it has: a rescoring that changes nothing but the time. */
function sameScore(kind: RowOf<typeof rescoreSql.kindsOf.shape>): KindChange {
  const read = kind as KindChange['kind'];
  const { status, points, exactHit, outcomeHit } = read;
  return {
    kind: read,
    score: { status, points, exactHit, outcomeHit },
    standing: { points: 0, exactHits: 0, outcomeHits: 0 },
  };
}

const standingsOf = (tournamentId: number) =>
  database.db.prisma.tournamentStanding.findMany({
    where: { tournamentId },
    orderBy: [{ userId: 'asc' }],
  });

describe('typed SQL on the database', () => {
  it('ranking queries return the rows they declare, for every kind of scope and tie rule', async () => {
    const user = await database.db.prisma.user.findUniqueOrThrow({ where: { id: player } });
    const rounds = [database.demo.rounds['Matchday 1'], database.demo.rounds['Matchday 2']];
    const scopes: RankingScope[] = [
      general,
      { ...general, roundIds: rounds },
      { ...general, roundIds: rounds, rules: { tieRule: 'ROUND_WINS', rankAdmins: false, rankNonPlayers: false } },
      { ...general, areaId: user.areaLevel1Id, rules: { tieRule: 'POINTS', rankAdmins: true, rankNonPlayers: true } },
      { ...general, rules: { tieRule: 'ROUND_WINS', rankAdmins: true, rankNonPlayers: false } },
    ];
    // Every tie rule, and the variants that read other columns (round wins among players, who played).
    const generals: Array<[RankingScope, TieRule]> = [
      [general, 'HITS'],
      [general, 'POINTS'],
      [{ ...general, rules: { tieRule: 'ROUND_WINS', rankAdmins: false, rankNonPlayers: false } }, 'ROUND_WINS'],
    ];
    for (const [scope, rule] of generals) {
      const [page] = await fits('ranking.generalPage', rankingSql.generalPage, scope, 0, 5, rule);
      expect(page.total).toBeGreaterThan(0);
      const [mine] = await fits('ranking.generalOf', rankingSql.generalOf, scope, player, rule);
      expect(mine.userId).toBe(player);
      const [mines] = await fits('ranking.generalOfMany', rankingSql.generalOfMany, scope, [player], rule);
      expect(mines.position).toBe(mine.ahead + 1);
    }
    for (const scope of scopes) {
      const rows = await fits('ranking.scoresPage', rankingSql.scoresPage, scope, 0, 5);
      const [count] = await fits('ranking.scoresTotal', rankingSql.scoresTotal, scope);
      expect(rows[0].total).toBe(count.total);
      const [own] = await fits('ranking.scoresOf', rankingSql.scoresOf, scope, player);
      expect(own.userId).toBe(player);
      const [many] = await fits('ranking.scoresOfMany', rankingSql.scoresOfMany, scope, [player]);
      expect(many.position).toBe(own.ahead + 1);
    }
  });

  it('match statistics and round winners return the rows they declare, with and without admins', async () => {
    const { opener, shootout } = database.demo.matches;
    for (const rankAdmins of [true, false]) {
      const scope = { companyId: general.companyId, rankAdmins };
      const counts = await fits('matchStatistics.counts', matchStatisticsSql.counts, scope, [opener, shootout]);
      expect(counts.map((r) => r.matchId).sort()).toEqual([opener, shootout].sort());
      await fits('matchStatistics.topScores', matchStatisticsSql.topScores, scope, [opener, shootout]);
      const rules = { tieRule: 'HITS' as const, rankAdmins, rankNonPlayers: !rankAdmins };
      await fits('roundWinners.winners', roundWinnersSql.winners, { ...general, rules });
    }
  });

  it('season and area ranking queries return the rows they declare', async () => {
    const { companyId, tournamentId } = general;
    const season = await database.db.prisma.season.create({
      data: { companyId, name: 'Typed season', tournaments: { create: { tournamentId, weight: 1.5 } } },
    });
    const scopes: SeasonScope[] = [
      {
        companyId,
        seasonId: season.id,
        tournamentIds: [tournamentId],
        rules: { tieRule: 'HITS', rankAdmins: true, rankNonPlayers: true },
      },
      {
        companyId,
        seasonId: season.id,
        tournamentIds: [tournamentId],
        rules: { tieRule: 'ROUND_WINS', rankAdmins: false, rankNonPlayers: false },
      },
    ];
    for (const scope of scopes) {
      const rows = await fits('season.seasonPage', seasonRankingSql.seasonPage, scope, 0, 5);
      const [count] = await fits('season.seasonTotal', seasonRankingSql.seasonTotal, scope);
      expect(rows[0].total).toBe(count.total);
      const [own] = await fits('season.seasonOf', seasonRankingSql.seasonOf, scope, player);
      expect(own.userId).toBe(player);
    }
    const rules = { tieRule: 'HITS' as const, rankAdmins: true, rankNonPlayers: true };
    const areas = await fits('areaRanking.areaScores', areaRankingSql.areaScores, {
      companyId,
      tournamentId,
      level: 1,
      minMembers: 1,
      rules,
    });
    expect(areas.every((a) => a.members >= 1)).toBe(true);
  });

  it('trivia ranking queries return the rows they declare, under both tie rules', async () => {
    const scopes: TriviaRankingScope[] = [
      {
        companyId: general.companyId,
        now: new Date(),
        rules: { tieRule: 'HITS', rankAdmins: true, rankNonPlayers: true },
      },
      {
        companyId: general.companyId,
        now: new Date(),
        rules: { tieRule: 'POINTS', rankAdmins: false, rankNonPlayers: true },
      },
    ];
    for (const scope of scopes) {
      const rows = await fits('trivia.scoresPage', triviaRankingSql.scoresPage, scope, 0, 5);
      const [count] = await fits('trivia.scoresTotal', triviaRankingSql.scoresTotal, scope);
      expect(rows[0].total).toBe(count.total);
      const [own] = await fits('trivia.scoresOf', triviaRankingSql.scoresOf, scope, player);
      expect(own.userId).toBe(player);
    }
  });

  it('standings: a user without a standing is found, and refreshing and rebuilding write what was there', async () => {
    const { tournament } = database.demo;
    // The demo company ranks under HITS, whose round wins rescorings leave as they were: counted now, the rows are
    // what a rebuild writes.
    await database.db.prisma.$executeRaw(roundWinsSql.clearRoundWins(tournament));
    await database.db.prisma.$executeRaw(roundWinsSql.countRoundWins(tournament));
    const before = await standingsOf(tournament);
    expect(before.some((s) => s.userId === player)).toBe(true);

    covered.add('standings.deleteStandings');
    await database.db.prisma.$executeRaw(standingsSql.deleteStandings(tournament, Prisma.join([player])));
    const missing = await fits('standings.withoutStanding', standingsSql.withoutStanding, [
      database.demo.matches.opener,
    ]);
    expect(missing).toEqual([{ tournamentId: tournament, userId: player }]);

    covered.add('standings.insertFor');
    await database.db.prisma.$executeRaw(standingsSql.insertFor(tournament, Prisma.join([player])));
    expect(await standingsOf(tournament)).toEqual(before);

    covered.add('standings.playersOf');
    await database.db.prisma.$executeRaw(standingsSql.deleteStandings(tournament));
    expect(await standingsOf(tournament)).toEqual([]);
    await database.db.prisma.$executeRaw(standingsSql.insertFor(tournament, standingsSql.playersOf(tournament)));
    expect(await standingsOf(tournament)).toEqual(before);
    // A rebuild's rows count no round won; the tournament's recount after them gives each its own.
    await database.db.prisma.$executeRaw(standingsSql.deleteStandings(tournament));
    await database.db.prisma.$executeRaw(standingsSql.insertFor(tournament, standingsSql.playersOf(tournament), false));
    expect(await standingsOf(tournament)).toEqual(before.map((s) => ({ ...s, roundWins: 0, playerRoundWins: 0 })));
    await database.db.prisma.$executeRaw(roundWinsSql.countRoundWins(tournament));
    expect(await standingsOf(tournament)).toEqual(before);

    // A standing of someone who never played goes, and a player without one gets it back.
    covered.add('standings.deleteNonPlayers');
    covered.add('standings.playersWithoutStanding');
    const idle = database.demo.users['admin@demo.test'];
    await database.db.prisma.$executeRaw(standingsSql.insertFor(tournament, Prisma.join([idle])));
    await database.db.prisma.$executeRaw(standingsSql.deleteStandings(tournament, Prisma.join([player])));
    await database.db.prisma.$executeRaw(standingsSql.deleteNonPlayers(tournament));
    await database.db.prisma.$executeRaw(
      standingsSql.insertFor(tournament, standingsSql.playersWithoutStanding(tournament)),
    );
    expect(await standingsOf(tournament)).toEqual(before);
  });

  it('round wins: the winners read, a recount and a move write what the predictions make', async () => {
    const { tournament } = database.demo;
    const prisma = database.db.prisma;
    const before = await standingsOf(tournament);
    expect(before.some((s) => s.roundWins > 0)).toBe(true);
    const rounds = Object.values(database.demo.rounds);
    const matches = await prisma.match.findMany({ where: { roundId: { in: rounds } }, select: { id: true } });
    const matchIds = matches.map((m) => m.id);
    const won = await fits('roundWins.winnersOf', roundWinsSql.winnersOf, matchIds, [database.demo.companies.DEMO]);
    expect(won.every((w) => w.tournamentId === tournament)).toBe(true);
    covered.add('roundWins.clearRoundWins');
    await prisma.$executeRaw(roundWinsSql.clearRoundWins(tournament));
    expect((await standingsOf(tournament)).every((s) => s.roundWins === 0)).toBe(true);
    covered.add('roundWins.countRoundWins');
    await prisma.$executeRaw(roundWinsSql.countRoundWins(tournament));
    expect(await standingsOf(tournament)).toEqual(before);
    covered.add('roundWins.moveRoundWinsBy');
    await prisma.$executeRaw(roundWinsSql.moveRoundWinsBy(tournament, 'roundWins', 2, [player]));
    await prisma.$executeRaw(roundWinsSql.moveRoundWinsBy(tournament, 'playerRoundWins', 1, [player]));
    const moved = await standingsOf(tournament);
    expect(moved).toEqual(
      before.map((s) =>
        s.userId === player ? { ...s, roundWins: s.roundWins + 2, playerRoundWins: s.playerRoundWins + 1 } : s,
      ),
    );
    await prisma.$executeRaw(roundWinsSql.moveRoundWinsBy(tournament, 'roundWins', -2, [player]));
    await prisma.$executeRaw(roundWinsSql.moveRoundWinsBy(tournament, 'playerRoundWins', -1, [player]));
  });

  it('standings: moving by a kind’s difference moves the standing of each prediction of that kind', async () => {
    covered.add('standings.moveBy');
    const { tournament } = database.demo;
    const p = await database.db.prisma.prediction.findFirstOrThrow({
      where: { userId: player, matchId: database.demo.matches.opener, status: 'SCORED' },
    });
    const kind = {
      companyId: database.demo.companies.DEMO,
      matchId: p.matchId,
      homeTeamGoals: p.homeTeamGoals,
      awayTeamGoals: p.awayTeamGoals,
      penaltiesWinner: p.penaltiesWinner,
      isJoker: p.isJoker,
      status: p.status,
      points: p.points,
      exactHit: p.exactHit,
      outcomeHit: p.outcomeHit,
      count: 1,
    };
    const same = await database.db.prisma.prediction.findMany({
      where: {
        matchId: p.matchId,
        homeTeamGoals: p.homeTeamGoals,
        awayTeamGoals: p.awayTeamGoals,
        penaltiesWinner: p.penaltiesWinner,
        isJoker: p.isJoker,
        status: p.status,
        points: p.points,
        exactHit: p.exactHit,
        outcomeHit: p.outcomeHit,
        user: { companyId: database.demo.companies.DEMO },
      },
      select: { userId: true },
    });
    const before = await standingsOf(tournament);
    const change = { kind, score: kind, standing: { points: 1.5, exactHits: 1, outcomeHits: 0 } };
    await database.db.prisma.$executeRaw(standingsSql.moveBy([change], () => tournament));
    const after = await standingsOf(tournament);
    const moved = new Set(same.map((s) => s.userId));
    expect(moved.has(player)).toBe(true);
    expect(after).toEqual(
      before.map((s) =>
        moved.has(s.userId)
          ? { ...s, points: Math.round((s.points + 1.5) * 100) / 100, exactHits: s.exactHits + 1 }
          : s,
      ),
    );
  });

  it("sign-in codes: a code's row deleted and returned by one statement, once", async () => {
    const db = database.db.prisma;
    const expiresAt = new Date(Date.now() + 60_000);
    const companyId = database.demo.companies.DEMO;
    await db.ssoLoginCode.create({ data: { codeHash: 'typed-sql-code', userId: player, companyId, expiresAt } });
    const rows = await fits('sso.consumeCode', ssoSql.consumeCode, 'typed-sql-code');
    expect(rows).toEqual([{ userId: player, companyId, expiresAt }]);
    expect(await db.$queryRaw(ssoSql.consumeCode.sql('typed-sql-code'))).toEqual([]);
  });

  it('company codes, companies and people: the rows they declare, whole rows as findMany builds them', async () => {
    const companies = (ids: number[]) => database.db.prisma.company.findMany({ where: { id: { in: ids } } });
    const [demo] = await sameRows('companyCode.byCode', companyCodeSql.byCode, companies, 'demo', true);
    expect(demo.id).toBe(database.demo.companies.DEMO);
    expect(await modelRowsOf(database.db.prisma, companyCodeSql.byCode, 'DEMO', false, demo.id)).toEqual([]);
    const filter = { provider: suiteProvider, role: 'manager', companyId: demo.id, term: '' };
    const all = await sameRows('companies.companiesPage', companiesSql.companiesPage, companies, filter, 0, 50);
    expect(all.length).toBe(await database.db.prisma.company.count({ where: { deletedAt: null } }));
    const own = { ...filter, role: 'admin', term: 'dem' };
    const found = await sameRows('companies.companiesPage', companiesSql.companiesPage, companies, own, 0, 50);
    expect(found.map((c) => c.id)).toEqual([demo.id]);

    const user = await database.db.prisma.user.findUniqueOrThrow({ where: { id: player } });
    const people = {
      provider: suiteProvider,
      companyId: demo.id,
      deactivated: false,
      term: '',
      role: null,
      areaId: null,
    };
    const everyone = await fits('people.peoplePage', peopleSql.peoplePage, people, 0, 500);
    const active = { companyId: demo.id, anonymizedAt: null, deletedAt: null };
    expect(everyone).toHaveLength(await database.db.prisma.user.count({ where: active }));
    const narrowed = { ...people, term: user.name, role: 'player' as const, areaId: user.areaLevel1Id };
    expect((await fits('people.peoplePage', peopleSql.peoplePage, narrowed, 0, 5)).map((r) => r.id)).toContain(player);
  });

  it('company codes: the codes that differ only in case, on a copy without the index that forbids them', async () => {
    const rolledBack = database.db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('DROP INDEX "Company_code_lower_key"');
      const twin = await tx.company.create({ data: { ...DEFAULT_COMPANY_JSON, name: 'Demo twin', code: 'demo' } });
      const rows = await fitsOn(tx, 'companyCode.sharingFoldedCode', companyCodeSql.sharingFoldedCode);
      expect(rows).toEqual([
        { id: database.demo.companies.DEMO, code: 'DEMO', folded: 'demo' },
        { id: twin.id, code: 'demo', folded: 'demo' },
      ]);
      throw new Error('rolled back');
    });
    await expect(rolledBack).rejects.toThrow('rolled back');
  });

  it('community: liking twice leaves one like, unliking twice none', async () => {
    covered.add('community.likeSql');
    covered.add('community.unlikeSql');
    const [postId] = database.demo.posts.demo;
    const comment = await database.db.prisma.postComment.findFirstOrThrow({ orderBy: { id: 'asc' } });
    const likes = () =>
      Promise.all([
        database.db.prisma.postLike.count({ where: { postId, userId: player } }),
        database.db.prisma.postCommentLike.count({ where: { commentId: comment.id, userId: player } }),
      ]);
    const run = (sql: Prisma.Sql) => database.db.prisma.$executeRaw(sql);
    for (const _ of [1, 2]) {
      await run(communitySql.likeSql('post', postId, player, new Date()));
      await run(communitySql.likeSql('comment', comment.id, player, new Date()));
    }
    expect(await likes()).toEqual([1, 1]);
    for (const _ of [1, 2]) {
      await run(communitySql.unlikeSql('post', postId, player));
      await run(communitySql.unlikeSql('comment', comment.id, player));
    }
    expect(await likes()).toEqual([0, 0]);
  });

  it('rescoring: kinds cover the predictions; a kind rewritten to its own score changes only its time', async () => {
    const { opener } = database.demo.matches;
    const db = database.db.prisma;
    const kinds = await fits('rescore.kindsOf', rescoreSql.kindsOf, [opener]);
    expect(kinds.reduce((n, k) => n + k.count, 0)).toBe(await db.prediction.count({ where: { matchId: opener } }));
    const ofDemo = await fits('rescore.kindsOf', rescoreSql.kindsOf, [opener], database.demo.companies.DEMO);
    expect(new Set(ofDemo.map((k) => k.companyId))).toEqual(new Set([database.demo.companies.DEMO]));
    const change = sameScore(ofDemo.find((k) => k.status === 'SCORED')!);
    const before = await db.prediction.findMany({ where: { matchId: opener }, orderBy: { id: 'asc' } });
    const later = new Date(Date.now() + 60_000);
    covered.add('rescore.rewriteKinds');
    expect(await db.$executeRaw(rescoreSql.rewriteKinds('SCORED', [change], later))).toBe(change.kind.count);
    const after = await db.prediction.findMany({ where: { matchId: opener }, orderBy: { id: 'asc' } });
    const timeless = (rows: typeof before) => rows.map(({ updatedAt: _, ...p }) => p);
    expect(timeless(after)).toEqual(timeless(before));
    expect(after.filter((p) => p.updatedAt.getTime() === later.getTime())).toHaveLength(change.kind.count);
  });

  it('rescoring tasks: one row per company with predictions on the match', async () => {
    const { opener } = database.demo.matches;
    const db = database.db.prisma;
    const rows = await fits('rescoreTasks.predictingCompanies', rescoreTaskSql.predictingCompanies, [opener]);
    const predictors = await db.prediction.findMany({ where: { matchId: opener }, select: { user: true } });
    const { tournamentId } = await db.match.findUniqueOrThrow({ where: { id: opener } });
    const expected = [...new Set(predictors.map((p) => p.user.companyId))].sort((a, b) => a - b);
    expect(rows.map((r) => r.companyId).sort((a, b) => a - b)).toEqual(expected);
    expect(rows.every((r) => r.matchId === opener && r.tournamentId === tournamentId)).toBe(true);
  });

  it('rescoring: each active player of a kind is notified once, with their settings deciding the e-mail', async () => {
    const db = database.db.prisma;
    const DEMO = database.demo.companies.DEMO;
    const settings = await fits('rescoreNotifications.settingsOf', rescoreNotificationSql.settingsOf, [DEMO]);
    const [kind] = (await rowsOf(db, rescoreSql.kindsOf, [database.demo.matches.opener], DEMO)).filter(
      (k) => k.status === 'SCORED',
    );
    const allowed = settings.map((s) => s.settings);
    const notice = { dedupe: 'typed-sql:user:', payload: '{}', allowed, emailing: allowed, now: new Date() };
    covered.add('rescoreNotifications.insertNotices');
    const inserted = await db.$executeRaw(rescoreNotificationSql.insertNotices([sameScore(kind)], notice));
    expect(inserted).toBeGreaterThan(0);
    expect(inserted).toBeLessThanOrEqual(kind.count);
    expect(await db.$executeRaw(rescoreNotificationSql.insertNotices([sameScore(kind)], notice))).toBe(0);
    const sent = await db.notification.findMany({ where: { dedupeKey: { startsWith: 'typed-sql:user:' } } });
    expect(sent).toHaveLength(inserted);
    for (const n of sent) expect(n).toMatchObject({ companyId: DEMO, type: 'rankingsUpdated', sendEmail: true });
  });

  it.runIf(suiteProvider === 'postgresql')('PostgreSQL: the prode_meta tables have the columns declared', async () => {
    const TYPES = { string: 'text', number: 'integer', date: 'timestamp without time zone' } as const;
    for (const [name, columns] of Object.entries(META_TABLES)) {
      const rows = await database.db.prisma.$queryRaw<Array<{ column_name: string; data_type: string }>>(Prisma.sql`
        SELECT column_name, data_type FROM information_schema.columns
        WHERE table_schema = 'prode_meta' AND table_name = ${name} ORDER BY column_name`);
      const declared = Object.entries(columns).map(([column, kind]) => ({
        column_name: column,
        data_type: TYPES[kind as keyof typeof TYPES],
      }));
      expect(rows).toEqual(declared.sort((a, b) => a.column_name.localeCompare(b.column_name)));
    }
  });

  it.runIf(suiteProvider === 'postgresql')('PostgreSQL: rate counters count, refuse, give back and prune', async () => {
    const sql = rateCounterSql;
    const now = new Date(1_000_000);
    const reset = new Date(now.getTime() + 1000);
    const limits = [
      { key: 'typed:a', max: 2 },
      { key: 'typed:b', max: 5 },
    ];
    expect(await fits('rateCounters.hitOne', sql.hitOne, 'typed:a', reset, now)).toEqual([
      { count: 1, reset_at: reset },
    ]);
    covered.add('rateCounters.ensureRows');
    expect(await database.db.prisma.$executeRaw(sql.ensureRows(limits))).toBe(1);
    const counted = await fits('rateCounters.hitAll', sql.hitAll, limits, reset, now);
    expect(counted.sort((a, b) => a.key!.localeCompare(b.key!))).toEqual([
      { key: 'typed:a', reset_at: reset, refused: false },
      { key: 'typed:b', reset_at: reset, refused: false },
    ]);
    const refused = await fits('rateCounters.hitAll', sql.hitAll, limits, reset, now);
    expect(refused).toEqual([{ key: null, reset_at: reset, refused: true }]);
    expect(await fits('rateCounters.fullWindowsUntil', sql.fullWindowsUntil, limits, now)).toEqual([{ until: reset }]);
    covered.add('rateCounters.giveBackTo');
    const back = sql.giveBackTo([{ key: 'typed:a', resetAt: reset }], ['typed:b']);
    expect(await database.db.prisma.$executeRaw(back)).toBe(2);
    expect(await fits('rateCounters.fullWindowsUntil', sql.fullWindowsUntil, limits, now)).toEqual([{ until: null }]);
    covered.add('rateCounters.prune');
    expect(await database.db.prisma.$executeRaw(sql.prune(new Date(now.getTime() + 10_000)))).toBe(2);
  });

  it.runIf(suiteProvider === 'postgresql')(
    'PostgreSQL: a lease is taken once; a due job is read; VACUUM runs',
    async () => {
      const now = new Date(1_000_000);
      const until = new Date(now.getTime() + 1000);
      expect(await fits('lease.take', leaseSql.take, 'typed:lease', 'me', until, now)).toEqual([{ holder: 'me' }]);
      expect(await rowsOf(database.db.prisma, leaseSql.take, 'typed:lease', 'you', until, now)).toEqual([]);
      const { opener } = database.demo.matches;
      await database.db.prisma.rescoreJob.create({ data: { matchId: opener, requestedAt: new Date(0) } });
      const [job] = await fits('rescoreJobs.dueJob', rescoreJobSql.dueJob, new Date(), 10, false);
      expect(job).toEqual({ matchId: opener, attempts: 0, requestedAt: new Date(0) });
      expect(await fits('rescoreJobs.dueJob', rescoreJobSql.dueJob, new Date(), 1, true, [opener])).toEqual([job]);
      expect(await rowsOf(database.db.prisma, rescoreJobSql.dueJob, new Date(), 1, true, [opener + 1])).toEqual([]);
      await database.db.prisma.rescoreJob.delete({ where: { matchId: opener } });
      covered.add('rescoreJobs.writersTurn');
      expect(await database.db.prisma.$executeRaw(rescoreJobSql.writersTurn())).toBe(0);
      covered.add('rescoreJobs.vacuum');
      await database.db.prisma.$executeRaw(rescoreJobSql.vacuum());
    },
  );

  it.runIf(suiteProvider === 'postgresql')('PostgreSQL: queue rows are claimed, a parent row is locked', async () => {
    const until = new Date(Date.now() + 60_000);
    const claimed = await fits('claims.claimNext', claimSql.claimNext, Model.Notification, 0, 1, until, new Date());
    expect(claimed).toHaveLength(1);
    const row = await database.db.prisma.notification.findUniqueOrThrow({ where: { id: claimed[0].id } });
    expect(row).toMatchObject({ status: 'PENDING', claimedUntil: until });
    expect(await fits('rowLocks.lockRow', rowLockSql.lockRow, Model.User, [player])).toEqual([{ id: player }]);
    expect(await fits('rowLocks.lockFreeRow', rowLockSql.lockFreeRow, Model.User, [player])).toEqual([{ id: player }]);
  });

  it('authentication and the loaders: whole rows as findMany builds them', async () => {
    const db = database.db.prisma;
    const companies = (ids: number[]) => db.company.findMany({ where: { id: { in: ids } } });
    const DEMO = database.demo.companies.DEMO;
    const users = (ids: number[]) => db.user.findMany({ where: { id: { in: ids } } });
    expect(await sameRows('authRows.activeUserRow', authRowSql.activeUserRow, users, player)).toHaveLength(1);
    expect(await sameRows('authRows.companyRow', authRowSql.companyRow, companies, DEMO)).toHaveLength(1);
    const byId = await sameRows('authRows.activeCompanyRow', authRowSql.activeCompanyRow, companies, 'id', DEMO);
    expect(byId.map((c) => c.id)).toEqual([DEMO]);
    const byPath = await modelRowsOf(db, authRowSql.activeCompanyRow, 'appPath', 'demo');
    expect(byPath.map((c) => c.id)).toEqual([DEMO]);
    const tournaments = (ids: number[]) => db.tournament.findMany({ where: { id: { in: ids } } });
    const taken = await sameRows('loader.tournamentsOf', loaderSql.tournamentsOf, tournaments, DEMO);
    expect(taken.map((t) => t.id)).toContain(database.demo.tournament);
  });

  it('every statement of the typed files ran above', () => {
    expect([...covered].sort()).toEqual([...STATEMENTS].sort());
  });
});
