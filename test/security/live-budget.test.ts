// The attack, scaled down (as are the budgets): one player holds many sockets of many subscriptions (within
// the caps), one document of aliased nested predictions per socket (within the cost limit) and the same document
// on the rest, and one routine result makes the server respond to them all. Live events are budgeted: identical
// subscriptions share one execution, one socket's and one address's responses to an event are bounded, and another
// tenant's query stays under 10x its quiet latency while the server responds to the event. On SQLite the feed is the
// process's own; on PostgreSQL each event goes through NOTIFY (src/live/pg-bus.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { liveClient, liveMetric, untilSubscribed, type LiveClient } from '../helpers/live.ts';

const SOCKETS = 8;
const PER_SOCKET = 10;
const ALIASES = 10;
const ATTACKER = '203.0.113.7';
const PER_SOCKET_BUDGET = 5000;
const PER_ADDRESS_BUDGET = 10_000;

let s: TestServer;
let t: Record<'player' | 'player2' | 'manager' | 'globexPlayer', string>;
const clients: LiveClient[] = [];

beforeAll(async () => {
  s = await startTestServer({
    env: {
      // Clients on loopback tell their address by X-Forwarded-For, as behind one proxy.
      TRUST_PROXY_HOPS: '1',
      // The attack's documents are each within the cost limit (its estimate for them is well past the default).
      GRAPHQL_MAX_COST: '1000000000',
      // Scaled down with the attack: one heavy document resolves about 64,000 objects.
      LIVE_MAX_OBJECTS_PER_SOCKET: String(PER_SOCKET_BUDGET),
      LIVE_MAX_OBJECTS_PER_ADDRESS: String(PER_ADDRESS_BUDGET),
    },
  });
  t = await s.loginAll(['player', 'player2', 'manager', 'globexPlayer']);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await s.close();
});

function connect(token: string, address: string, appPath?: string) {
  const params: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (appPath) params['x-app-path'] = appPath;
  const c = liveClient(s.url, params, { address });
  clients.push(c);
  return c;
}

/** The document: aliased predictions > user > predictions > match > predictions, `prefix` naming them. */
const heavy = (prefix: string) => {
  const nest = `predictions { id user { id predictions { id match { id predictions { id user { id name } } } } } }`;
  const aliases = Array.from({ length: ALIASES }, (_, i) => `${prefix}${i}: ${nest}`).join(' ');
  return `subscription($t: Int!) { matchUpdated(tournamentId: $t) { missedEvents match { id ${aliases} } } }`;
};
/** The document the attacker's other subscriptions share: small, so its response fits the budgets. */
const LIGHT = `subscription($t: Int!) { matchUpdated(tournamentId: $t) { missedEvents
  match { id status homeTeamGoals awayTeamGoals predictions { id user { id } } } } }`;
const MATCH = `subscription($t: Int!) { matchUpdated(tournamentId: $t) { missedEvents
  match { id status homeTeamGoals awayTeamGoals elapsedTime } } }`;
