// A subscription's stream of events (src/graphql/subscriptions/stream.ts), on its own: what ends it when the token
// expires or the caller's sessions are revoked.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Fanout, type LiveBus } from '../../../src/live/bus.ts';
import type { SubscriptionChannel } from '../../../src/graphql/subscriptions/channel.ts';
import { subscriptionStream } from '../../../src/graphql/subscriptions/stream.ts';

const bus = () => new Fanout(() => {}) as unknown as LiveBus;
/** The stream alone: nothing here executes a document, so nothing asks for the caller or a scope. */
const notExecuted = () => {
  throw new Error('not executed in these tests');
};

/** A channel of one subscription from 127.0.0.1, with what each test sets. */
const channelOn = (
  own: Pick<SubscriptionChannel, 'bus' | 'expiresAt' | 'refresh'> & Partial<SubscriptionChannel>,
): SubscriptionChannel => ({
  release: () => {},
  socket: {},
  address: '127.0.0.1',
  request: '',
  caller: notExecuted,
  open: notExecuted,
  ...own,
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('subscriptionStream', () => {
  it("reads the caller again at the token's expiry by the wall clock, even when its timer fires early", async () => {
    const expiresAt = Date.now() + 30;
    const refreshedAt: number[] = [];
    const channel = channelOn({
      bus: bus(),
      expiresAt,
      // As the server's: the caller is read again, and refused, once the token has expired by the wall clock.
      refresh: async () => {
        refreshedAt.push(Date.now());
        return Date.now() < expiresAt;
      },
    });
    const stream = subscriptionStream(channel, 'notifications:1');
    // From here the wall clock runs 20 ms behind the timers' monotonic clock (rounding and drift put them apart by
    // far less, but the same way): the expiry timer fires before the expiry.
    const now = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => now() - 20);
    const first = await stream.next();
    expect(first.value).toMatchObject({ missed: true });
    // Before, the caller was read again 20 ms early, found valid, and nothing ended the subscription.
    expect(refreshedAt).toHaveLength(1);
    expect(refreshedAt[0]).toBeGreaterThanOrEqual(expiresAt);
    expect((await stream.next()).done).toBe(true);
  });

  it('a change heard again before it was sent goes once, in the place of the newest: cursors grow', async () => {
    const feed = new Fanout(() => {});
    const channel = channelOn({
      bus: feed as unknown as LiveBus,
      expiresAt: Infinity,
      refresh: async () => true,
    });
    const stream = subscriptionStream(channel, 'match:1');
    feed.dispatch({ kind: 'match', tournamentId: 1, matchId: 10, cursor: 1 });
    feed.dispatch({ kind: 'match', tournamentId: 1, matchId: 20, cursor: 2 });
    feed.dispatch({ kind: 'match', tournamentId: 1, matchId: 10, cursor: 3 });
    const sent = [];
    for (let i = 0; i < 2; i++) sent.push((await stream.next()).value!.event);
    expect(sent).toEqual([
      { kind: 'match', tournamentId: 1, matchId: 20, cursor: 2 },
      { kind: 'match', tournamentId: 1, matchId: 10, cursor: 3 },
    ]);
    await stream.return!();
  });

  it('ends at once for a token that has already expired', async () => {
    const channel = channelOn({
      bus: bus(),
      expiresAt: Date.now() - 1,
      refresh: async () => false,
    });
    const stream = subscriptionStream(channel, 'notifications:1');
    expect((await stream.next()).value).toMatchObject({ missed: true });
    expect((await stream.next()).done).toBe(true);
  });

  it("reads the caller again at once when their sessions are revoked, and ends; others' revocations pass", async () => {
    const feed = new Fanout(() => {});
    let stale = false;
    const channel = channelOn({
      bus: feed as unknown as LiveBus,
      expiresAt: Infinity,
      userId: 7,
      reauthenticate: () => (stale = true),
      // As the server's: a caller read again after the revocation is refused.
      refresh: async () => !stale,
    });
    const stream = subscriptionStream(channel, 'notification:7');
    const first = stream.next();
    feed.dispatch({ kind: 'sessions', userId: 8 });
    await new Promise((r) => setTimeout(r, 20));
    expect(stale).toBe(false);
    feed.dispatch({ kind: 'sessions', userId: 7 });
    expect(stale).toBe(true);
    expect((await first).value).toMatchObject({ missed: true });
    expect((await stream.next()).done).toBe(true);
  });
});
