// The live events kept for a while, so a subscriber that lost its socket (a replica stopped or crashed, a network
// change) and subscribes again with `after: <cursor>` gets what it missed, in order, once. Every published event is
// a row (its id is the cursor), written before it is sent to the feed; rows older than the window are deleted.
//
// Cursor order must be the order subscribers hear events in, or a resume after the last event heard could skip one
// committed later with a smaller id. On PostgreSQL the rows are written, and their NOTIFYs sent, in one transaction
// under one lock: ids are taken and committed in the same order, and PostgreSQL delivers notifications in commit
// order. On SQLite one process writes them one batch at a time and hands them out in that order.
import { providerOf, type Db, type Tx } from '../db/client.ts';
import { parseLiveEvent, topicOf, type LiveEvent } from './events.ts';

/** The lock the writers of kept events take in turn on PostgreSQL (one number for this purpose). */
const LOG_LOCK = 7_452_001;
/** A replay sends at most this many events; past it the subscriber is told it missed events (and refetches). */
export const MAX_REPLAYED = 1000;
/**
 * The topic of a row that marks a gap: events were sent while they could not be kept (the database refused the
 * write). Written with the next events kept, it tells any replay across it that events were missed.
 */
const GAP_TOPIC = '*gap*';
/** How soon a gap mark that could not be written is tried again, doubling up to the last. */
const GAP_RETRY_FIRST_MS = 1000;
const GAP_RETRY_LAST_MS = 30_000;
/** How often a replica deletes the events past the window. */
const PRUNE_EVERY_MS = 60_000;

export interface Replay {
  events: LiveEvent[];
  /** The cursor is past the window (or names no kept event), or more events than a replay sends were missed. */
  missed: boolean;
}

export class EventLog {
  private readonly pruning: NodeJS.Timeout;

  /**
   * `send`: sends the kept events to the feed in the transaction that keeps them (PostgreSQL's NOTIFY, delivered at
   * commit, in commit order); without it the caller sends them once kept.
   */
  constructor(
    private readonly db: Db,
    private readonly windowMs: number,
    private readonly warn: (obj: object, msg: string) => void,
    private readonly send: ((tx: Tx, kept: LiveEvent[]) => Promise<unknown>) | null = null,
  ) {
    this.pruning = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.pruning.unref();
  }

  /**
   * Keeps the event; returns it with its cursor. Events published in the same turn of the event loop (a rescoring's
   * notifications) are written by one INSERT.
   */
  append(event: LiveEvent): Promise<LiveEvent> {
    return new Promise((resolve, reject) => {
      this.batch.push({ event, resolve, reject });
      // One write at a time per process: the next batch gathers while one is being written.
      if (this.batch.length === 1)
        setImmediate(() => {
          this.writing = this.writing.then(() => this.flush());
        });
    });
  }

  private writing: Promise<void> = Promise.resolve();
  /**
   * Events were sent without being kept since the last write that succeeded: the next one marks the gap, and until
   * then the mark alone is tried again, waiting longer each time (an idle replica may publish nothing for long).
   */
  private gap = false;
  private gapRetry: NodeJS.Timeout | null = null;
  private gapRetryMs = GAP_RETRY_FIRST_MS;
  private batch: Array<{ event: LiveEvent; resolve(e: LiveEvent): void; reject(err: unknown): void }> = [];

  private async flush() {
    const batch = this.batch;
    this.batch = [];
    if (batch.length === 0 && !this.gap) return;
    const bodies = batch.map(({ event }) => {
      const { cursor: _cursor, ...body } = event;
      return body as LiveEvent;
    });
    try {
      const kept = await this.db.$transaction(async (tx) => {
        if (providerOf(this.db) === 'postgresql')
          await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock($1)', LOG_LOCK);
        const gap = this.gap ? [{ topic: GAP_TOPIC, event: '{}' }] : [];
        const rows = await tx.liveEvent.createManyAndReturn({
          data: [...gap, ...bodies.map((body) => ({ topic: topicOf(body), event: JSON.stringify(body) }))],
          select: { id: true },
        });
        // Ids are given in the order of the rows written (the gap's first).
        const ids = rows
          .map((r) => r.id)
          .sort((a, b) => a - b)
          .slice(gap.length);
        const events = bodies.map((body, i) => ({ ...body, cursor: ids[i] }) as LiveEvent);
        if (this.send) await this.send(tx, events);
        return events;
      });
      this.gap = false;
      this.gapRetryMs = GAP_RETRY_FIRST_MS;
      batch.forEach(({ resolve }, i) => resolve(kept[i]));
    } catch (err) {
      // The publisher sends them anyway, without a cursor.
      const why = String((err as Error).message ?? err).split('\n')[0];
      if (!this.gap) this.warn({ err: why }, 'live events not kept: a resume across them is told it missed events');
      this.gap = true;
      this.retryGap();
      for (const { reject } of batch) reject(err);
    }
  }

  /** Writes the gap's mark on its own later, unless events are written (with it) first. */
  private retryGap() {
    if (this.gapRetry) return;
    this.gapRetry = setTimeout(() => {
      this.gapRetry = null;
      if (!this.gap || this.batch.length > 0) return;
      this.writing = this.writing.then(() => this.flush());
    }, this.gapRetryMs);
    this.gapRetry.unref();
    this.gapRetryMs = Math.min(this.gapRetryMs * 2, GAP_RETRY_LAST_MS);
  }

  /** The topic's events after `cursor` still kept, in order. */
  async after(topic: string, cursor: number, now = Date.now()): Promise<Replay> {
    const mark = await this.db.liveEvent.findUnique({ where: { id: cursor }, select: { createdAt: true } });
    if (!mark || mark.createdAt.getTime() < now - this.windowMs) return { events: [], missed: true };
    const rows = await this.db.liveEvent.findMany({
      where: { topic: { in: [topic, GAP_TOPIC] }, id: { gt: cursor } },
      orderBy: { id: 'asc' },
      take: MAX_REPLAYED + 1,
      select: { id: true, topic: true, event: true },
    });
    if (rows.length > MAX_REPLAYED || rows.some((r) => r.topic === GAP_TOPIC)) return { events: [], missed: true };
    const events: LiveEvent[] = [];
    for (const row of rows) {
      const event = parseLiveEvent(row.event);
      if (event) events.push({ ...event, cursor: row.id });
    }
    return { events, missed: false };
  }

  /** Deletes the events past the window (any replica may: the same rows go whoever deletes them). */
  async prune(now = Date.now()): Promise<number> {
    try {
      const { count } = await this.db.liveEvent.deleteMany({
        where: { createdAt: { lt: new Date(now - this.windowMs) } },
      });
      return count;
    } catch (err) {
      this.warn({ err: String((err as Error).message ?? err).split('\n')[0] }, 'live events: pruning failed');
      return 0;
    }
  }

  close(): void {
    clearInterval(this.pruning);
    if (this.gapRetry) clearTimeout(this.gapRetry);
  }
}
