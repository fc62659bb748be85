// PostgreSQL: the write counts (src/engine/cache/table-versions.ts) are read on a connection of their own, outside the pool.
// Every request reads them as it arrives, before anything else, and a response-cache miss again as it executes:
// through the pool each read queued for a connection behind data statements and open transactions, and under
// load (docs/performance.md, "Reading the counts") a third of the pool's statements were these reads and writes
// waited behind them. sharedReads keeps at most one read in flight, so one connection is enough.
import pg from 'pg';
import { PG_TABLE_VERSIONS_SQL, type PgVersionsQuery } from './table-versions.ts';
import { countedStatement } from '../../db/sql-stats.ts';

export interface VersionsConnection {
  query: PgVersionsQuery;
  close(): Promise<void>;
}

export function versionsConnection(url: string, statementTimeoutMs?: number): VersionsConnection {
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    // Told apart from the pool's in pg_stat_activity.
    application_name: 'prode-versions',
    connectionTimeoutMillis: 5000,
    ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
  });
  // A connection lost while idle is reported here, and replaced at the next read: never a crash.
  pool.on('error', () => {});
  return {
    query: () =>
      countedStatement(PG_TABLE_VERSIONS_SQL, async () => {
        // Named: parsed and planned once per connection.
        const result = await pool.query<{ tbl: string; v: string; epoch: string }>({
          name: 'prode_table_versions',
          text: PG_TABLE_VERSIONS_SQL,
        });
        return result.rows;
      }),
    close: () => pool.end(),
  };
}
