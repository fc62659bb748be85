// Every statement written with src/db/typed-sql.ts runs here on the suite's store (SQLite; PostgreSQL when
// DATABASE_URL names one), over the seeded demo data: each row a query returns has exactly the columns its shape
// declares, each of a kind the shape reads, and the writes leave the standings a full rebuild would. A statement
// added to a file's list without a case here fails the last test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, shapeProblems, type Query, type Shape } from '../../src/db/typed-sql.ts';
import { Prisma } from '../../src/db/sql.ts';
import { rankingSql, type RankingScope } from '../../src/game/ranking-query.ts';
import { standingsSql } from '../../src/game/standings.ts';
import { triviaRankingSql, type TriviaRankingScope } from '../../src/game/trivia-ranking.ts';
import { seededDatabase, type SeededDatabase } from '../helpers/db.ts';

const STATEMENTS = [
  ...Object.keys(rankingSql).map((k) => `ranking.${k}`),
  ...Object.keys(standingsSql).map((k) => `standings.${k}`),
  ...Object.keys(triviaRankingSql).map((k) => `trivia.${k}`),
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

/** Runs a query as the store returns it and as rowsOf reads it; both must be the shape it declares. */
async function fits<S extends Shape, A extends unknown[]>(name: string, statement: Query<S, A>, ...args: A) {
  covered.add(name);
  const raw = await database.db.prisma.$queryRaw<Record<string, unknown>[]>(statement.sql(...args));
  expect(raw.length, `${name}: rows to check`).toBeGreaterThan(0);
  for (const row of raw) expect(shapeProblems(statement.shape, row), name).toEqual([]);
  const rows = await rowsOf(database.db.prisma, statement, ...args);
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

const standingsOf = (tournamentId: number) =>
  database.db.prisma.tournamentStanding.findMany({
    where: { tournamentId },
    orderBy: [{ userId: 'asc' }],
  });

describe('typed SQL on the store', () => {
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
    const [page] = await fits('ranking.generalPage', rankingSql.generalPage, general, 0, 5);
    expect(page.total).toBeGreaterThan(0);
    const [mine] = await fits('ranking.generalOf', rankingSql.generalOf, general, player);
    expect(mine.userId).toBe(player);
    for (const scope of scopes) {
      const rows = await fits('ranking.scoresPage', rankingSql.scoresPage, scope, 0, 5);
      const [count] = await fits('ranking.scoresTotal', rankingSql.scoresTotal, scope);
      expect(rows[0].total).toBe(count.total);
      const [own] = await fits('ranking.scoresOf', rankingSql.scoresOf, scope, player);
      expect(own.userId).toBe(player);
    }
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

  it('every statement of the typed files ran above', () => {
    expect([...covered].sort()).toEqual([...STATEMENTS].sort());
  });
});
