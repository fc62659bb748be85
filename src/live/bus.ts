// The live feed inside one process: who listens to which topic, and the signal that events may have been missed.
// Publishing is the feed's own (src/live/local-bus.ts in one process, src/live/pg-bus.ts across replicas).
import { topicOf, type LiveEvent } from './events.ts';
import { RankingCoalescer } from './ranking-coalescer.ts';
import type { EventLog, Replay } from './event-log.ts';

export type LiveListener = (event: LiveEvent, reads: EventReads) => void;

/**
 * Reads shared by every subscriber of one event in this process: rows that are the same whoever asks (a match of
 * the football tables, one company's tournaments) are loaded once per event, not once per socket. What differs
 * per subscriber (their standing, their rights) is never put here.
 */
export class EventReads {
  private readonly loads = new Map<string, Promise<unknown>>();
  private readonly audiences = new Map<string, Set<number>>();

  /**
   * Who in this process hears the event under `key` (a company's ranking subscribers): each subscriber adds itself
   * as the event is handed out, before any execution, so one read can serve them all (src/app/subscriptions.ts).
   */
  audience(key: string): Set<number> {
    let set = this.audiences.get(key);
    if (!set) this.audiences.set(key, (set = new Set()));
    return set;
  }

  once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let p = this.loads.get(key) as Promise<T> | undefined;
    if (!p) {
      p = load();
      this.loads.set(key, p);
    }
    return p;
  }
}

export interface LiveBus {
  /**
   * Tells every replica's subscribers; call it after the change committed. Never throws and never waits for
   * delivery: a failed publish is logged and counted.
   */
  publish(event: LiveEvent): void;
  /** The topic's events after `cursor` still kept (src/live/event-log.ts); missed when they are not. */
  replay(topic: string, cursor: number): Promise<Replay>;
  /** Calls `listener` for every event on `topic` (src/live/events.ts); returns the unsubscribe. */
  subscribe(topic: string, listener: LiveListener): () => void;
  /**
   * Calls `listener` when this replica may have missed events (its feed was lost and is back); the reads are the
   * signal's, shared by every subscriber as an event's are.
   */
  onMissed(listener: (reads: EventReads) => void): () => void;
  readonly stats: LiveStats;
  /** Whether events reach this process: across replicas, its listening connection is up (readiness). */
  readonly listening: boolean;
  close(): Promise<void>;
}

export interface LiveStats {
  published: number;
  publishFailures: number;
  /** Events heard from the feed (this replica's own included). */
  received: number;
  /** Times the feed was lost and subscribers were told to refetch. */
  missed: number;
  /** Topics with at least one listener in this process. */
  topics: number;
}

/** Listener bookkeeping shared by the feeds. */
export class Fanout {
  private readonly listeners = new Map<string, Set<LiveListener>>();
  private readonly missedListeners = new Set<(reads: EventReads) => void>();
  readonly stats: LiveStats = { published: 0, publishFailures: 0, received: 0, missed: 0, topics: 0 };

  private readonly rankings: RankingCoalescer;

  /** `rankingIntervalMs`: ranking events go out at most once per tournament, company and interval (0: each). */
  constructor(
    private readonly log: (obj: object, msg: string) => void,
    rankingIntervalMs = 0,
  ) {
    this.rankings = new RankingCoalescer(rankingIntervalMs, (event) => this.deliver(event));
  }

  subscribe(topic: string, listener: LiveListener): () => void {
    let set = this.listeners.get(topic);
    if (!set) {
      set = new Set();
      this.listeners.set(topic, set);
      this.stats.topics = this.listeners.size;
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(topic) === set) {
        this.listeners.delete(topic);
        this.stats.topics = this.listeners.size;
      }
    };
  }

  onMissed(listener: (reads: EventReads) => void): () => void {
    this.missedListeners.add(listener);
    return () => this.missedListeners.delete(listener);
  }

  /** Hands an event to its topic's listeners; one listener's failure does not keep it from the others. */
  dispatch(event: LiveEvent): void {
    this.stats.received++;
    if (event.kind === 'ranking') this.rankings.offer(event);
    else this.deliver(event);
  }

  /** Ranking events still waiting for the end of their interval are dropped: the feed is closing. */
  close(): void {
    this.rankings.close();
  }

  private deliver(event: LiveEvent): void {
    const set = this.listeners.get(topicOf(event));
    if (!set) return;
    const reads = new EventReads();
    for (const listener of [...set]) this.guard(() => listener(event, reads));
  }

  missed(): void {
    this.stats.missed++;
    const reads = new EventReads();
    for (const listener of [...this.missedListeners]) this.guard(() => listener(reads));
  }

  private guard(call: () => void) {
    try {
      call();
    } catch (err) {
      this.log({ err: String((err as Error).message ?? err) }, 'live listener failed');
    }
  }
}

/**
 * The event with its cursor once kept (`kept`; sessions events are not: nobody resumes them). A failure to keep it
 * is logged and the event goes out without a cursor: live subscribers still hear it, and the log marks the gap for
 * those who resume across it.
 */
export async function logged(
  events: EventLog | null,
  event: LiveEvent,
  warn: (obj: object, msg: string) => void,
): Promise<{ event: LiveEvent; kept: boolean }> {
  if (!events || event.kind === 'sessions') return { event, kept: false };
  try {
    return { event: await events.append(event), kept: true };
  } catch (err) {
    warn({ err: String((err as Error).message ?? err).split('\n')[0], event }, 'live event not kept for resuming');
    return { event, kept: false };
  }
}

/** Replays of a feed without a log: everything before now is missed. */
export const NO_REPLAY: Replay = { events: [], missed: true };
