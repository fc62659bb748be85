// Serialises the writers of an "at most N" rule counted in SQL (docs/security.md, "At most N, under concurrency"):
// a player's jokers and dream-final list under their User row, a company's seats under its Company row.
// On PostgreSQL each transaction runs under READ COMMITTED: two of them may each insert a row and count before the
// other commits, and both pass. Taking the lock of the row the counted rows hang from (the player's User row, for
// their jokers and their dream-final list) before counting makes the second wait for the first to commit, and its
// count then sees the first's rows. FOR NO KEY UPDATE leaves inserts that point at the row (their foreign-key
// check) free to proceed. SQLite runs one transaction at a time (the driver adapter queues them), so there is
// nothing to take.
import type { DatabaseTarget } from './adapters.ts';
import type { Tx } from './client.ts';
import { Prisma } from './sql.ts';
import { col, query, rowsOf, table as tableOf, type Model } from './typed-sql.ts';

/**
 * Tables whose rows are locked as the parent of counted rows, and the tournaments and matches a rescoring locks
 * before it reads them (src/game/rescore.ts), which a result and a correction take first, in that order.
 */
export type LockedTable = typeof Model.User | typeof Model.Company | typeof Model.Tournament | typeof Model.Match;

/** Holds the row's lock until the transaction ends; until then, the same call elsewhere waits. */
export async function lockRowForCounting(
  tx: Tx,
  provider: DatabaseTarget['provider'],
  table: LockedTable,
  id: number,
): Promise<void> {
  await lockRows(tx, provider, table, [id]);
}

/** Holds the rows' locks until the transaction ends, taken in id order so two callers never wait on each other. */
export async function lockRows(
  tx: Tx,
  provider: DatabaseTarget['provider'],
  table: LockedTable,
  ids: number[],
): Promise<void> {
  if (provider !== 'postgresql' || ids.length === 0) return;
  await rowsOf(
    tx,
    lockRow,
    table,
    [...new Set(ids)].sort((a, b) => a - b),
  );
}

/**
 * PostgreSQL: takes the rows' locks only where no other transaction holds one, waiting for none; true when every
 * row was taken. A caller that holds other locks and must not wait (the rescoring runner, holding its jobs) gives up
 * on false. SQLite: nothing to take.
 */
export async function lockRowsIfFree(
  tx: Tx,
  provider: DatabaseTarget['provider'],
  table: LockedTable,
  ids: number[],
): Promise<boolean> {
  const wanted = [...new Set(ids)];
  if (provider !== 'postgresql' || wanted.length === 0) return true;
  const taken = await rowsOf(
    tx,
    lockFreeRow,
    table,
    wanted.sort((a, b) => a - b),
  );
  return taken.length === wanted.length;
}

const lockFreeRow = query(
  { id: 'number' },
  (table: LockedTable, ids: number[]) =>
    Prisma.sql`SELECT ${col(table, 'id')} AS "id" FROM ${tableOf(table)}
      WHERE ${col(table, 'id')} IN (${Prisma.join(ids)}) ORDER BY ${col(table, 'id')} FOR NO KEY UPDATE SKIP LOCKED`,
);

const lockRow = query(
  { id: 'number' },
  (table: LockedTable, ids: number[]) =>
    Prisma.sql`SELECT ${col(table, 'id')} AS "id" FROM ${tableOf(table)}
      WHERE ${col(table, 'id')} IN (${Prisma.join(ids)}) ORDER BY ${col(table, 'id')} FOR NO KEY UPDATE`,
);

/** This file's statements, for the test that runs each on PostgreSQL (test/db/typed-sql.test.ts). */
export const rowLockSql = { lockRow, lockFreeRow };
