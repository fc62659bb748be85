// How a company predicted matches, counted by the database: per match, how many predicted a home win, a draw and an
// away win, the average points of the scored predictions, and the most predicted scores. One statement for the
// counts and one for the scores, over every match of a batch (a request's loader asks for all its matches at once).
// The people counted are those the company's rankings count: its active users, admins only when it ranks them.
import type { Db } from '../db/client.ts';
import { Prisma } from '../db/sql.ts';
import { aliased, Model, query, rowsOf } from '../db/typed-sql.ts';

/** The most predicted scores kept per match: the most `topScores(take)` may ask for. */
export const MAX_TOP_SCORES = 20;

export interface StatisticsScope {
  companyId: number;
  /** false: only players' predictions count (scoringSettings.rankAdmins). */
  rankAdmins: boolean;
}

export interface TopScore {
  homeTeamGoals: number;
  awayTeamGoals: number;
  count: number;
}

export interface MatchStatistics {
  predictions: number;
  home: number;
  draw: number;
  away: number;
  /** Of the scored predictions, rounded to hundredths; null while none is scored. */
  averagePoints: number | null;
  /** Most predicted first; among equal counts, fewer home goals first, then fewer away goals. */
  topScores: TopScore[];
}

const [p, u] = [aliased(Model.Prediction, 'p'), aliased(Model.User, 'u')];

/** SQL: the company's counted predictions of the matches (`p` joined with its user `u`). */
function counted(scope: StatisticsScope, matchIds: readonly number[]) {
  const role = scope.rankAdmins ? Prisma.empty : Prisma.sql`AND ${u.c('role')} = 'player'`;
  return Prisma.sql`FROM ${p} JOIN ${u} ON ${u.c('id')} = ${p.c('userId')}
    WHERE ${p.c('matchId')} IN (${Prisma.join([...matchIds])}) AND ${u.c('companyId')} = ${scope.companyId}
      AND ${u.c('deletedAt')} IS NULL ${role}`;
}

const counts = query(
  {
    matchId: 'number',
    predictions: 'number',
    home: 'number',
    draw: 'number',
    away: 'number',
    averagePoints: 'number?',
  },
  (scope: StatisticsScope, matchIds: readonly number[]) => {
    const [home, away] = [p.c('homeTeamGoals'), p.c('awayTeamGoals')];
    const scored = Prisma.sql`CASE WHEN ${p.c('status')} = 'SCORED' THEN ${p.c('points')} END`;
    return Prisma.sql`
      SELECT ${p.c('matchId')} AS "matchId", CAST(COUNT(*) AS INTEGER) AS "predictions",
        CAST(SUM(CASE WHEN ${home} > ${away} THEN 1 ELSE 0 END) AS INTEGER) AS "home",
        CAST(SUM(CASE WHEN ${home} = ${away} THEN 1 ELSE 0 END) AS INTEGER) AS "draw",
        CAST(SUM(CASE WHEN ${home} < ${away} THEN 1 ELSE 0 END) AS INTEGER) AS "away",
        CAST(ROUND(CAST(AVG(${scored}) AS NUMERIC), 2) AS DOUBLE PRECISION) AS "averagePoints"
      ${counted(scope, matchIds)}
      GROUP BY ${p.c('matchId')}`;
  },
);

const topScores = query(
  { matchId: 'number', homeTeamGoals: 'number', awayTeamGoals: 'number', count: 'number' },
  (scope: StatisticsScope, matchIds: readonly number[]) => {
    const [home, away] = [p.c('homeTeamGoals'), p.c('awayTeamGoals')];
    // Numbered within each match, so no more than MAX_TOP_SCORES rows per match leave the database.
    return Prisma.sql`
      SELECT "matchId", "homeTeamGoals", "awayTeamGoals", "count" FROM (
        SELECT ${p.c('matchId')} AS "matchId", ${home} AS "homeTeamGoals", ${away} AS "awayTeamGoals",
          CAST(COUNT(*) AS INTEGER) AS "count",
          ROW_NUMBER() OVER (PARTITION BY ${p.c('matchId')} ORDER BY COUNT(*) DESC, ${home}, ${away}) AS "place"
        ${counted(scope, matchIds)}
        GROUP BY ${p.c('matchId')}, ${home}, ${away}) scores
      WHERE "place" <= ${MAX_TOP_SCORES}
      ORDER BY "matchId", "place"`;
  },
);

/** Each match's statistics, in the order of `matchIds` (a match nobody predicted: zeros and no scores). */
export async function matchStatistics(
  prisma: Db,
  scope: StatisticsScope,
  matchIds: readonly number[],
): Promise<MatchStatistics[]> {
  const [countRows, scoreRows] = await Promise.all([
    rowsOf(prisma, counts, scope, matchIds),
    rowsOf(prisma, topScores, scope, matchIds),
  ]);
  const byMatch = new Map<number, MatchStatistics>();
  for (const { matchId, ...row } of countRows) byMatch.set(matchId, { ...row, topScores: [] });
  for (const { matchId, ...score } of scoreRows) byMatch.get(matchId)?.topScores.push(score);
  return matchIds.map(
    (id) => byMatch.get(id) ?? { predictions: 0, home: 0, draw: 0, away: 0, averagePoints: null, topScores: [] },
  );
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const matchStatisticsSql = { counts, topScores };
