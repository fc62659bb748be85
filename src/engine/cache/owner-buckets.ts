// Counts per owner, for the response cache (src/engine/cache/table-versions.ts). A write to an owned table moves its table's
// count and the count of the owner's bucket, "<Table>@<ownerId % 256>" (migration
// 20261124225500_write_counts_per_statement_and_owner: statement triggers on PostgreSQL, row triggers on SQLite).
// A read that a loader declares to be of some owners' rows only (readingRowsOf, src/db/sql-stats.ts) depends on
// their buckets instead of the table, so one player's prediction does not throw away every other player's answers.
//
// Buckets, not owners: a set-based rescoring writes 100,000 users' predictions in one statement, and its triggers
// then move at most 256 counts once each. Two owners of one bucket share their answers' fate: safe, only less
// cached.

/** The owner column of each table whose counts are also kept per owner. */
export const OWNED_TABLES: Readonly<Record<string, string>> = { Prediction: 'userId' };

export const OWNER_BUCKETS = 256;

/** The counter an owner's rows of `table` move. */
export function ownerCounter(table: string, ownerId: number): string {
  return `${table}@${((ownerId % OWNER_BUCKETS) + OWNER_BUCKETS) % OWNER_BUCKETS}`;
}

/** The table a counter counts (an owner's bucket counts rows of its table). */
export function tableOfCounter(counter: string): string {
  const at = counter.indexOf('@');
  return at < 0 ? counter : counter.slice(0, at);
}
