// One subscription's events: heard from the live feed, queued while the subscriber's last event is still being
// sent, and each one responded to with a fresh scope (clock, loaders, object budget), so nothing read for an earlier
// event is shown as current.
import { EventReads } from '../../live/bus.ts';
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
  accept: (event: LiveEvent, reads: EventReads) => boolean = () => true,
  { after = null, fold = false }: { after?: number | null; fold?: boolean } = {},
): AsyncIterableIterator<LiveDelivery> {
  let queue: LiveDelivery[] = [];
  const keys = new Set<string>();
  let wake: (() => void) | null = null;
  let done = false;
  // The last cursor a replay sent: a live event at or before it was sent already (or is older than what was).
  let replayedUpTo = 0;
  // The replayed events still in the queue (they are at its head).
  let replayLeft = 0;
  const push = (delivery: LiveDelivery, key: string) => {
    const cursor = delivery.event?.cursor;
    if (cursor !== undefined && cursor <= replayedUpTo) return;
    if (keys.has(key)) {
      // The same change again before it was sent: once is enough, as the newest (its reads and cursor are now's), in
      // the newest's place, so cursors still grow in the order they are sent.
      const i = queue.findIndex((d) => !d.missed && changeOf(d.event) === key);
      if (i >= 0) {
        queue.splice(i, 1);
        if (i < replayLeft) replayLeft--;
        queue.push(delivery);
        wake?.();
      }
      return;
    }
    // A replay's events (at most MAX_REPLAYED) are not counted: only the live ones a slow subscriber lets pile up.
    if (queue.length - replayLeft >= MAX_QUEUED) {
      queue.length = 0;
      replayLeft = 0;
      keys.clear();
      delivery = { missed: true, reads: new EventReads() };
      key = 'missed';
    }
    queue.push(delivery);
    keys.add(key);
    wake?.();
  };
  const offEvent = channel.bus.subscribe(topic, (event, reads) => {
    if (accept(event, reads)) push({ event, reads }, changeOf(event));
  });
  const offMissed = channel.bus.onMissed((reads) => push({ missed: true, reads }, 'missed'));
  // At the token's expiry the caller is read again (and refused): no subscription outlives its token. A timer runs
  // on the monotonic clock, in whole milliseconds, and the expiry is wall-clock time: it may fire just before the
  // expiry, the caller would then be found valid and the subscription outlive its token with no timer left. So it
  // waits again for what is left.
  let expiry: NodeJS.Timeout | null = null;
  const atExpiry = () => {
    const left = channel.expiresAt - Date.now();
    if (left > 0) {
      expiry = setTimeout(atExpiry, left);
      expiry.unref();
    } else push({ missed: true, reads: new EventReads() }, 'missed');
  };
  if (channel.expiresAt - Date.now() < 2 ** 31 - 1) atExpiry();
  const offRevoked = watchRevocation(channel, () => push({ missed: true, reads: new EventReads() }, 'missed'));
  // What was missed, read once the live feed is listened to; a failed read is told as missed events.
  let replay: Promise<LiveDelivery[]> | null =
    after === null
      ? null
      : channel.bus.replay(topic, after).then(
          ({ events, missed }): LiveDelivery[] => {
            const reads = new EventReads();
            if (missed) return [{ missed: true, reads }];
            for (const event of events) replayedUpTo = Math.max(replayedUpTo, event.cursor ?? 0);
            const kept = events.filter((event) => accept(event, reads));
            const sent = fold ? kept.slice(-1) : kept;
            return sent.map((event) => ({ event, reads }));
          },
          (): LiveDelivery[] => [{ missed: true, reads: new EventReads() }],
        );
  let last = false;
  const finish = () => {
    if (done) return;
    done = true;
    offEvent();
    offMissed();
    offRevoked();
    if (expiry) clearTimeout(expiry);
    wake?.();
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      channel.release(); // the last response has been sent: its rows need not wait with us
      if (replay) {
        const missed = await replay;
        replay = null;
        // Live events the replay covered were sent by it (or are older than what it sent).
        const after = (d: LiveDelivery) => d.event?.cursor === undefined || d.event.cursor > replayedUpTo;
        queue = [...missed, ...queue.filter(after)];
        replayLeft = missed.length;
        keys.clear();
        for (const d of queue) keys.add(d.missed ? 'missed' : changeOf(d.event));
      }
      while (!done && !last && queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      if (done || last) {
        finish();
        return { done: true, value: undefined };
      }
      const value = queue.shift()!;
      if (replayLeft > 0) replayLeft--;
      keys.delete(value.missed ? 'missed' : changeOf(value.event));
      last = !(await channel.refresh());
      return { done: false, value };
    },
    async return() {
      finish();
      return { done: true, value: undefined };
    },
    async throw(err: unknown) {
      finish();
      throw err;
    },
  };
}

/**
 * The caller's sessions revoked (src/app/sessions.ts: a password change, logoutEverywhere, ...), on any replica:
 * the caller is read again at once and refused, so the subscription responds with UNAUTHENTICATED and ends. A feed that
 * was lost may have lost a revocation too: the caller is read again then as well.
 */
function watchRevocation(channel: SubscriptionChannel, wake: () => void): () => void {
  const { userId, reauthenticate } = channel;
  if (userId == null || !reauthenticate) return () => {};
  const offEvent = channel.bus.subscribe(sessionsTopic(userId), () => {
    reauthenticate();
    wake();
  });
  const offMissed = channel.bus.onMissed(reauthenticate);
  return () => {
    offEvent();
    offMissed();
  };
}
