// A token that changes whenever data visible to readers may have changed: the response cache keeps an answer
// only while the token it was computed under still holds. It is read from the database itself, so every
// writer counts (other gateway instances, the importer, psql), and no write path has to remember to bump it.
//
// PostgreSQL: the sum of prode_meta.data_version, a counter that row triggers on every table move once per write
//   transaction (migration 20261123051500_data_version). It is written in the writer's transaction, so a reader
//   sees the new count exactly when it sees the rows; two equal reads mean no write committed to this database in
//   between. The table's oid is part of the token: a database dropped and migrated again restarts the count.
//   (The cluster's snapshot would also be safe, but every other database on the server moves it.)
// SQLite: data_version (commits by other connections) with total_changes() (rows changed by ours) and our
//   own transaction count. Prisma's SQLite adapter runs every statement on one connection, so a read during
//   an open transaction would see its uncommitted rows: while one is open there is no token.
import type { DatabaseTarget } from './adapters.ts';

/** Counts the transactions a driver adapter opens and ends (per database). */
export class TransactionTracker {
  open = 0;
  ended = 0;
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
        const tx = (await value.apply(obj, args)) as object;
        tracker.open++;
        let done = false;
        const end = () => {
          if (done) return;
          done = true;
          tracker.open--;
          tracker.ended++;
        };
        return new Proxy(tx, {
          get(t, p, r) {
            const v = Reflect.get(t, p, r);
            if (typeof v !== 'function') return v;
            if (p !== 'commit' && p !== 'rollback') return v.bind(t);
            return async (...a: unknown[]) => {
              try {
                return await v.apply(t, a);
              } finally {
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

/** Reads the data-version token; null when none can be given right now (SQLite with a transaction open). */
export function dataVersionReader(
  provider: DatabaseTarget['provider'],
  prisma: Raw,
  tracker: TransactionTracker,
): () => Promise<string | null> {
  if (provider === 'postgresql') {
    return async () => {
      const [row] = await prisma.$queryRawUnsafe<Array<{ v: string }>>(
        "SELECT 'prode_meta.data_version'::regclass::oid || ':' || sum(v) AS v FROM prode_meta.data_version",
      );
      return `pg:${row.v}`;
    };
  }
  return async () => {
    if (tracker.open > 0) return null;
    const ended = tracker.ended;
    const [row] = await prisma.$queryRawUnsafe<Array<{ dv: number | bigint; tc: number | bigint }>>(
      'SELECT (SELECT data_version FROM pragma_data_version) AS dv, total_changes() AS tc',
    );
    if (tracker.open > 0 || tracker.ended !== ended) return null;
    return `sqlite:${tracker.connections}:${row.dv}:${row.tc}:${ended}`;
  };
}
