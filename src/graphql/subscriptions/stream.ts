// One subscription's events: heard from the live feed, queued while the subscriber's last event is still being
// sent, and each one responded to with a fresh scope (clock, loaders, object budget), so nothing read for an earlier
// event is shown as current.
import { EventReads } from '../../live/bus.ts';
import type { Replay } from '../../live/event-log.ts';
import { changeOf, sessionsTopic, type LiveEvent } from '../../live/events.ts';
import type { SubscriptionChannel } from './channel.ts';
import { badInput } from '../../domain/errors.ts';

/**
 * What a subscription resolver is given per event: one event, or word that some may have been missed. `reads` is
 * the same for every subscriber handed the same event (or signal) in this process: it names the event in the
 * budgets and the shared executions of executions.ts.
 */
export type LiveDelivery =
  { event: LiveEvent; reads: EventReads; missed?: undefined } | { missed: true; event?: undefined; reads: EventReads };

/** Events a slow subscriber may have waiting; past it they are dropped for one missedEvents. */
const MAX_QUEUED = 100;

/**
 * Parses a subscription's `after` argument: the cursor of the last event the client received (BAD_USER_INPUT when it
 * is not one). Null when none was given.
 */
export function resumeCursor(after: unknown): number | null {
  if (after == null) return null;
  if (typeof after !== 'string' || !/^[1-9][0-9]{0,14}$/.test(after))
    throw badInput('after must be the cursor of an event this subscription sent', 'after');
  return Number(after);
}

/**
 * The events of `topic` that `accept` lets through, until the subscriber completes or disconnects. With `after` (a
 * cursor), first the topic's events since that one still kept, then the live ones: the live feed is listened to
 * before the kept events are read, and an event both sent is sent once. `fold`: a replay is sent as its last event
 * only (a ranking's standing is the one of now whatever moved it).
 */
export function subscriptionStream(
  channel: SubscriptionChannel,
  topic: string,
  accept: (event: LiveEvent, reads: EventReads) => boolean = acceptAll,
  { after = null, fold = false }: { after?: number | null; fold?: boolean } = {},
): AsyncIterableIterator<LiveDelivery> {
  return new SubscriptionStream(channel, topic, accept, after, fold);
}

const acceptAll = () => true;

const ENDED: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * One subscription's queue of events. A class, not closures: a socket holds one of these while it waits, and each
 * closure of a module loaded through tsx carries a property dictionary of its own (its kept name).
 */
class SubscriptionStream implements AsyncIterableIterator<LiveDelivery> {
  private queue: LiveDelivery[] = [];
  private readonly keys = new Set<string>();
  private wake: (() => void) | null = null;
  private done = false;
  /** The last cursor a replay sent: a live event at or before it was sent already (or is older than what was). */
  private replayedUpTo = 0;
  /** The replayed events still in the queue (they are at its head). */
  private replayLeft = 0;
  /** What was missed, read once the live feed is listened to; a failed read is told as missed events. */
  private replay: Promise<LiveDelivery[]> | null = null;
  private last = false;
  private expiry: NodeJS.Timeout | null = null;
  private readonly offEvent: () => void;
  private readonly offMissed: () => void;
  private readonly offRevoked: () => void;

