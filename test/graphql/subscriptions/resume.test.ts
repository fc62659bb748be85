// Resumable subscriptions (src/live/event-log.ts, src/graphql/subscriptions/stream.ts): every event carries a cursor;
// a subscriber that comes back with `after: <cursor>` is sent the events it missed, in order and once, then the
// live ones; past the window it is told it missed events; a malformed cursor is refused; a cursor replays only the
// subscriber's own topic. One server over loopback, on the suite's store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refuseWrites } from '../../helpers/refused-writes.ts';
import { bearer, startTestServer, type TestServer } from '../../helpers/app.ts';
import { activeSubscriptions, liveClient, untilSubscribed, type LiveClient } from '../../helpers/live.ts';
import { EventLog } from '../../../src/live/event-log.ts';

let s: TestServer;
let player: string;
let manager: string;
const clients: LiveClient[] = [];
beforeAll(async () => {
  s = await startTestServer();
  player = await s.loginAs('player');
  manager = await s.loginAs('manager');
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await s.close();
});

const MATCH = `subscription($t: Int!, $after: String) { matchUpdated(tournamentId: $t, after: $after) {
  cursor missedEvents match { id homeTeamGoals } } }`;
const RESULT = `mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }`;

function subscribe(after?: string | null) {
  const client = liveClient(s.url, { Authorization: `Bearer ${player}`, 'x-app-path': 'demo' });
  clients.push(client);
  return { client, watch: client.subscribe(MATCH, { t: s.demo.tournament, after }) };
}

async function score(homeTeamGoals: number) {
  const r = await s.gql(
    RESULT,
    { i: { matchId: s.demo.matches.final, status: 'IN_PLAY', homeTeamGoals, awayTeamGoals: 0, elapsedTime: 10 } },
    bearer(manager),
  );
  expect(r.errors).toBeUndefined();
}

