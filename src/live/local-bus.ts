// The live feed of a single process (SQLite: one process owns the database file).
import { Fanout, logged, NO_REPLAY, type EventReads, type LiveBus, type LiveListener } from './bus.ts';
import type { EventLog } from './event-log.ts';
import type { LiveEvent } from './events.ts';

export class LocalBus implements LiveBus {
  private readonly fanout: Fanout;

  constructor(
    private readonly log: (obj: object, msg: string) => void,
    rankingIntervalMs = 0,
    private readonly events: EventLog | null = null,
  ) {
    this.fanout = new Fanout(log, rankingIntervalMs);
  }

  get stats() {
    return this.fanout.stats;
  }

  /** In the process, the feed is always there. */
  readonly listening = true;

  publish(event: LiveEvent): void {
    this.fanout.stats.published++;
    // Kept first (for resuming), then after the publisher's own work, as a notification from another process would.
    void logged(this.events, event, this.log).then(({ event }) => setImmediate(() => this.fanout.dispatch(event)));
  }

  replay(topic: string, cursor: number) {
    return this.events ? this.events.after(topic, cursor) : Promise.resolve(NO_REPLAY);
  }

  subscribe(topic: string, listener: LiveListener) {
    return this.fanout.subscribe(topic, listener);
  }

  onMissed(listener: (reads: EventReads) => void) {
    return this.fanout.onMissed(listener);
  }

  async close(): Promise<void> {
    this.fanout.close();
    this.events?.close();
  }
}