  constructor(
    private readonly channel: SubscriptionChannel,
    topic: string,
    private readonly accept: (event: LiveEvent, reads: EventReads) => boolean,
    after: number | null,
    private readonly fold: boolean,
  ) {
    this.offEvent = channel.bus.subscribe(topic, (event, reads) => {
      if (this.accept(event, reads)) this.push({ event, reads }, changeOf(event));
    });
    this.offMissed = channel.bus.onMissed((reads) => this.push({ missed: true, reads }, 'missed'));
    if (channel.expiresAt - Date.now() < 2 ** 31 - 1) this.atExpiry();
    this.offRevoked = watchRevocation(channel, () => this.missed());
    if (after !== null)
      this.replay = channel.bus.replay(topic, after).then(
        (replay) => this.replayed(replay),
        (): LiveDelivery[] => [{ missed: true, reads: new EventReads() }],
      );
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  next(): Promise<IteratorResult<LiveDelivery, undefined>> {
    this.channel.release(); // the last response has been sent: its rows need not wait with us
    return this.replay ? this.afterReplay() : this.take();
  }

  private async afterReplay(): Promise<IteratorResult<LiveDelivery, undefined>> {
    const missed = await this.replay!;
    this.replay = null;
    // Live events the replay covered were sent by it (or are older than what it sent).
    const after = (d: LiveDelivery) => d.event?.cursor === undefined || d.event.cursor > this.replayedUpTo;
    this.queue = [...missed, ...this.queue.filter(after)];
    this.replayLeft = missed.length;
    this.keys.clear();
    for (const d of this.queue) this.keys.add(d.missed ? 'missed' : changeOf(d.event));
    return this.take();
  }

  /**
   * The next delivery, once there is one. Promises, not an async function: a subscription waiting for its next
   * event holds one promise, not a suspended function's frame.
   */
  private take(): Promise<IteratorResult<LiveDelivery, undefined>> {
    if (!this.done && !this.last && this.queue.length === 0)
      return new Promise<void>((resolve) => (this.wake = resolve)).then(() => this.take());
    this.wake = null;
    if (this.done || this.last) {
      this.finish();
      return Promise.resolve(ENDED);
    }
    const value = this.queue.shift()!;
    if (this.replayLeft > 0) this.replayLeft--;
    this.keys.delete(value.missed ? 'missed' : changeOf(value.event));
    const allowed = this.channel.refresh();
    if (typeof allowed === 'boolean') {
      this.last = !allowed;
      return Promise.resolve({ done: false, value });
    }
    return allowed.then((ok) => {
      this.last = !ok;
      return { done: false, value };
    });
  }

  async return(): Promise<IteratorResult<LiveDelivery, undefined>> {
    this.finish();
    return ENDED;
  }

  async throw(err: unknown): Promise<IteratorResult<LiveDelivery, undefined>> {
    this.finish();
    throw err;
  }

  private push(delivery: LiveDelivery, key: string) {
    const cursor = delivery.event?.cursor;
    if (cursor !== undefined && cursor <= this.replayedUpTo) return;
    const { queue } = this;
    if (this.keys.has(key)) {
      // The same change again before it was sent: once is enough, as the newest (its reads and cursor are now's), in
      // the newest's place, so cursors still grow in the order they are sent.
      const i = queue.findIndex((d) => !d.missed && changeOf(d.event) === key);
      if (i >= 0) {
        queue.splice(i, 1);
        if (i < this.replayLeft) this.replayLeft--;
        queue.push(delivery);
        this.wake?.();
      }
      return;
    }
    // A replay's events (at most MAX_REPLAYED) are not counted: only the live ones a slow subscriber lets pile up.
    if (queue.length - this.replayLeft >= MAX_QUEUED) {
      queue.length = 0;
      this.replayLeft = 0;
      this.keys.clear();
      delivery = { missed: true, reads: new EventReads() };
      key = 'missed';
    }
    queue.push(delivery);
    this.keys.add(key);
    this.wake?.();
  }

  /** Word that events may have been missed (the token expired, the sessions were revoked): the caller is read again. */
  private missed() {
    this.push({ missed: true, reads: new EventReads() }, 'missed');
  }

  /**
   * At the token's expiry the caller is read again (and refused): no subscription outlives its token. A timer runs
   * on the monotonic clock, in whole milliseconds, and the expiry is wall-clock time: it may fire just before the
   * expiry, the caller would then be found valid and the subscription outlive its token with no timer left. So it
   * waits again for what is left.
   */
  private atExpiry() {
    const left = this.channel.expiresAt - Date.now();
    if (left > 0) {
      this.expiry = setTimeout(() => this.atExpiry(), left);
      this.expiry.unref();
    } else this.missed();
  }

  private replayed({ events, missed }: Replay): LiveDelivery[] {
    const reads = new EventReads();
    if (missed) return [{ missed: true, reads }];
    for (const event of events) this.replayedUpTo = Math.max(this.replayedUpTo, event.cursor ?? 0);
    const kept = events.filter((event) => this.accept(event, reads));
    const sent = this.fold ? kept.slice(-1) : kept;
    return sent.map((event) => ({ event, reads }));
  }

  private finish() {
    if (this.done) return;
    this.done = true;
    this.offEvent();
    this.offMissed();
    this.offRevoked();
    if (this.expiry) clearTimeout(this.expiry);
    this.wake?.();
  }
}

/**
 * The caller's sessions revoked (src/app/sessions.ts: a password change, logoutEverywhere, ...), on any replica:
 * the caller is read again at once and refused, so the subscription responds with UNAUTHENTICATED and ends. A feed that
 * was lost may have lost a revocation too: the caller is read again then as well.
 */
function watchRevocation(channel: SubscriptionChannel, wake: () => void): () => void {
  const { userId } = channel;
  if (userId == null || !channel.reauthenticate) return noop;
  const offEvent = channel.bus.subscribe(sessionsTopic(userId), () => {
    channel.reauthenticate!();
    wake();
  });
  const offMissed = channel.bus.onMissed(() => channel.reauthenticate!());
  return () => {
    offEvent();
    offMissed();
  };
}

const noop = () => {};
