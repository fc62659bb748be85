// What a subscription holds while it waits for its next event: not a scope of its own (loaders, object budget,
// clock), so a waiting socket costs its connection and its own facts only. Counted with v8.queryObjects, which
// collects garbage first and counts what is still reachable.
import { fork, type ChildProcess } from 'node:child_process';
import { IncomingMessage } from 'node:http';
import { getHeapSpaceStatistics, queryObjects } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestScope } from '../../../src/app/scope.ts';
import { Loaders } from '../../../src/loaders/registry.ts';
import { bearer, startTestServer, type TestServer } from '../../helpers/app.ts';
import { activeSubscriptions, liveClient, untilSubscribed, type LiveClient } from '../../helpers/live.ts';

const SUBSCRIBERS = 30;
const MATCH = `subscription($t: Int!) { matchUpdated(tournamentId: $t) { missedEvents match { id homeTeamGoals } } }`;
const RESULT = `mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }`;

let s: TestServer;
const clients: LiveClient[] = [];
beforeAll(async () => {
  // Every socket comes from loopback here: one address may hold all of them.
  s = await startTestServer({ env: { WS_MAX_SOCKETS_PER_ADDRESS: '1000' } });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await s.close();
});

const live = (ctor: abstract new (...args: never[]) => unknown) => queryObjects(ctor, { format: 'count' }) as number;

describe('a subscription waiting for its next event', () => {
  it('holds no scope or loaders of its own, before and after an event', async () => {
    const { player, manager } = await s.loginAll(['player', 'manager']);
    const scopesBefore = live(RequestScope);
    const loadersBefore = live(Loaders);
    const watches = Array.from({ length: SUBSCRIBERS }, () => {
      const c = liveClient(s.url, { Authorization: `Bearer ${player}`, 'x-app-path': 'demo' });
      clients.push(c);
      return c.subscribe(MATCH, { t: s.demo.tournament });
    });
    await untilSubscribed(s.url, SUBSCRIBERS);
    const matchId = s.demo.matches.final;
    await s.kickOff(matchId);
    const r = await s.gql(
      RESULT,
      { i: { matchId, status: 'IN_PLAY', homeTeamGoals: 2, awayTeamGoals: 0, elapsedTime: 10 } },
      bearer(manager),
    );
    expect(r.errors).toBeUndefined();
    for (const watch of watches) expect((await watch.next()).data.matchUpdated.match.homeTeamGoals).toBe(2);
    // Each subscription is back waiting once its response is sent; a few may still be finishing.
    await new Promise((resolve) => setTimeout(resolve, 200));
    // One scope per subscription would be SUBSCRIBERS more; a handful (the server's one parked scope, requests in
    // flight) is not.
    expect(live(RequestScope) - scopesBefore).toBeLessThan(SUBSCRIBERS / 3);
    expect(live(Loaders) - loadersBefore).toBeLessThan(SUBSCRIBERS / 3);
  });
});

/**
 * The heap's objects still reachable (queryObjects collects garbage first), code aside: it grows as functions are
 * compiled, whoever runs them.
 */
function heapHeld(): number {
  queryObjects(Object, { format: 'count' });
  return getHeapSpaceStatistics()
    .filter((space) => space.space_name !== 'code_space')
    .reduce((sum, space) => sum + space.space_used_size, 0);
}

/** Subscribers in a process of their own (test/helpers/live-clients.ts): their objects are not in this heap. */
async function subscribersProcess(sockets: number, tokens: string[], tournament: number) {
  const child: ChildProcess = fork(new URL('../../helpers/live-clients.ts', import.meta.url), {
    execArgv: ['--import', 'tsx'],
  });
  const answer = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  const subscribed = answer<string>();
  const query = `subscription($t: Int!) { matchUpdated(tournamentId: $t) { missedEvents
    match { id status homeTeamGoals awayTeamGoals elapsedTime } } }`;
  child.send({ sockets, url: s.url, tokens, appPath: 'demo', query, variables: { t: tournament } });
  await subscribed;
  return {
    received: async () => {
      const counted = answer<{ received: number }>();
      child.send('count');
      return (await counted).received;
    },
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await exited;
    },
  };
}

// Measured with the subscribers in another process: 20.2 KiB per socket with a closure per callback, its own caller
// rows and the upgrade request kept; 12.4 KiB with the classes, shared rows and transport of
// docs/decisions/0033-light-sockets.md.
describe('what a subscribed socket holds of the server', () => {
  it('at most 14 KiB of heap once its events are sent, with players of one company subscribed alike', async () => {
    const tokens: string[] = [];
    for (let i = 1; i <= 10; i++) tokens.push(await s.login(`player${i}@demo.test`, 'demo'));
    const manager = await s.loginAs('manager');
    const matchId = s.demo.matches.final;
    await s.kickOff(matchId);
    let elapsed = 20;
    // Every socket has each of three results: its subscription has executed, or been sent a copy, and waits again.
    const results = async (expected: number, received: () => Promise<number>) => {
      for (let k = 0; k < 3; k++) {
        const i = { matchId, status: 'IN_PLAY', homeTeamGoals: elapsed % 5, awayTeamGoals: 0, elapsedTime: elapsed++ };
        expect((await s.gql(RESULT, { i }, bearer(manager))).errors).toBeUndefined();
      }
      const deadline = Date.now() + 20_000;
      while ((await received()) < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await received()).toBe(expected);
      await new Promise((resolve) => setTimeout(resolve, 200));
    };
    // A first group warms up what every subscription uses once (compiled code, caches), then the second is measured.
    const [first, second] = [50, 200];
    const already = await activeSubscriptions(s.url);
    const warm = await subscribersProcess(first, tokens, s.demo.tournament);
    await untilSubscribed(s.url, already + first, 20_000);
    await results(3 * first, warm.received);
    const before = heapHeld();
    const requestsBefore = live(IncomingMessage);
    const measured = await subscribersProcess(second, tokens, s.demo.tournament);
    await untilSubscribed(s.url, already + first + second, 20_000);
    await results(3 * second, measured.received);
    const perSocket = (heapHeld() - before) / second;
    // The upgrade request (its headers and stream state) is let go once the socket is open.
    expect(live(IncomingMessage) - requestsBefore).toBeLessThan(second / 10);
    await Promise.all([warm.stop(), measured.stop()]);
    const kib = `${(perSocket / 1024).toFixed(1)} KiB of heap per waiting socket`;
    expect(perSocket, kib).toBeLessThan(14 * 1024);
  });
});