const RESULT = `mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }`;

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const quantile = (xs: number[], q: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** Another tenant's small query (a new document each time, so no cached response serves it), and how long it took. */
let asked = 0;
async function otherTenantQuery(): Promise<number> {
  const started = performance.now();
  const r = await s.gql(`{ me { id name q${asked++}: id } myTournaments { id name } }`, {}, bearer(t.globexPlayer));
  const ms = performance.now() - started;
  expect(r.errors).toBeUndefined();
  return ms;
}

describe('one player’s subscriptions on one event', () => {
  it('share executions, stay within the address’s budget, and leave another tenant’s query fast', async () => {
    const matchId = s.demo.matches.final;
    await s.kickOff(matchId);
    // Quiet latency first: the same query, the server idle.
    for (let i = 0; i < 5; i++) await otherTenantQuery();
    const quiet: number[] = [];
    for (let i = 0; i < 20; i++) quiet.push(await otherTenantQuery());

    // Two ordinary subscribers, each at an address of their own: another company and the attacker's own.
    const globex = connect(t.globexPlayer, '198.51.100.3').subscribe(MATCH, { t: s.demo.tournament });
    const colleague = connect(t.player2, '198.51.100.2', 'demo').subscribe(MATCH, { t: s.demo.tournament });
    // The attack: on every socket a heavy document of its own, and the same light one on the rest.
    // The light ones subscribe first, so their responses to the event go out before the heavy ones spend the budgets.
    const sockets = Array.from({ length: SOCKETS }, () => connect(t.player, ATTACKER, 'demo'));
    const lights = sockets.flatMap((socket) =>
      Array.from({ length: PER_SOCKET - 1 }, () => socket.subscribe(LIGHT, { t: s.demo.tournament })),
    );
    await untilSubscribed(s.url, 2 + lights.length, 20_000);
    const heavies = sockets.map((socket, i) => socket.subscribe(heavy(`own${i}_`), { t: s.demo.tournament }));
    const attack = [...heavies, ...lights];
    await untilSubscribed(s.url, 2 + SOCKETS * PER_SOCKET, 20_000);
    const executionsBefore = await liveMetric(s.url, 'prode_live_executions_total');
    const sharedBefore = await liveMetric(s.url, 'prode_live_executions_shared_total');

    const r = await s.gql(
      RESULT,
      { i: { matchId, status: 'IN_PLAY', homeTeamGoals: 2, awayTeamGoals: 1, elapsedTime: 50 } },
      bearer(t.manager),
    );
    expect(r.errors).toBeUndefined();
    // While the server responds to the event, the other tenant keeps asking.
    let storming = true;
    const delivered = Promise.all(attack.map((w) => w.next(60_000))).finally(() => (storming = false));
    const during: number[] = [];
    while (storming) during.push(await otherTenantQuery());
    const results = await delivered;

    // (a) The process is alive and responds.
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    // (d) Ordinary subscribers get the event as it is.
    for (const watch of [globex, colleague]) {
      const event = await watch.next(10_000);
      expect(event.errors).toBeUndefined();
      expect(event.data.matchUpdated).toEqual({
        missedEvents: false,
        match: { id: matchId, status: 'IN_PLAY', homeTeamGoals: 2, awayTeamGoals: 1, elapsedTime: 50 },
      });
    }
    // (b) One execution per distinct document (the attacker's SOCKETS + 1, the two subscribers'), not one per
    // subscription: the light ones were served from one.
    const executions = (await liveMetric(s.url, 'prode_live_executions_total')) - executionsBefore;
    const shared = (await liveMetric(s.url, 'prode_live_executions_shared_total')) - sharedBefore;
    expect(executions).toBeGreaterThan(0);
    expect(executions).toBeLessThanOrEqual(SOCKETS + 1 + 2);
    const lightResults = results.slice(SOCKETS);
    const lightServed = lightResults.filter((e) => !e.errors);
    expect(shared).toBeGreaterThanOrEqual(lightServed.length - 1);
    expect(lightServed.length).toBeGreaterThan(0);
    for (const e of lightServed) {
      expect(e.data.matchUpdated.match).toMatchObject({ id: matchId, status: 'IN_PLAY', homeTeamGoals: 2 });
      expect(e.data.matchUpdated.match.predictions.length).toBeGreaterThan(0);
    }
    // Past a budget, a clear error for that event; the heavy documents were all stopped by theirs, and all the
    // attacker was sent for the event is bounded by its address's budget (a heavy response alone is about 2 MB).
    for (const e of results.filter((r) => r.errors)) {
      expect(e.errors?.[0].extensions?.code).toBe('RESPONSE_TOO_LARGE');
      expect(e.errors?.[0].message).toMatch(/LIVE_MAX_OBJECTS_PER_(SOCKET|ADDRESS)/);
    }
    for (const e of results.slice(0, SOCKETS)) expect(e.errors?.[0].extensions?.code).toBe('RESPONSE_TOO_LARGE');
    const bytes = results.reduce((n, e) => n + JSON.stringify(e).length, 0);
    expect(bytes).toBeLessThan(PER_ADDRESS_BUDGET * 100);
    expect(await liveMetric(s.url, 'prode_live_objects_in_flight')).toBe(0);
    // (c) Another tenant's query stays under 10x its quiet latency (its quiet 90th percentile, at least 30 ms: the
    // machine is shared, and a few milliseconds are within its noise), judged on the median of the queries sent
    // during the storm, since one or two may meet the machine's own bursts (another process, a collection); and no
    // single one waits 3 s (the unbudgeted storm held one for 6.8 s).
    const limit = 10 * Math.max(quantile(quiet, 0.9), 30);
    const what = `quiet ${sorted(quiet)}, during ${sorted(during)}`;
    expect(quantile(during, 0.5), what).toBeLessThan(limit);
    expect(Math.max(...during), what).toBeLessThan(3_000);
  }, 120_000);
});

describe('the process’s limits on event executions', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({
      env: {
        GRAPHQL_MAX_COST: '1000000000',
        LIVE_MAX_CONCURRENT_EXECUTIONS: '1',
        LIVE_MAX_QUEUED_EXECUTIONS: '0',
        LIVE_MAX_OBJECTS_IN_FLIGHT: '2000',
      },
    });
  });
  afterAll(async () => {
    await small.close();
  });

  it('drops what the queue cannot hold, and stops what the process cannot hold, each with a clear error', async () => {
    const matchId = small.demo.matches.final;
    await small.kickOff(matchId);
    const token = await small.loginAs('player');
    const manager = await small.loginAs('manager');
    const c = liveClient(small.url, { Authorization: `Bearer ${token}`, 'x-app-path': 'demo' });
    clients.push(c);
    // Different documents (no execution to share), more than one slot and an empty queue can take at once.
    const watches = Array.from({ length: 4 }, (_, i) => c.subscribe(heavy(`d${i}_`), { t: small.demo.tournament }));
    await untilSubscribed(small.url, 4);
    const r = await small.gql(
      RESULT,
      { i: { matchId, status: 'IN_PLAY', homeTeamGoals: 1, awayTeamGoals: 1, elapsedTime: 10 } },
      bearer(manager),
    );
    expect(r.errors).toBeUndefined();
    const results = await Promise.all(watches.map((w) => w.next(30_000)));
    const codes = results.map((e) => [e.errors?.[0].extensions?.code, e.errors?.[0].extensions?.limit]);
    // The first ran and crossed the process's budget; those that found the slot taken were dropped.
    expect(codes).toContainEqual(['SERVICE_UNAVAILABLE', 'process']);
    expect(codes).toContainEqual(['SERVICE_UNAVAILABLE', 'queue']);
    for (const e of results) expect(e.errors?.[0].message).toMatch(/LIVE_MAX_(OBJECTS_IN_FLIGHT|QUEUED_EXECUTIONS)/);
    expect(await liveMetric(small.url, 'prode_live_events_dropped_total')).toBeGreaterThan(0);
    expect(await liveMetric(small.url, 'prode_live_objects_in_flight')).toBe(0);
    // The subscriptions stay open: the next event gets its responses again.
    expect(await liveMetric(small.url, 'prode_live_subscriptions')).toBe(4);
  });
});