describe('resuming a subscription', () => {
  it('after a cursor: the missed events in order, once, then the live ones', async () => {
    await s.kickOff(s.demo.matches.final);
    let base = await activeSubscriptions(s.url);
    const first = subscribe();
    await untilSubscribed(s.url, base + 1);
    await score(1);
    const heard = (await first.watch.next()).data.matchUpdated;
    expect(heard).toMatchObject({ missedEvents: false, match: { homeTeamGoals: 1 } });
    expect(heard.cursor).toMatch(/^[1-9][0-9]*$/);
    await first.client.dispose();

    // Gone: three goals meanwhile.
    for (const goals of [2, 3, 4]) await score(goals);
    base = await activeSubscriptions(s.url);
    const back = subscribe(heard.cursor);
    await untilSubscribed(s.url, base + 1);
    const replayed = [];
    for (let i = 0; i < 3; i++) replayed.push((await back.watch.next()).data.matchUpdated);
    // Each as the match is now (the latest score), in the order the events happened, with growing cursors.
    expect(replayed.map((e) => e.missedEvents)).toEqual([false, false, false]);
    const cursors = replayed.map((e) => Number(e.cursor));
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    expect(cursors[0]).toBeGreaterThan(Number(heard.cursor));
    await score(5);
    const live = (await back.watch.next()).data.matchUpdated;
    expect(live.match.homeTeamGoals).toBe(5);
    expect(Number(live.cursor)).toBeGreaterThan(cursors[2]);
    expect(await back.watch.quiet(300)).toBe(true);
  });

  it('past the window the first event is missedEvents: true; a malformed cursor is refused', async () => {
    await score(6);
    const old = await s.t.db.prisma.liveEvent.findFirstOrThrow({ orderBy: { id: 'desc' } });
    await s.t.db.prisma.liveEvent.update({
      where: { id: old.id },
      data: { createdAt: new Date(Date.now() - 3600_000) },
    });
    const late = subscribe(String(old.id));
    expect((await late.watch.next()).data.matchUpdated).toEqual({ cursor: null, missedEvents: true, match: null });

    for (const cursor of ['not-a-cursor', '0', '-3', '1e9']) {
      const bad = subscribe(cursor);
      const refused = await bad.watch.next();
      expect(refused.errors?.[0].extensions?.code, cursor).toBe('BAD_USER_INPUT');
    }
  });

  it('a long replay is sent whole while live events come in, then those', async () => {
    const db = s.t.db.prisma;
    const base = await activeSubscriptions(s.url);
    const first = subscribe();
    await untilSubscribed(s.url, base + 1);
    await score(7);
    const last = (await first.watch.next()).data.matchUpdated;
    await first.client.dispose();
    while ((await activeSubscriptions(s.url)) > base) await new Promise((resolve) => setTimeout(resolve, 20));
    const kept = await db.liveEvent.findUniqueOrThrow({ where: { id: Number(last.cursor) } });
    // More missed events than a slow subscriber may have waiting live (100), fewer than a replay sends (1,000).
    const rows = Array.from({ length: 300 }, () => ({ topic: kept.topic, event: kept.event }));
    await db.liveEvent.createMany({ data: rows });
    const back = subscribe(String(kept.id));
    await untilSubscribed(s.url, base + 1);
    await score(8);
    const heard = [];
    for (let i = 0; i < 301; i++) heard.push((await back.watch.next()).data.matchUpdated);
    expect(heard.filter((e) => e.missedEvents)).toEqual([]);
    const cursors = heard.map((e) => Number(e.cursor));
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    expect(new Set(cursors).size).toBe(301);
    expect(heard[300].match.homeTeamGoals).toBe(8);
    expect(await back.watch.quiet(300)).toBe(true);
  });

  it('an event sent while it could not be kept makes a replay across it missedEvents: true', async () => {
    const db = s.t.db.prisma;
    const warned: string[] = [];
    const log = new EventLog(db, 600_000, (_obj, msg) => warned.push(msg));
    const event = { kind: 'notification', userId: s.demo.users['player1@demo.test'], notificationId: 1 } as const;
    const topic = `notification:${event.userId}`;
    try {
      const before = await log.append(event);
      await refuseLiveEventWrites(true);
      try {
        await expect(log.append(event)).rejects.toThrow();
      } finally {
        await refuseLiveEventWrites(false);
      }
      // Marked on its own soon after, even when nothing more is published.
      const deadline = Date.now() + 5000;
      while (!(await log.after(topic, before.cursor!)).missed && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await log.after(topic, before.cursor!)).toEqual({ events: [], missed: true });
      const after = await log.append(event);
      expect(await log.after(topic, after.cursor!)).toEqual({ events: [], missed: false });
      const next = await log.append(event);
      expect((await log.after(topic, after.cursor!)).events.map((e) => e.cursor)).toEqual([next.cursor]);
    } finally {
      log.close();
    }
  });

  it("a cursor replays the topic's events only: another user's notifications are not the caller's", async () => {
    const db = s.t.db.prisma;
    const log = new EventLog(db, 600_000, () => {});
    try {
      const mine = s.demo.users['player1@demo.test'];
      const theirs = s.demo.users['player2@demo.test'];
      const start = await log.append({ kind: 'notification', userId: mine, notificationId: 1 });
      await log.append({ kind: 'notification', userId: theirs, notificationId: 2 });
      await log.append({ kind: 'notification', userId: mine, notificationId: 3 });
      const replay = await log.after(`notification:${mine}`, start.cursor!);
      expect(replay.missed).toBe(false);
      expect(replay.events.map((e) => (e.kind === 'notification' ? e.notificationId : 0))).toEqual([3]);
    } finally {
      log.close();
    }
  });
});

/** Every write of a kept event fails (a database refusing it), or stops failing. */
const refuseLiveEventWrites = (refusing: boolean) =>
  refuseWrites(s.t.db.prisma, { table: 'LiveEvent', on: 'INSERT', name: 'live_event_test_refusal' }, refusing);
