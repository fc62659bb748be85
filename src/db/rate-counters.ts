// Fixed-window counters that every gateway process on one PostgreSQL database shares (prode_meta.rate_limit,
// migration 20261123170000_replica_counters_and_leases), so rate limits hold across replicas. A window is one row:
// its key, its count and when it ends; the end also names the window, so a count is given back to the window it
// was taken in and never to a later one. Times come from the caller's clock, as Prisma's columns do.
// Their statements are bookkeeping, not the work a request asked for: they are left out of its statement count.
import type { Db } from './client.ts';
import { Prisma } from './sql.ts';
import { uncounted } from './sql-stats.ts';

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
    const [row] = await uncounted(
      () => this.prisma.$queryRaw<Array<{ count: number; reset_at: Date }>>`
        INSERT INTO prode_meta.rate_limit AS r (key, count, reset_at)
        VALUES (${key}, 1, ${at(new Date(now.getTime() + windowMs))})
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN r.reset_at > ${at(now)} THEN r.count + 1 ELSE 1 END,
          reset_at = CASE WHEN r.reset_at > ${at(now)} THEN r.reset_at ELSE EXCLUDED.reset_at END
        RETURNING count, reset_at`,
    );
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
    const keys = Prisma.join(limits.map((l) => Prisma.sql`${l.key}::text`));
    // First every row exists, so that the next statement can lock them all: rows it had to create could not be
    // locked, and two first calls would both pass. A new row holds no window ('-infinity' has ended for every clock).
    await uncounted(
      () => this.prisma.$executeRaw`
        INSERT INTO prode_meta.rate_limit (key, count, reset_at)
        VALUES ${Prisma.join(limits.map((l) => Prisma.sql`(${l.key}, 0, '-infinity')`))}
        ON CONFLICT (key) DO NOTHING`,
    );
    // Then the rows are locked in key order (so concurrent calls sharing a key never deadlock), read at their
    // latest, and counted only when none is full. Counting is an upsert, so a row pruned in between still counts.
    const rows = await uncounted(
      () => this.prisma.$queryRaw<Array<{ key: string | null; reset_at: Date; refused: boolean }>>`
        WITH cur AS (
          SELECT key, reset_at, CASE WHEN reset_at > ${at(now)} THEN count ELSE 0 END AS count
          FROM prode_meta.rate_limit WHERE key IN (${keys}) ORDER BY key FOR UPDATE
        ),
        lim (key, max) AS (VALUES ${Prisma.join(limits.map((l) => Prisma.sql`(${l.key}::text, ${l.max}::int)`))}),
        full_window AS (SELECT max(cur.reset_at) AS until FROM cur JOIN lim USING (key) WHERE cur.count >= lim.max),
        counted AS (
          INSERT INTO prode_meta.rate_limit AS r (key, count, reset_at)
          SELECT key, 1, ${at(new Date(now.getTime() + windowMs))} FROM lim
          WHERE (SELECT until FROM full_window) IS NULL
          ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN r.reset_at > ${at(now)} THEN r.count + 1 ELSE 1 END,
            reset_at = CASE WHEN r.reset_at > ${at(now)} THEN r.reset_at ELSE EXCLUDED.reset_at END
          RETURNING r.key, r.reset_at
        )
        SELECT key, reset_at, false AS refused FROM counted
        UNION ALL
        SELECT NULL, until, true FROM full_window WHERE until IS NOT NULL`,
    );
    const refused = rows.find((r) => r.refused);
    if (refused) return { refusedUntil: refused.reset_at, windows: [] };
    return { refusedUntil: null, windows: rows.map((r) => ({ key: r.key!, resetAt: r.reset_at })) };
  }

  /** When the last of the keys' full windows ends, or null when none is full. */
  async fullUntil(limits: CounterLimit[], now: Date): Promise<Date | null> {
    const [row] = await uncounted(
      () => this.prisma.$queryRaw<Array<{ until: Date | null }>>`
        SELECT max(r.reset_at) AS until
        FROM prode_meta.rate_limit r
        JOIN (VALUES ${Prisma.join(limits.map((l) => Prisma.sql`(${l.key}::text, ${l.max}::int)`))}) AS lim (key, max)
          USING (key)
        WHERE r.reset_at > ${at(now)} AND r.count >= lim.max`,
    );
    return row.until;
  }

  /**
   * Gives one back to each window that is still its key's current one, and ends the `cleared` keys' windows (the
   * next count starts a new one).
   */
  async giveBack(windows: CounterWindow[], cleared: string[]): Promise<void> {
    const inWindow = windows.map((w) => Prisma.sql`(key = ${w.key} AND reset_at = ${at(w.resetAt)})`);
    const isCleared = cleared.length ? Prisma.sql`key IN (${Prisma.join(cleared)})` : Prisma.sql`false`;
    if (inWindow.length + cleared.length === 0) return;
    await uncounted(
      () => this.prisma.$executeRaw`
        UPDATE prode_meta.rate_limit
        SET count = CASE WHEN ${isCleared} THEN 0 ELSE greatest(count - 1, 0) END,
          reset_at = CASE WHEN ${isCleared} THEN '-infinity' ELSE reset_at END
        WHERE ${Prisma.join([...inWindow, isCleared], ' OR ')}`,
    );
  }

  /** Deletes long-ended windows, at most once a minute per process, without making the caller wait. */
  private pruneNowAndThen(now: Date) {
    if (now.getTime() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now.getTime();
    uncounted(
      () => this.prisma.$executeRaw`
        DELETE FROM prode_meta.rate_limit WHERE reset_at < ${at(new Date(now.getTime() - KEEP_ENDED_MS))}`,
    ).catch(this.onError);
  }
}
