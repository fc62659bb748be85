import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { forgettingStalePlans, type StatementNamer } from '../engine/db/statement-names.ts';

export type DatabaseTarget = { provider: 'sqlite'; file: string } | { provider: 'postgresql'; url: string };

export interface AdapterOptions {
  poolMax?: number;
  /** PostgreSQL: each connection's statement_timeout (ms), so work whose request was abandoned stops there too. */
  statementTimeoutMs?: number;
  /** PostgreSQL: keep the statements sent again and again prepared (src/engine/db/statement-names.ts); default true. */
  preparedStatements?: boolean;
}

/** Options of one adapter: those, and the namer of its prepared statements (none: every statement unnamed). */
type AdapterFactoryOptions = Omit<AdapterOptions, 'preparedStatements'> & { namer?: StatementNamer };

/** A Prisma driver adapter factory for the target; used by both the client and the migration engine. */
export function adapterFactory(target: DatabaseTarget, options: AdapterFactoryOptions = {}) {
  if (target.provider === 'sqlite') {
    // Product, not speed: without it Prisma refuses an ordered or grouped read of more than 999 keys.
    // Why: docs/decisions/0028-sqlite-bind-limit-told-to-prisma.md.
    return withMaxBindValues(
      new PrismaBetterSqlite3({ url: `file:${target.file}`, timeout: 5000 }),
      SQLITE_MAX_BIND_VALUES,
    );
  }
  const pool = {
    connectionString: target.url,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: 5000,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  };
  const { namer } = options;
  if (!namer) return new PrismaPg(pool);
  return forgettingStalePlans(new PrismaPg(pool, { statementNameGenerator: namer }), namer);
}

/**
 * SQLite has allowed 32,766 bind variables per statement since 3.32 (better-sqlite3 bundles a newer one), but
 * Prisma assumes the old 999 when the adapter does not say: it splits a larger `IN (...)` into several statements,
 * and refuses (P2029) one it cannot split: ordered, limited, grouped or counted.
 */
const SQLITE_MAX_BIND_VALUES = 32766;

function withMaxBindValues<F extends { connect(): Promise<object> }>(factory: F, maxBindValues: number): F {
  return new Proxy(factory, {
    get(obj, prop, receiver) {
      if (prop !== 'connect') {
        const value = Reflect.get(obj, prop, receiver);
        return typeof value === 'function' ? value.bind(obj) : value;
      }
      return async () => {
        const adapter = (await obj.connect()) as { getConnectionInfo?: () => object };
        const info = adapter.getConnectionInfo?.bind(adapter);
        return new Proxy(adapter, {
          get(a, p, r) {
            if (p === 'getConnectionInfo')
              return () => ({ supportsRelationJoins: false, ...(info?.() ?? {}), maxBindValues });
            const v = Reflect.get(a, p, r);
            return typeof v === 'function' ? v.bind(a) : v;
          },
        });
      };
    },
  });
}

/** Redacts the password of a connection string for log lines and error messages. */
export function describeTarget(target: DatabaseTarget): string {
  if (target.provider === 'sqlite') return `sqlite:${target.file}`;
  try {
    const u = new URL(target.url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgresql:(unparseable url)';
  }
}
