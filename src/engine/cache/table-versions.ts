// Table versions, moved by triggers in each writer's transaction and read from the database, so no writer is missed:
// what the response cache trusts. Why: docs/decisions/0006-response-cache-under-table-versions.md and 0008.
import type { DatabaseTarget } from '../../db/adapters.ts';

/** Counts the transactions a driver adapter opens and ends (per database). */
export class TransactionTracker {
  open = 0;
  /** Transactions rolled back (or whose commit failed) so far: rows read while one was open may never have been. */
  rollbacks = 0;
  /** Adapters connected: a new connection restarts total_changes(), so it is part of the token. */
  connections = 0;
}

/** Wraps a Prisma driver adapter factory so its adapters report transactions to the tracker. */
export function trackTransactions<F extends { connect(): Promise<object> }>(
  factory: F,
  tracker: TransactionTracker,
): F {
  return new Proxy(factory, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (prop === 'connect') {
        return async () => {
          const adapter = trackingAdapter(await obj.connect(), tracker);
          tracker.connections++;
          return adapter;
        };
      }
      return typeof value === 'function' ? value.bind(obj) : value;
    },
  });
}

function trackingAdapter<T extends object>(adapter: T, tracker: TransactionTracker): T {
  return new Proxy(adapter, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (typeof value !== 'function') return value;
      if (prop !== 'startTransaction') return value.bind(obj);
      return async (...args: unknown[]) => {
        tracker.open++; // before BEGIN runs: a read of the versions around it is then refused
        let tx: object;
        try {
          tx = (await value.apply(obj, args)) as object;
        } catch (err) {
          tracker.open--;
          throw err;
        }
        let done = false;
        const end = () => {
          if (done) return;
          done = true;
          tracker.open--;
        };
        return new Proxy(tx, {
          get(t, p, r) {
            const v = Reflect.get(t, p, r);
            if (typeof v !== 'function') return v;
            if (p !== 'commit' && p !== 'rollback') return v.bind(t);
            return async (...a: unknown[]) => {
              let committed = false;
              try {
                const out = await v.apply(t, a);
                committed = p === 'commit';
                return out;
              } finally {
                if (!committed) tracker.rollbacks++;
                end();
              }
            };
          },
        });
      };
    },
  });
}

type Raw = { $queryRawUnsafe<T = unknown>(sql: string): Promise<T> };

/** The statement that reads every table's version on PostgreSQL. */
export const PG_TABLE_VERSIONS_SQL =
  "SELECT tbl, sum(v)::text AS v, 'prode_meta.table_version'::regclass::oid::text AS epoch " +
  'FROM prode_meta.table_version GROUP BY tbl';

/** PostgreSQL: runs PG_TABLE_VERSIONS_SQL (on a connection of its own: src/engine/cache/versions-connection.ts). */
export type PgVersionsQuery = () => Promise<Array<{ tbl: string; v: string; epoch: string }>>;

/** The versions of every table at one moment. */
export class TableVersions {
  constructor(
    private readonly epoch: string,
    private readonly byTable: ReadonlyMap<string, string>,
    /** SQLite: our rollbacks so far; a response computed while it moved may hold rows that never were. */
    readonly rollbacks: number,
  ) {}

  /**
   * A token for these tables (every table when none are given): equal tokens mean no write to any of them
   * committed in between. Tables never written are at version 0.
   */
  of(tables?: Iterable<string>): string {
    const names = tables ? [...new Set(tables)].sort() : [...this.byTable.keys()].sort();
    return `${this.epoch}|${names.map((n) => `${n}=${this.byTable.get(n) ?? '0'}`).join(',')}`;
  }
}

/**
 * Reads every table's version; null when none can be given right now (SQLite with one of our transactions
 * open, unless `duringTransaction`: a check after a response was computed, where the open transaction's own
 * uncommitted versions can only make the check fail).
 */
export function tableVersionsReader(
  provider: DatabaseTarget['provider'],
  prisma: Raw,
  tracker: TransactionTracker,
  pgQuery?: PgVersionsQuery,
): (duringTransaction?: boolean) => Promise<TableVersions | null> {
  const shape = (rows: Array<{ tbl: string; v: number | bigint | string }>) =>
    new Map(rows.map((r) => [r.tbl, String(r.v)]));
  if (provider === 'postgresql') {
    if (!pgQuery) throw new Error('tableVersionsReader: PostgreSQL reads the versions on a connection of its own');
    return sharedReads(async () => {
      const rows = await pgQuery();
      return new TableVersions(`pg:${rows[0]?.epoch ?? '-'}`, shape(rows), 0);
    });
  }
  return async (duringTransaction = false) => {
    if (tracker.open > 0 && !duringTransaction) return null;
    const rollbacks = tracker.rollbacks;
    const rows = await prisma.$queryRawUnsafe<Array<{ tbl: string; v: number | bigint }>>(
      'SELECT "tbl", "v" FROM "_prode_table_version"',
    );
    if ((tracker.open > 0 && !duringTransaction) || tracker.rollbacks !== rollbacks) return null;
    return new TableVersions(`sqlite:${tracker.connections}`, shape(rows), rollbacks);
  };
}

/**
 * One read for all who ask before it is sent. Every request reads the versions as it arrives (and a miss twice
 * more): under load they were a third of the pool's statements, each waiting its turn for a connection (the
 * writes behind them too). A caller never gets versions read before it asked: it joins a read not yet begun, or
 * waits for the one running to end and shares the next. Its statement counts towards the request that began it.
 */
export function sharedReads<T>(read: () => Promise<T>): () => Promise<T> {
  let next: Promise<T> | null = null;
  let running: Promise<unknown> = Promise.resolve();
  return () => {
    if (next) return next;
    const mine = running.then(() => {
      next = null; // from here on, a caller asks after this read began
      return read();
    });
    next = mine;
    running = mine.catch(() => undefined);
    return mine;
  };
}
