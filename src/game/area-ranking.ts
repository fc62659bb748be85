// The areas of one level of a company against each other in a tournament: one aggregate over the ranked people
// placed at that level and their kept standings (TournamentStanding), an area's points the average of its members'
// (rounded to hundredths), areas with fewer ranked members than the company's minimum left out. A company has at
// most a few hundred areas, so every qualifying area comes back in one statement and is numbered by
// src/domain/area-ranking.ts.
import { Prisma } from '../db/sql.ts';
import type { Db } from '../db/client.ts';
import { aliased, Model, query, rowsOf } from '../db/typed-sql.ts';
import type { AreaScore } from '../domain/area-ranking.ts';
import { rankedMembers, type RankingRules } from './ranking-query.ts';

export interface AreaRankingScope {
  companyId: number;
  tournamentId: number;
  level: 1 | 2 | 3;
  /** Areas with fewer ranked members are left out. */
  minMembers: number;
  rules: RankingRules;
}

const areaScores = query(
  { areaId: 'number', name: 'string', points: 'number', members: 'number' },
  (scope: AreaRankingScope) => {
    const [a, u, s] = [aliased(Model.Area, 'a'), aliased(Model.User, 'u'), aliased(Model.TournamentStanding, 's')];
    const members = rankedMembers({ ...scope, tournamentIds: [scope.tournamentId] });
    const average = Prisma.sql`AVG(COALESCE(${s.c('points')}, 0))`;
    return Prisma.sql`
      SELECT ${a.c('id')} AS "areaId", ${a.c('name')} AS "name",
        CAST(ROUND(CAST(${average} AS NUMERIC), 2) AS DOUBLE PRECISION) AS "points",
        CAST(COUNT(*) AS INTEGER) AS "members"
      FROM ${a}
      JOIN ${u} ON ${u.c(`areaLevel${scope.level}Id`)} = ${a.c('id')} AND ${members}
      LEFT JOIN ${s} ON ${s.c('userId')} = ${u.c('id')} AND ${s.c('tournamentId')} = ${scope.tournamentId}
      WHERE ${a.c('companyId')} = ${scope.companyId} AND ${a.c('level')} = ${scope.level}
      GROUP BY ${a.c('id')}, ${a.c('name')}
      HAVING COUNT(*) >= ${scope.minMembers}`;
  },
);

/** Every area of the level with enough ranked members, its average points and how many they are. */
export const areaRankingScores = (db: Db, scope: AreaRankingScope): Promise<AreaScore[]> =>
  rowsOf(db, areaScores, scope);

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const areaRankingSql = { areaScores };