/** Small documents that differ (no execution to share), each cheap. */
const small = (i: number) =>
  `subscription($t: Int!) { matchUpdated(tournamentId: $t) { missedEvents match { id s${i}: status } } }`;
const NOTIFICATIONS = (i: number) =>
  `subscription { n${i}: notificationReceived { missedEvents notification { id } } }`;

/** A server of its own, its clients disposed with it. */
function ownServer(env: Record<string, string>) {
  const own = { s: undefined as unknown as TestServer, clients: [] as LiveClient[] };
  beforeAll(async () => {
    own.s = await startTestServer({ env: { GRAPHQL_MAX_COST: '1000000000', TRUST_PROXY_HOPS: '1', ...env } });
  });
  afterAll(async () => {
    await Promise.all(own.clients.map((c) => c.dispose()));
    await own.s.close();
  });
  return {
    get s() {
      return own.s;
    },
    connect(token: string, address: string, appPath?: string) {
      const params: Record<string, string> = { Authorization: `Bearer ${token}` };
      if (appPath) params['x-app-path'] = appPath;
      const c = liveClient(own.s.url, params, { address });
      own.clients.push(c);
      return c;
    },
    async disposeClients() {
      await Promise.all(own.clients.splice(0).map((c) => c.dispose()));
    },
    async result(goals: number) {
      const manager = await own.s.loginAs('manager');
      const r = await own.s.gql(
        RESULT,
        { i: { matchId: own.s.demo.matches.final, status: 'IN_PLAY', homeTeamGoals: goals, awayTeamGoals: 0 } },
        bearer(manager),
      );
      expect(r.errors).toBeUndefined();
    },
  };
}

