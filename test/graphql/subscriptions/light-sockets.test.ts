// What a subscription holds while it waits for its next event: not a scope of its own (loaders, object budget,
// clock), so a waiting socket costs its connection and its own facts only. Counted with v8.queryObjects, which
// collects garbage first and counts what is still reachable.
import { queryObjects } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestScope } from '../../../src/app/scope.ts';
import { Loaders } from '../../../src/loaders/registry.ts';
import { bearer, startTestServer, type TestServer } from '../../helpers/app.ts';
import { liveClient, untilSubscribed, type LiveClient } from '../../helpers/live.ts';

const SUBSCRIBERS = 30;
const MATCH = `subscription($t: Int!) { matchUpdated(tournamentId: $t) { missedEvents match { id homeTeamGoals } } }`;
const RESULT = `mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }`;

let s: TestServer;
const clients: LiveClient[] = [];
beforeAll(async () => {
  s = await startTestServer();
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
