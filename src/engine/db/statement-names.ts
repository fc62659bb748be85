// Names for PostgreSQL prepared statements, so a statement is parsed and planned once per connection rather than on
// every execution. Why: docs/decisions/0011-prepared-statements.md.
import { createHash } from 'node:crypto';
import type { PrismaPg } from '@prisma/adapter-pg';

/**
 * Statements held prepared, per connection and so per process. A connection never forgets one (forgetting would
 * need a DEALLOCATE on every connection), so the set is capped: beyond it, new texts run unnamed as before. Each
 * costs the server some kilobytes per connection (its parse tree and plan); the statements a busy server repeats
 * are far fewer than this.
 */
export const MAX_NAMED_STATEMENTS = 200;

/**
 * A text is named the second time it is seen: one-off statements (a search's `IN` list of an unusual length,
 * startup work) are never held prepared, the ones every request sends are named at once. Texts seen once are forgotten
 * in bulk when this many have piled up.
 */
const MAX_SEEN_ONCE = 5000;

/** Only plain data statements; `BEGIN`, `SET`, locks and DDL run as they always did. */
const PREPARABLE = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i;

export interface StatementNamer {
  (query: { sql: string }): string;
  /** How many texts are named. */
  readonly size: number;
  /** Never names `text` again (its prepared form went stale, see `isStalePlan`); false if it was not named. */
  forget(text: string): boolean;
}

/**
 * The adapter's `statementNameGenerator`: a name derived from the text (the driver refuses one name for two
 * texts on a connection, so the name is the text's digest), or '' for an unnamed statement.
 */
export function statementNamer(max = MAX_NAMED_STATEMENTS): StatementNamer {
  const named = new Map<string, string>();
  // Digests, not texts: a text seen once may be a 5,000-id IN list of Prisma's.
  const seenOnce = new Set<string>();
  // At most `max`: only named texts are ever forgotten.
  const forgotten = new Set<string>();
  const namer = (query: { sql: string }): string => {
    const text = query.sql;
    const name = named.get(text);
    if (name !== undefined) return name;
    if (named.size + forgotten.size >= max || !PREPARABLE.test(text) || forgotten.has(text)) return '';
    const digest = `prode_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    if (!seenOnce.has(digest)) {
      if (seenOnce.size >= MAX_SEEN_ONCE) seenOnce.clear();
      seenOnce.add(digest);
      return '';
    }
    seenOnce.delete(digest);
    named.set(text, digest);
    return digest;
  };
  const forget = (text: string) => {
    if (!named.delete(text)) return false;
    forgotten.add(text);
    return true;
  };
  return Object.defineProperties(namer, {
    size: { get: () => named.size },
    forget: { value: forget },
  }) as StatementNamer;
}

/**
 * A prepared `SELECT *` whose table has gained or lost a column since it was prepared: PostgreSQL refuses to run
 * it again on that connection ("cached plan must not change result type", SQLSTATE 0A000, worded in the server's
 * language). A newer process migrating the database while this one still serves (a rolling deploy) does that.
 * Any 0A000 counts: forgetting a statement that failed for another unsupported feature only leaves it unnamed.
 */
export function isStalePlan(error: unknown): boolean {
  const cause = (error as { cause?: { kind?: string; code?: string } } | null)?.cause;
  return cause?.kind === 'postgres' && cause.code === '0A000';
}

type Query = { sql: string };
type Queryable = Record<'queryRaw' | 'executeRaw', (query: Query) => Promise<unknown>>;

/**
 * A statement whose prepared form went stale (`isStalePlan`) is forgotten, so it runs unnamed from then on, and
 * is sent again once; in a transaction the failure stands (the transaction is aborted), the next one runs unnamed.
 */
export function forgettingStalePlans(factory: PrismaPg, namer: StatementNamer): PrismaPg {
  const wrap = <T extends object>(queryable: T, retry: boolean): T =>
    new Proxy(queryable, {
      get(obj, prop, receiver) {
        const value = Reflect.get(obj, prop, receiver);
        if (typeof value !== 'function') return value;
        if (prop === 'queryRaw' || prop === 'executeRaw') {
          const run = (value as Queryable['queryRaw']).bind(obj);
          return async (query: Query) => {
            try {
              return await run(query);
            } catch (err) {
              // Sent again only if it ran named: unnamed, the same failure would come back.
              if (!isStalePlan(err) || !namer.forget(query.sql) || !retry) throw err;
              return run(query);
            }
          };
        }
        if (prop === 'startTransaction') return async (...args: unknown[]) => wrap(await value.apply(obj, args), false);
        return value.bind(obj);
      },
    });
  return new Proxy(factory, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (prop === 'connect') return async () => wrap(await obj.connect(), true);
      return typeof value === 'function' ? value.bind(obj) : value;
    },
  });
}
