// The statements both rankings computed by the database page with (ranking-query.ts, trivia-ranking.ts), written
// once: a page of the scores in ranking order with how many rank ahead of its head and the total, the total alone,
// and one user's scores with how many rank ahead of them. Each ranking gives its scores, its order and when one
// row ranks strictly ahead of another; positions are then numbered as RANK() would, from those counts.
import { Prisma } from '../db/sql.ts';
import { derived } from '../db/typed-sql.ts';

export interface RankedScores {
  /** SQL: every ranked user's scores, one row each, with a "userId" column. */
  select: Prisma.Sql;
  /** SQL: the ranking order, ending in the name and the id so that it is total. */
  order: Prisma.Sql;
  /** SQL: the row `s` ranks strictly ahead of the row named `other`. */
  ahead: (other: 'head' | 'mine') => Prisma.Sql;
}

/** A page of the scores in ranking order; each row with how many rank ahead of the page's head, and the total. */
export function scoresPageSql({ select, order, ahead }: RankedScores, skip: number, take: number): Prisma.Sql {
  // One statement (the scores computed once), so the page, the total and the positions share one state.
  return Prisma.sql`
    WITH scores AS MATERIALIZED (${select}),
    page AS (SELECT * FROM scores ORDER BY ${order} LIMIT ${take} OFFSET ${skip}),
    head AS (SELECT * FROM page ORDER BY ${order} LIMIT 1)
    SELECT page.*, (SELECT CAST(COUNT(*) AS INTEGER) FROM scores s, head WHERE ${ahead('head')}) AS "ahead",
      (SELECT CAST(COUNT(*) AS INTEGER) FROM scores) AS "total"
    FROM page ORDER BY ${order}`;
}

/** How many are ranked. */
export function scoresTotalSql(select: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`SELECT CAST(COUNT(*) AS INTEGER) AS "total" FROM (${select}) scores`;
}

/**
 * The user's scores, with how many rank ahead of them. `materialized`: the scores are computed once for both reads
 * rather than folded into each.
 */
export function scoresOfSql(
  { select, ahead }: RankedScores,
  userId: number,
  { materialized }: { materialized: boolean },
): Prisma.Sql {
  const mine = derived<{ userId: number }>('mine');
  return Prisma.sql`
    WITH scores AS ${Prisma.raw(materialized ? 'MATERIALIZED' : '')} (${select})
    SELECT mine.*, (SELECT CAST(COUNT(*) AS INTEGER) FROM scores s WHERE ${ahead('mine')}) AS "ahead"
    FROM scores mine WHERE ${mine.c('userId')} = ${userId}`;
}
