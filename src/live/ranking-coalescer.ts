// Ranking events coalesced per tournament and company: a burst of results (a matchday's goals, a rescoring job per
// match) moves the same rankings again and again, and every event costs each company one ranking read and each
// subscriber an execution. The first event of a quiet interval goes out at once; those within the interval are
// folded into one that goes out when it ends, so the last state always reaches subscribers, at most one event per
// company and interval later (LIVE_RANKING_INTERVAL_MS).
import type { LiveEvent } from './events.ts';

type RankingEvent = Extract<LiveEvent, { kind: 'ranking' }>;

/** Past this many remembered keys, those quiet for a whole interval are forgotten. */
const PRUNE_AT = 10_000;

export class RankingCoalescer {
  /** When each key's last event went out. */
  private readonly sent = new Map<string, number>();
  /** Keys with an event waiting for the end of their interval: the newest offered, which goes out then. */
  private readonly waiting = new Map<string, { timer: NodeJS.Timeout; event: RankingEvent }>();

  constructor(
    private readonly intervalMs: number,
    private readonly deliver: (event: RankingEvent) => void,
    private readonly now: () => number = Date.now,
  ) {}

  offer(event: RankingEvent): void {
    if (this.intervalMs <= 0) return this.deliver(event);
    const key = `${event.tournamentId}:${event.companyId ?? '*'}`;
    // Already waiting, or covered by an event for every company that is: the waiting one carries this one, and its
    // cursor (the topic's newest heard), so a subscriber resuming from it is not sent this one again.
    const waiting = this.waiting.get(key) ?? this.waiting.get(`${event.tournamentId}:*`);
    if (waiting) {
      if ((event.cursor ?? 0) > (waiting.event.cursor ?? 0)) waiting.event = { ...waiting.event, cursor: event.cursor };
      return;
    }
    const since = this.now() - (this.sent.get(key) ?? -Infinity);
    if (since >= this.intervalMs) return this.send(key, event);
    const entry = {
      event,
      timer: setTimeout(() => {
        this.waiting.delete(key);
        this.send(key, entry.event);
      }, this.intervalMs - since),
    };
    entry.timer.unref();
    this.waiting.set(key, entry);
  }

  /** Events still waiting are dropped: the process is stopping. */
  close(): void {
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }

  private send(key: string, event: RankingEvent) {
    const now = this.now();
    if (this.sent.size >= PRUNE_AT)
      for (const [k, at] of this.sent) if (now - at >= this.intervalMs) this.sent.delete(k);
    this.sent.set(key, now);
    // An event for every company carries the companies' events still waiting (and their cursors): sent after it,
    // they would tell a subscriber nothing new, with an older cursor.
    if (event.companyId === undefined)
      for (const [k, waiting] of this.waiting)
        if (k.startsWith(`${event.tournamentId}:`)) {
          clearTimeout(waiting.timer);
          this.waiting.delete(k);
          this.sent.set(k, now);
          if ((waiting.event.cursor ?? 0) > (event.cursor ?? 0)) event = { ...event, cursor: waiting.event.cursor };
        }
    this.deliver(event);
  }
}
