// The live feed of a single process (SQLite: one process owns the database file).
import { Fanout, type EventReads, type LiveBus, type LiveListener } from './bus.ts';
import type { LiveEvent } from './events.ts';

export class LocalBus implements LiveBus {
  private readonly fanout: Fanout;

  constructor(log: (obj: object, msg: string) => void, rankingIntervalMs = 0) {
    this.fanout = new Fanout(log, rankingIntervalMs);
  }

  get stats() {
    return this.fanout.stats;
  }

  /** In the process, the feed is always there. */
  readonly listening = true;

  publish(event: LiveEvent): void {
    this.fanout.stats.published++;
    // After the publisher's own work, as a notification from another process would arrive.
    setImmediate(() => this.fanout.dispatch(event));
  }

  subscribe(topic: string, listener: LiveListener) {
    return this.fanout.subscribe(topic, listener);
  }

  onMissed(listener: (reads: EventReads) => void) {
    return this.fanout.onMissed(listener);
  }

  async close(): Promise<void> {
    this.fanout.close();
  }
}