describe('the event queue shared between addresses', () => {
  // One slot and a queue of 10: one address may have 1 waiting, one socket 1. A heavy document stops at 5,000 objects:
  // long enough to hold the slot while a socket closes, short enough for the stock executor under load.
  const own = ownServer({
    LIVE_MAX_CONCURRENT_EXECUTIONS: '1',
    LIVE_MAX_QUEUED_EXECUTIONS: '10',
    LIVE_MAX_OBJECTS_PER_SOCKET: '5000',
  });

  it('one address’s many subscriptions do not have another tenant’s event dropped', async () => {
    const { s } = own;
    await s.kickOff(s.demo.matches.final);
    const player = await s.loginAs('player');
    // More distinct subscriptions than the whole queue holds, all of one address, subscribed first.
    const attack = [0, 1].flatMap((n) => {
      const socket = own.connect(player, ATTACKER, 'demo');
      return Array.from({ length: 6 }, (_, i) => socket.subscribe(small(n * 6 + i), { t: s.demo.tournament }));
    });
    await untilSubscribed(s.url, attack.length);
    const victim = own
      .connect(await s.loginAs('globexPlayer'), '198.51.100.9')
      .subscribe(MATCH, { t: s.demo.tournament });
    await untilSubscribed(s.url, attack.length + 1);
    await own.result(1);
    const answer = await victim.next(10_000);
    // Before, the attacker's subscriptions filled the queue, and this event was dropped.
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    expect(answer.data.matchUpdated.match).toMatchObject({ status: 'IN_PLAY', homeTeamGoals: 1 });
    const results = await Promise.all(attack.map((w) => w.next(10_000)));
    const limits = results.map((e) => e.errors?.[0].extensions?.limit);
    expect(limits).toContain('queue');
    for (const e of results.filter((r) => r.errors)) expect(e.errors?.[0].message).toMatch(/one address may hold 1/);
    await own.disposeClients();
  });

  it('does not execute an event for a subscription that ended while it waited', async () => {
    const { s } = own;
    const player = await s.loginAs('player');
    await own.disposeClients();
    while ((await liveMetric(s.url, 'prode_live_subscriptions')) > 0) await new Promise((r) => setTimeout(r, 20));
    // The heavy one takes the slot; the other waits for it, and its socket closes meanwhile.
    const heavyWatch = own.connect(player, ATTACKER, 'demo').subscribe(heavy('x'), { t: s.demo.tournament });
    await untilSubscribed(s.url, 1);
    const leaving = own.connect(await s.loginAs('player2'), '198.51.100.8', 'demo');
    leaving.subscribe(MATCH, { t: s.demo.tournament });
    await untilSubscribed(s.url, 2);
    const before = await liveMetric(s.url, 'prode_live_executions_total');
    await own.result(2);
    await leaving.dispose();
    await heavyWatch.next(30_000);
    await new Promise((r) => setTimeout(r, 300));
    // Before, the closed socket's execution ran after the heavy one all the same.
    expect((await liveMetric(s.url, 'prode_live_executions_total')) - before).toBe(1);
  }, 60_000);
});

describe('a shared execution’s refusal', () => {
  const own = ownServer({
    LIVE_MAX_CONCURRENT_EXECUTIONS: '1',
    LIVE_MAX_OBJECTS_PER_SOCKET: '5000',
    LIVE_MAX_OBJECTS_PER_ADDRESS: '100000',
  });

  it('is not sent to an identical subscription on a socket with budget left', async () => {
    const { s } = own;
    await s.kickOff(s.demo.matches.final);
    const player = await s.loginAs('player');
    const [a, b] = [own.connect(player, ATTACKER, 'demo'), own.connect(player, ATTACKER, 'demo')];
    // Socket a spends its budget on the heavy one; then the light one there, and the same light one on b.
    const spender = a.subscribe(heavy('h'), { t: s.demo.tournament });
    await untilSubscribed(s.url, 1);
    const onA = a.subscribe(LIGHT, { t: s.demo.tournament });
    await untilSubscribed(s.url, 2);
    const onB = b.subscribe(LIGHT, { t: s.demo.tournament });
    await untilSubscribed(s.url, 3);
    await own.result(3);
    const [h, la, lb] = await Promise.all([spender.next(30_000), onA.next(30_000), onB.next(30_000)]);
    expect(h.errors?.[0].extensions?.limit).toBe('socket');
    expect(la.errors?.[0].extensions?.limit).toBe('socket');
    // Before, b was sent a's refusal.
    expect(lb.errors, JSON.stringify(lb.errors)).toBeUndefined();
    expect(lb.data.matchUpdated.match).toMatchObject({ status: 'IN_PLAY', homeTeamGoals: 3 });
  }, 60_000);
});

describe('a revoked subscriber while the event executions are busy', () => {
  // One slot and no queue: while another client's heavy execution runs, every other event would be dropped. The heavy
  // one stops at 10,000 objects, which holds the slot through the revocation on either executor.
  const own = ownServer({
    LIVE_MAX_CONCURRENT_EXECUTIONS: '1',
    LIVE_MAX_QUEUED_EXECUTIONS: '0',
    LIVE_MAX_OBJECTS_PER_SOCKET: '10000',
  });

  it('gets UNAUTHENTICATED, not a full queue', async () => {
    const { s } = own;
    await s.kickOff(s.demo.matches.final);
    const busy = own
      .connect(await s.loginAs('player2'), '198.51.100.8', 'demo')
      .subscribe(heavy('b'), { t: s.demo.tournament });
    const player = await s.loginAs('player');
    const socket = own.connect(player, ATTACKER, 'demo');
    const revoked = Array.from({ length: 3 }, (_, i) => socket.subscribe(NOTIFICATIONS(i)));
    await untilSubscribed(s.url, 4);
    await own.result(4);
    const out = await s.gql('mutation { logoutEverywhere }', {}, { ...bearer(player), 'x-app-path': 'demo' });
    expect(out.errors).toBeUndefined();
    for (const w of revoked) {
      const last = await w.next(10_000);
      expect(last.errors?.[0].extensions?.code, JSON.stringify(last.errors)).toBe('UNAUTHENTICATED');
      expect(await w.ended).toEqual({});
    }
    await busy.next(30_000);
  }, 60_000);
});
