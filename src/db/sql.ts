// The SQL helpers (Prisma.sql, Prisma.join, Prisma.empty, Prisma.raw) for statements written by hand: the same for
// both providers, so code above the database needs no generated client of its own.
import { Prisma } from '../generated/sqlite/client.ts';

export { Prisma };

/**
 * `column IN (keys)`. On PostgreSQL one array parameter (`= ANY`, typed by the column): the statement's text is
 * then the same for any number of keys, so it stays prepared (src/engine/db/statement-names.ts), and 500 ids are bound
 * as one value instead of 500. SQLite has no array parameters.
 */
export function inKeys(provider: string, column: Prisma.Sql, keys: readonly (number | string)[]): Prisma.Sql {
  return provider === 'postgresql'
    ? Prisma.sql`${column} = ANY(${[...keys]})`
    : Prisma.sql`${column} IN (${Prisma.join(keys)})`;
}

/**
 * `column LIKE '%term%'` for each column given (`u.c('name')`), case-insensitive, with the term's characters
 * taken literally: `%` and `_` are wildcards to LIKE, and Prisma's `contains` passes them through on both databases
 * (so a search for "%" matched every company). They are escaped with `!` and an explicit ESCAPE clause: SQLite
 * has no default escape character and PostgreSQL's default (backslash) would make a backslash in the term
 * special. SQLite's LIKE folds ASCII case; PostgreSQL needs ILIKE.
 */
export function containsLiterally(provider: string, columns: Prisma.Sql[], term: string): Prisma.Sql {
  const pattern = `%${term.replace(/[!%_]/g, (c) => `!${c}`)}%`;
  const op = Prisma.raw(provider === 'postgresql' ? 'ILIKE' : 'LIKE');
  return Prisma.sql`(${Prisma.join(
    columns.map((c) => Prisma.sql`${c} ${op} ${pattern} ESCAPE '!'`),
    ' OR ',
  )})`;
}

/**
 * A sum of decimal points as a double rounded to hundredths, the same on both databases: sums of doubles differ in
 * their last bits with the order of addition, and equal totals must compare equal. PostgreSQL rounds only
 * NUMERIC; SQLite reads both type names.
 */
export const sumInHundredths = (sum: Prisma.Sql) =>
  Prisma.sql`CAST(ROUND(CAST(COALESCE(${sum}, 0) AS NUMERIC), 2) AS DOUBLE PRECISION)`;
