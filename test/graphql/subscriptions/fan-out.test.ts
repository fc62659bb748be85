// Live ranking events fan out by company, not by subscriber: a result that moves the standings costs the same
// statements with 4 ranking subscribers in two companies as with 30 (one standings read per company and event),
// and each subscriber is sent their own standing, the one the ranking query gives them. Over a real server and real
// graphql-ws sockets, on the suite's store; statements are the server's own count (prode_live_sql_statements_total).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../../helpers/app.ts';
import { activeSubscriptions, liveClient, liveMetric, untilSubscribed, type LiveClient } from '../../helpers/live.ts';

let s: TestServer;
const clients: LiveClient[] = [];
const demoPlayers = Array.from({ length: 20 }, (_, i) => `player${i + 1}@demo.test`);
const globexPlayers = Array.from({ length: 10 }, (_, i) => `player${i + 1}@globex.test`);
const tokens = new Map<string, string>();

beforeAll(async () => {
  // Every event as it comes: this suite counts the statements of each (coalescing has its own test).
  s = await startTestServer({ env: { LIVE_RANKING_INTERVAL_MS: '0' } });
  for (const email of demoPlayers) tokens.set(email, await s.login(email, 'demo'));
  for (const email of globexPlayers) tokens.set(email, await s.login(email));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await s.close();
});

const RANKING = `subscription($t: Int!) { rankingChanged(tournamentId: $t) { missedEvents me { position points } } }`;
const RESULT = `mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }`;
const MINE = `query($t: Int!) { ranking(tournamentId: $t, take: 1) { me { position points } } }`;

function subscribe(email: string) {
  const params: Record<string, string> = { Authorization: `Bearer ${tokens.get(email)}` };
  if (email.endsWith('@demo.test')) params['x-app-path'] = 'demo';
  const client = liveClient(s.url, params);
  clients.push(client);
  return { email, watch: client.subscribe(RANKING, { t: s.demo.tournament }) };
}

/** A new result on the opener (every company plays it): the statements the subscribers' executions sent for it. */
async function resultCosts(subscribers: ReturnType<typeof subscribe>[], home: number) {
  const manager = await s.loginAs('manager');
  const before = await liveMetric(s.url, 'prode_live_sql_statements_total');
  const r = await s.gql(
    RESULT,
    { i: { matchId: s.demo.matches.opener, status: 'FINISHED', homeTeamGoals: home, awayTeamGoals: 1 } },
    bearer(manager),
  );
  expect(r.errors).toBeUndefined();
  const events = await Promise.all(subscribers.map(({ watch }) => watch.next(10_000)));
  for (const event of events) expect(event.errors).toBeUndefined();
  const statements = (await liveMetric(s.url, 'prode_live_sql_statements_total')) - before;
  // Each subscriber was sent their own standing: the one the ranking query returns to them now.
  for (const [i, { email }] of subscribers.entries()) {
    const headers = {
      ...bearer(tokens.get(email)!),
      ...(email.endsWith('@demo.test') ? { 'x-app-path': 'demo' } : {}),
    };
    const mine = await s.gql(MINE, { t: s.demo.tournament }, headers);
    expect(events[i].data.rankingChanged, email).toEqual({ missedEvents: false, me: mine.data.ranking.me });
  }
  return statements;
}

describe('rankingChanged fan-out', () => {
  it('a result costs the same statements with 4 subscribers in two companies as with 30', async () => {
    const base = await activeSubscriptions(s.url);
    const few = [...demoPlayers.slice(0, 2), ...globexPlayers.slice(0, 2)].map(subscribe);
    await untilSubscribed(s.url, base + few.length);
    const forFew = await resultCosts(few, 3);

    const more = [...demoPlayers.slice(2), ...globexPlayers.slice(2)].map(subscribe);
    const all = [...few, ...more];
    await untilSubscribed(s.url, base + all.length);
    const forAll = await resultCosts(all, 0);

    expect(forFew).toBeGreaterThan(0);
    // Per company: its tournaments and its subscribers' standings, whatever their number.
    expect(forAll).toBe(forFew);
    expect(forAll).toBeLessThanOrEqual(2 * 2);
  });
});
