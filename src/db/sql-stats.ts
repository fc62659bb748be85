// Counts SQL statements per request. The driver adapter is wrapped so every statement Prisma sends
// (queries, writes, statements inside transactions) is counted in the AsyncLocalStorage store of the
// request that caused it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { OWNED_TABLES, ownerCounter } from '../engine/cache/owner-buckets.ts';
import { TABLES, tablesNamed } from '../engine/cache/tables-read.ts';

export interface SqlStats {
  statements: number;
  /** When present, the tables the request's statements named are added here (src/engine/cache/tables-read.ts). */
  tables?: Set<string>;
  /**
   * Opaque to this layer: the tracing context a statement's span is a child of while a GraphQL operation runs
   * (src/observability/tracing.ts).
   */
  traceParent?: unknown;
}

/** Runs a statement on behalf of an observer (tracing); null, the default, costs nothing. */
export type StatementObserver = (sql: string, run: () => Promise<unknown>) => Promise<unknown>;
let observer: StatementObserver | null = null;

/** Set once at start-up when tracing is on. */
export function observeStatements(next: StatementObserver | null) {
  observer = next;
}

const storage = new AsyncLocalStorage<SqlStats>();

/** The owners' buckets that stand for an owned table in the statements of a readingRowsOf. */
const owned = new AsyncLocalStorage<{ table: string; counters: string[] }>();

/**
 * Runs `fn`, whose statements read only these owners' rows of `table` (their WHERE says so): the response then depends
 * on those owners' buckets (src/engine/cache/owner-buckets.ts) and not on the whole table. Other tables the statements
 * name count as always. Declared by the loader that writes the condition, next to it.
 */
export function readingRowsOf<T>(table: string, ownerIds: Iterable<number>, fn: () => Promise<T>): Promise<T> {
  if (!OWNED_TABLES[table]) throw new Error(`${table} is not counted per owner (src/engine/cache/owner-buckets.ts)`);
  const counters = [...new Set([...ownerIds].map((id) => ownerCounter(table, id)))];
  // Awaited inside: Prisma's queries start when awaited, and must start inside this context.
  return owned.run({ table, counters }, async () => await fn());
}

/**
 * Counts `table` as read by the current request without a statement: a result it took from another request's read
 * of that table (src/engine/cache/shared-reads.ts) depends on the table all the same.
 */
export function countTableRead(table: string): void {
  storage.getStore()?.tables?.add(table);
}

export function runWithSqlStats<T>(stats: SqlStats, fn: () => T): T {
  return storage.run(stats, fn);
}

export function currentSqlStats(): SqlStats | undefined {
  return storage.getStore();
}

/**
 * Runs `fn` outside any request's count: bookkeeping a request causes but does not ask for (its rate-limit counter)
 * is not one of its statements.
 */
export function uncounted<T>(fn: () => PromiseLike<T>): Promise<T> {
  // Awaited inside: Prisma's queries start when awaited, and must start outside the request's SQL stats.
  return storage.exit(async () => await fn());
}

const COUNTED = new Set(['queryRaw', 'executeRaw']);

/**
 * Counts a statement in the current request's SQL stats (the tables it names too; every table when its text is unknown)
 * and runs it under the observer: every statement Prisma's adapter sends, and those sent past it on a connection of
 * their own (src/engine/cache/versions-connection.ts).
 */
export function countedStatement<T>(sql: string | undefined, run: () => Promise<T>): Promise<T> {
  const stats = storage.getStore();
  if (stats) {
    stats.statements++;
    if (stats.tables) {
      const only = sql !== undefined ? owned.getStore() : undefined;
      for (const t of sql !== undefined ? tablesNamed(sql) : TABLES) {
        if (t === only?.table) for (const c of only.counters) stats.tables.add(c);
        else stats.tables.add(t);
      }
    }
  }
  if (!observer) return run();
  return observer(sql ?? '', run) as Promise<T>;
}

function countingQueryable<T extends object>(target: T): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (typeof value !== 'function') return value;
      if (COUNTED.has(prop as string)) {
        return (...args: unknown[]) => {
          const sql = (args[0] as { sql?: unknown } | undefined)?.sql;
          const run = () => value.apply(obj, args) as Promise<unknown>;
          return countedStatement(typeof sql === 'string' ? sql : undefined, run);
        };
      }
      if (prop === 'startTransaction') {
        return async (...args: unknown[]) => countingQueryable(await value.apply(obj, args));
      }
      return value.bind(obj);
    },
  });
}

/** Wraps a Prisma driver adapter factory so the adapters it connects count their statements. */
export function countingAdapterFactory<F extends { connect(): Promise<object> }>(factory: F): F {
  return new Proxy(factory, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (prop === 'connect') return async () => countingQueryable(await obj.connect());
      return typeof value === 'function' ? value.bind(obj) : value;
    },
  });
}
