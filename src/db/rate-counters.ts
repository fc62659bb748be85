// Fixed-window counters that every gateway process on one PostgreSQL database shares (prode_meta.rate_limit,
// migration 20261123170000_replica_counters_and_leases), so rate limits hold across replicas. A window is one row:
// its key, its count and when it ends; the end also names the window, so a count is given back to the window it
// was taken in and never to a later one. Times come from the caller's clock, as Prisma's columns do.
// Their statements are bookkeeping, not the work a request asked for: they are left out of its statement count.
import type { Db } from './client.ts';
import { Prisma } from './sql.ts';
import { uncounted } from './sql-stats.ts';
import { derived, META_TABLES, metaTable, query, rowsOf, type RowOf } from './typed-sql.ts';

/** One window of one key, as counted. */
export interface CounterWindow {
  key: string;
  resetAt: Date;
}

/** A key and the count from which it refuses. */
export interface CounterLimit {
  key: string;
  max: number;
}

const PRUNE_EVERY_MS = 60_000;
/** Windows that ended this long ago are deleted (an hour: far longer than any call takes between two statements). */
const KEEP_ENDED_MS = 3_600_000;

const at = (date: Date) => Prisma.sql`${date}::timestamp`;

type Counter = RowOf<typeof META_TABLES.rate_limit>;
const r = metaTable('rate_limit', 'r');
const excluded = derived<Counter>('EXCLUDED');
/** The limits as a VALUES list of (key, max). */
const limitValues = (limits: CounterLimit[]) =>
  Prisma.join(limits.map((l) => Prisma.sql`(${l.key}::text, ${l.max}::int)`));

/** SQL: counts one in the row `r` holds for the key, or starts a window ending at `resetAt` when its own has ended. */
function countOne(now: Date) {
  const running = Prisma.sql`${r.c('reset_at')} > ${at(now)}`;
  return Prisma.sql`ON CONFLICT (${r.name('key')}) DO UPDATE SET
    ${r.name('count')} = CASE WHEN ${running} THEN ${r.c('count')} + 1 ELSE 1 END,
    ${r.name('reset_at')} = CASE WHEN ${running} THEN ${r.c('reset_at')} ELSE ${excluded.c('reset_at')} END`;
}

/** Counts one on the key: its count in its current window and when that window ends. */
const hitOne = query(
  { count: 'number', reset_at: 'date' },
  (key: string, resetAt: Date, now: Date) =>
    Prisma.sql`
    INSERT INTO ${r} (${r.name('key', 'count', 'reset_at')}) VALUES (${key}, 1, ${at(resetAt)})
    ${countOne(now)}
    RETURNING ${r.c('count')} AS "count", ${r.c('reset_at')} AS "reset_at"`,
);

/** A row for each key that has none, holding no window ('-infinity' has ended for every clock). */
const ensureRows = (limits: CounterLimit[]) => Prisma.sql`
  INSERT INTO ${r} (${r.name('key', 'count', 'reset_at')})
  VALUES ${Prisma.join(limits.map((l) => Prisma.sql`(${l.key}, 0, '-infinity')`))}
  ON CONFLICT (${r.name('key')}) DO NOTHING`;

/**
 * Locks the keys' rows in key order and counts one on each unless one is full: a row per window counted in, or
 * one row (`refused`, no key) with when the last full window ends.
 */
const hitAll = query(
  { key: 'string?', reset_at: 'date', refused: 'boolean' },
  (limits: CounterLimit[], resetAt: Date, now: Date) => {
    const keys = Prisma.join(limits.map((l) => Prisma.sql`${l.key}::text`));
    const cur = derived<Counter>('cur');
    const lim = derived<{ key: string; max: number }>('lim');
    const full = derived<{ until: Date }>('full_window');
    const counted = derived<Counter>('counted');
    return Prisma.sql`
      WITH cur AS (
        SELECT ${r.c('key')} AS "key", ${r.c('reset_at')} AS "reset_at",
          CASE WHEN ${r.c('reset_at')} > ${at(now)} THEN ${r.c('count')} ELSE 0 END AS "count"
        FROM ${r} WHERE ${r.c('key')} IN (${keys}) ORDER BY ${r.c('key')} FOR UPDATE
      ),
      lim (${lim.names('key', 'max')}) AS (VALUES ${limitValues(limits)}),
      full_window AS (
        SELECT max(${cur.c('reset_at')}) AS "until" FROM cur JOIN lim USING (${lim.names('key')})
        WHERE ${cur.c('count')} >= ${lim.c('max')}),
      counted AS (
        INSERT INTO ${r} (${r.name('key', 'count', 'reset_at')})
        SELECT ${lim.c('key')}, 1, ${at(resetAt)} FROM lim
        WHERE (SELECT ${full.c('until')} FROM full_window) IS NULL
        ${countOne(now)}
        RETURNING ${r.c('key')} AS "key", ${r.c('reset_at')} AS "reset_at"
      )
      SELECT ${counted.c('key')} AS "key", ${counted.c('reset_at')} AS "reset_at", false AS "refused" FROM counted
      UNION ALL
      SELECT NULL, ${full.c('until')}, true FROM full_window WHERE ${full.c('until')} IS NOT NULL`;
  },
);

