// Round winners, computed by the database: per decided round of a tournament, the ranked people with the round's
// most points (more than 0), each of them when level, as the ROUND_WINS tie rule counts round wins
// (ranking-query.ts). A round is decided when it has matches and every one of them is over (FINISHED, AWARDED or
// CANCELLED) with no prediction of them left to score: no later result can change who won it.
import type { Db } from '../db/client.ts';
import { Prisma, sumInHundredths } from '../db/sql.ts';
import { aliased, derived, Model, query, rowsOf } from '../db/typed-sql.ts';
import { membersOf, type RankingRules } from './ranking-query.ts';

export interface RoundWinnersScope {
  companyId: number;
  tournamentId: number;
  /** Who is ranked (scoringSettings); the tie rule plays no part. */
  rules: RankingRules;
}

export interface RoundWinners {
  roundId: number;
  /** The winners' points in the round; 0 when nobody scored. */
  points: number;
  /** Best first by name, then id; [] when nobody scored. */
  winnerIds: number[];
}

const OVER = ['FINISHED', 'AWARDED', 'CANCELLED'] as const;

const winners = query({ roundId: 'number', points: 'number', userId: 'number?' }, (scope: RoundWinnersScope) => {
  const [r, m, mm, p, pp] = [
    aliased(Model.Round, 'r'),
    aliased(Model.Match, 'm'),
    aliased(Model.Match, 'mm'),
    aliased(Model.Prediction, 'p'),
    aliased(Model.Prediction, 'pp'),
  ];
  const [u, w] = [aliased(Model.User, 'u'), aliased(Model.User, 'w')];
  const [decided, rp, best] = [
    derived<{ id: number; position: number }>('decided'),
    derived<{ userId: number; roundId: number; points: number }>('rp'),
    derived<{ roundId: number; points: number }>('best'),
  ];
  const over = Prisma.join(OVER.map((s) => Prisma.sql`${s}`));
  return Prisma.sql`
      WITH decided AS (
        SELECT ${r.c('id')} AS "id", ${r.c('position')} AS "position" FROM ${r}
        WHERE ${r.c('tournamentId')} = ${scope.tournamentId}
          AND EXISTS (SELECT 1 FROM ${m} WHERE ${m.c('roundId')} = ${r.c('id')})
          AND NOT EXISTS (SELECT 1 FROM ${m} WHERE ${m.c('roundId')} = ${r.c('id')}
            AND ${m.c('status')} NOT IN (${over}))
          AND NOT EXISTS (SELECT 1 FROM ${pp} JOIN ${mm} ON ${mm.c('id')} = ${pp.c('matchId')}
            WHERE ${mm.c('roundId')} = ${r.c('id')} AND ${pp.c('status')} = 'PENDING')),
      rp AS (
        SELECT ${p.c('userId')} AS "userId", ${m.c('roundId')} AS "roundId",
          ${sumInHundredths(Prisma.sql`SUM(${p.c('points')})`)} AS "points"
        FROM ${p} JOIN ${m} ON ${m.c('id')} = ${p.c('matchId')} JOIN ${u} ON ${u.c('id')} = ${p.c('userId')}
        WHERE ${p.c('status')} = 'SCORED' AND ${m.c('roundId')} IN (SELECT "id" FROM decided) AND ${membersOf(scope)}
        GROUP BY ${p.c('userId')}, ${m.c('roundId')}),
      best AS (SELECT "roundId", MAX("points") AS "points" FROM rp GROUP BY "roundId")
      SELECT ${decided.c('id')} AS "roundId", COALESCE(${best.c('points')}, 0) AS "points",
        ${rp.c('userId')} AS "userId"
      FROM decided
        LEFT JOIN best ON ${best.c('roundId')} = ${decided.c('id')} AND ${best.c('points')} > 0
        LEFT JOIN rp ON ${rp.c('roundId')} = ${decided.c('id')} AND ${rp.c('points')} = ${best.c('points')}
        LEFT JOIN ${w} ON ${w.c('id')} = ${rp.c('userId')}
      ORDER BY ${decided.c('position')}, ${decided.c('id')}, ${w.c('name')}, ${rp.c('userId')}`;
});

/** The tournament's decided rounds in round order, each with its winners. */
export async function roundWinners(prisma: Db, scope: RoundWinnersScope): Promise<RoundWinners[]> {
  const rounds: RoundWinners[] = [];
  for (const row of await rowsOf(prisma, winners, scope)) {
    let round = rounds.at(-1);
    if (round?.roundId !== row.roundId)
      rounds.push((round = { roundId: row.roundId, points: row.points, winnerIds: [] }));
    if (row.userId !== null) round.winnerIds.push(row.userId);
  }
  return rounds;
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const roundWinnersSql = { winners };
