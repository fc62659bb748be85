// PostgreSQL: table versions are read on a connection of their own, outside the pool, so the reads every request
// makes do not queue behind data statements. Why: docs/decisions/0008-table-versions-own-connection.md.
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