/** When the last of the keys' full windows ends (null when none is full). */
const fullWindowsUntil = query({ until: 'date?' }, (limits: CounterLimit[], now: Date) => {
  const lim = derived<{ key: string; max: number }>('lim');
  return Prisma.sql`
    SELECT max(${r.c('reset_at')}) AS "until"
    FROM ${r} JOIN (VALUES ${limitValues(limits)}) AS lim (${lim.names('key', 'max')}) USING (${lim.names('key')})
    WHERE ${r.c('reset_at')} > ${at(now)} AND ${r.c('count')} >= ${lim.c('max')}`;
});

/** Gives one back to each window still its key's current one; ends the `cleared` keys' windows. */
function giveBackTo(windows: CounterWindow[], cleared: string[]) {
  const inWindow = windows.map((w) => Prisma.sql`(${r.c('key')} = ${w.key} AND ${r.c('reset_at')} = ${at(w.resetAt)})`);
  const isCleared = cleared.length ? Prisma.sql`${r.c('key')} IN (${Prisma.join(cleared)})` : Prisma.sql`false`;
  return Prisma.sql`
    UPDATE ${r}
    SET ${r.name('count')} = CASE WHEN ${isCleared} THEN 0 ELSE greatest(${r.c('count')} - 1, 0) END,
      ${r.name('reset_at')} = CASE WHEN ${isCleared} THEN '-infinity' ELSE ${r.c('reset_at')} END
    WHERE ${Prisma.join([...inWindow, isCleared], ' OR ')}`;
}

/** Deletes the windows that ended before `before`. */
const prune = (before: Date) => Prisma.sql`DELETE FROM ${r} WHERE ${r.c('reset_at')} < ${at(before)}`;

export class RateCounters {
  private lastPrune = 0;

  constructor(
    private readonly prisma: Db,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Counts one on `key`: its count in the current window, this one included, and when the window ends. */
  async hit(key: string, windowMs: number, now: Date): Promise<{ count: number; resetAt: Date }> {
    this.pruneNowAndThen(now);
    // One statement: the row's lock makes concurrent hits on one key count one after another.
    const [row] = await uncounted(() => rowsOf(this.prisma, hitOne, key, new Date(now.getTime() + windowMs), now));
    return { count: row.count, resetAt: row.reset_at };
  }

  /**
   * Counts one on every key unless one of them has reached its max, as one step: concurrent calls on a key are
   * held to its max exactly. Returns the windows counted in, or, when refused (nothing counted), when the last
   * full window ends.
   */
  async hitUnder(
    limits: CounterLimit[],
    windowMs: number,
    now: Date,
  ): Promise<{ refusedUntil: Date | null; windows: CounterWindow[] }> {
    this.pruneNowAndThen(now);
    // First every row exists, so that the next statement can lock them all: rows it had to create could not be
    // locked, and two first calls would both pass.
    await uncounted(() => this.prisma.$executeRaw(ensureRows(limits)));
    // Then the rows are locked in key order (so concurrent calls sharing a key never deadlock), read at their
    // latest, and counted only when none is full. Counting is an upsert, so a row pruned in between still counts.
    const rows = await uncounted(() => rowsOf(this.prisma, hitAll, limits, new Date(now.getTime() + windowMs), now));
    const refused = rows.find((r) => r.refused);
    if (refused) return { refusedUntil: refused.reset_at, windows: [] };
    return { refusedUntil: null, windows: rows.map((r) => ({ key: r.key!, resetAt: r.reset_at })) };
  }

  /** When the last of the keys' full windows ends, or null when none is full. */
  async fullUntil(limits: CounterLimit[], now: Date): Promise<Date | null> {
    const [row] = await uncounted(() => rowsOf(this.prisma, fullWindowsUntil, limits, now));
    return row.until;
  }

  /**
   * Gives one back to each window that is still its key's current one, and ends the `cleared` keys' windows (the
   * next count starts a new one).
   */
  async giveBack(windows: CounterWindow[], cleared: string[]): Promise<void> {
    if (windows.length + cleared.length === 0) return;
    await uncounted(() => this.prisma.$executeRaw(giveBackTo(windows, cleared)));
  }

  /** Deletes long-ended windows, at most once a minute per process, without making the caller wait. */
  private pruneNowAndThen(now: Date) {
    if (now.getTime() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now.getTime();
    uncounted(() => this.prisma.$executeRaw(prune(new Date(now.getTime() - KEEP_ENDED_MS)))).catch(this.onError);
  }
}

/** This file's statements, for the test that runs each on PostgreSQL (test/db/typed-sql.test.ts). */
export const rateCounterSql = { hitOne, ensureRows, hitAll, fullWindowsUntil, giveBackTo, prune };
