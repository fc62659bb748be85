// At most GRAPHQL_MAX_CONCURRENT_EXECUTIONS operations execute at once (src/graphql/execution-slots.ts): the
// slots on their own, then a real server at one slot serving a burst of deep queries one at a time.
import { availableParallelism } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeepTournamentsDocument } from '../../src/graphql/generated/operations.ts';
import { loadConfig } from '../../src/config.ts';
import { ExecutionSlots } from '../../src/graphql/execution-slots.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { suiteProvider } from '../helpers/db.ts';

/** A piece of work that runs until the test lets it finish. */
function gate() {
  let open!: () => void;
  let fail!: (err: Error) => void;
  const done = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { done, open, fail };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('ExecutionSlots', () => {
  it('runs at most `limit` at once, the others in the order they came, each as soon as a slot frees', async () => {
    const slots = new ExecutionSlots(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      slots.run(async () => {
        started.push(i);
        await g.done;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(slots.stats()).toMatchObject({ running: 2, waiting: 2 });
    gates[1].open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0].open();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2].open();
    gates[3].open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(slots.stats()).toMatchObject({ running: 0, waiting: 0, waits: 2 });
  });

  it('frees the slot of work that fails, and tells how long a waiting one waited', async () => {
    const slots = new ExecutionSlots(1);
    const first = gate();
    const failing = slots.run(() => first.done);
    let waited = -1;
    const next = slots.run(async () => 'ran', { waited: (ms) => (waited = ms) });
    await new Promise((r) => setTimeout(r, 20));
    first.fail(new Error('boom'));
    await expect(failing).rejects.toThrow('boom');
    expect(await next).toBe('ran');
    expect(waited).toBeGreaterThanOrEqual(15);
    expect(slots.stats()).toMatchObject({ running: 0, waiting: 0, waits: 1 });
  });

  it('does not start queued work nobody waits for any more, and hands its slot on', async () => {
    const slots = new ExecutionSlots(1);
    const first = gate();
    const running = slots.run(() => first.done.then(() => 'first'));
    let wanted = true;
    let ran = false;
    const abandoned = slots.run(async () => ((ran = true), 'ran'), {
      stillWanted: () => wanted,
      dropped: () => 'dropped',
    });
    const next = slots.run(async () => 'next');
    await tick();
    wanted = false;
    first.open();
    expect(await Promise.all([running, abandoned, next])).toEqual(['first', 'dropped', 'next']);
    expect(ran).toBe(false);
    expect(slots.stats()).toMatchObject({ running: 0, waiting: 0, waits: 2, dropped: 1 });
  });

  it('resolves queued work from elsewhere when that comes first, and passes it by when the slot frees', async () => {
    const slots = new ExecutionSlots(1);
    const first = gate();
    const running = slots.run(() => first.done.then(() => 'first'));
    let found!: (claim: () => string) => void;
    let ran = false;
    const outcome = slots.run(async () => ((ran = true), 'ran'), {
      whileWaiting: () => new Promise((resolve) => (found = resolve)),
    });
    const next = slots.run(async () => 'next');
    await tick();
    expect(slots.stats()).toMatchObject({ running: 1, waiting: 2 });
    found(() => 'from elsewhere');
    expect(await outcome).toBe('from elsewhere');
    expect(ran).toBe(false);
    expect(slots.stats()).toMatchObject({ running: 1, waiting: 1, answeredWaiting: 1 });
    first.open();
    expect(await Promise.all([running, next])).toEqual(['first', 'next']);
    expect(slots.stats()).toMatchObject({ running: 0, waiting: 0, waits: 2, answeredWaiting: 1 });
  });

  it('runs queued work whose result from elsewhere comes only after its turn, without calling the claim', async () => {
    const slots = new ExecutionSlots(1);
    const first = gate();
    const running = slots.run(() => first.done.then(() => 'first'));
    let claimed = false;
    let turned = false;
    const late = slots.run(async () => 'ran', {
      whileWaiting: (turn) =>
        turn.then(() => {
          turned = true;
          return () => ((claimed = true), 'from elsewhere');
        }),
    });
    await tick();
    first.open();
    expect(await Promise.all([running, late])).toEqual(['first', 'ran']);
    expect(turned).toBe(true);
    expect(claimed).toBe(false);
    expect(slots.stats()).toMatchObject({ running: 0, waiting: 0, answeredWaiting: 0 });
  });

  it('limit 0: no limit, nobody waits', async () => {
    const slots = new ExecutionSlots(0);
    const gates = [gate(), gate(), gate()];
    let started = 0;
    const runs = gates.map((g) => slots.run(async () => (started++, g.done)));
    await tick();
    expect(started).toBe(3);
    gates.forEach((g) => g.open());
    await Promise.all(runs);
    expect(slots.stats().waits).toBe(0);
  });

  it('defaults to two slots per core; the setting is validated', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).graphql.maxConcurrentExecutions).toBe(2 * availableParallelism());
    const set = loadConfig({ NODE_ENV: 'test', GRAPHQL_MAX_CONCURRENT_EXECUTIONS: '0' });
    expect(set.graphql.maxConcurrentExecutions).toBe(0);
    expect(() => loadConfig({ NODE_ENV: 'test', GRAPHQL_MAX_CONCURRENT_EXECUTIONS: '-1' })).toThrow(
      /GRAPHQL_MAX_CONCURRENT_EXECUTIONS/,
    );
  });
});

describe('a server with one execution slot', () => {
  let s: TestServer;
  beforeAll(async () => {
    // Every request executes (no response cache), one at a time.
    s = await startTestServer({ env: { RESPONSE_CACHE_MB: '0', GRAPHQL_MAX_CONCURRENT_EXECUTIONS: '1' } });
  });
  afterAll(() => s.close());

  const WAITS = 'prode_graphql_execution_waits_total';
  const metric = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);

  it('serves a burst of deep queries and REST routes whole, one at a time; mutations never wait', async () => {
    const auth = bearer(await s.loginAs('player'));
    const reference = await s.gql(DeepTournamentsDocument, {}, auth);
    expect(reference.errors).toBeUndefined();
    const rest = () =>
      fetch(`${s.url}/tournaments/me`, { headers: { ...auth, 'x-app-path': 'demo' } }).then((r) => r.json());
    const restReference = await rest();
    const waits = async () => metric(await (await fetch(`${s.url}/metrics`)).text(), WAITS);
    const before = await waits();
    // Logins hash their password off the main thread: reads that arrive meanwhile run, as no slot is held for them.
    const logins = await Promise.all(Array.from({ length: 4 }, () => s.loginAs('player2')));
    for (const token of logins) expect(token).toMatch(/^ey/);
    expect(await waits()).toBe(before);
    const [deep, routes] = await Promise.all([
      Promise.all(Array.from({ length: 6 }, () => s.gql(DeepTournamentsDocument, {}, auth))),
      Promise.all(Array.from({ length: 4 }, rest)),
    ]);
    for (const r of deep) expect(r.data).toEqual(reference.data);
    for (const r of routes) expect(r).toEqual(restReference);
    const text = await (await fetch(`${s.url}/metrics`)).text();
    // PostgreSQL's queries wait on the network, so a burst overlaps and queues. SQLite's driver returns without
    // yielding to it: each execution ends before the next request is read, and none has to wait.
    if (suiteProvider === 'postgresql') {
      expect(metric(text, WAITS)).toBeGreaterThan(before);
      expect(metric(text, 'prode_graphql_execution_wait_seconds_total')).toBeGreaterThan(0);
    }
    expect(metric(text, 'prode_graphql_executions_running')).toBe(0);
    expect(metric(text, 'prode_graphql_executions_waiting')).toBe(0);
  });
});

// A query that waited past the request's deadline gets 504 from the deadline, one whose client left is
// sent to nobody: when its turn comes it is not run. PostgreSQL only: a table lock from another connection
// holds the first query (and its slot) in the database.
describe.skipIf(suiteProvider !== 'postgresql')('a queued query nobody waits for', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      env: { RESPONSE_CACHE_MB: '0', GRAPHQL_MAX_CONCURRENT_EXECUTIONS: '1', REQUEST_TIMEOUT_MS: '1000' },
    });
  });
  afterAll(() => s.close());

  const scrape = async (name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(await (await fetch(`${s.url}/metrics`)).text())?.[1]);

  it('gets 504 and is never executed; the slot goes on to the next', async () => {
    const auth = bearer(await s.loginAs('player'));
    const locker = new pg.Client({ connectionString: (s.t.target as { url: string }).url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE "Tournament" IN ACCESS EXCLUSIVE MODE');
      const held = s.gql(DeepTournamentsDocument, {}, auth);
      while ((await scrape('prode_graphql_executions_running')) < 1) await new Promise((r) => setTimeout(r, 20));
      const queued = await s.gql('{ me { id } }', {}, auth);
      expect(queued.status).toBe(504);
      expect(await scrape('prode_graphql_executions_waiting')).toBe(1);
      await locker.query('ROLLBACK');
      expect((await held).status).toBe(504);
      while ((await scrape('prode_graphql_executions_waiting')) > 0) await new Promise((r) => setTimeout(r, 20));
      expect(await scrape('prode_graphql_executions_dropped_total')).toBe(1);
      // The slot is free again: the next query runs at once.
      const after = await s.gql('{ me { id } }', {}, auth);
      expect(after.data.me.id).toBeGreaterThan(0);
      expect(await scrape('prode_graphql_executions_dropped_total')).toBe(1);
    } finally {
      await locker.end();
    }
  });

  it('is not executed either when its client leaves while it waits', async () => {
    const auth = bearer(await s.loginAs('player'));
    const dropped = await scrape('prode_graphql_executions_dropped_total');
    const locker = new pg.Client({ connectionString: (s.t.target as { url: string }).url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE "Tournament" IN ACCESS EXCLUSIVE MODE');
      const held = s.gql(DeepTournamentsDocument, {}, auth);
      while ((await scrape('prode_graphql_executions_running')) < 1) await new Promise((r) => setTimeout(r, 20));
      const leaving = new AbortController();
      const left = fetch(`${s.url}/graphql`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ me { id } }' }),
        signal: leaving.signal,
      }).catch((err: Error) => err.name);
      while ((await scrape('prode_graphql_executions_waiting')) < 1) await new Promise((r) => setTimeout(r, 20));
      leaving.abort();
      expect(await left).toBe('AbortError');
      await new Promise((r) => setTimeout(r, 50));
      await locker.query('ROLLBACK');
      expect((await held).errors).toBeUndefined();
      while ((await scrape('prode_graphql_executions_waiting')) > 0) await new Promise((r) => setTimeout(r, 20));
      expect(await scrape('prode_graphql_executions_dropped_total')).toBe(dropped + 1);
    } finally {
      await locker.end();
    }
  });
});

// A query waiting for a slot whose response an identical request computes and caches meanwhile is served from the
// response cache, without waiting for a slot. PostgreSQL only: table locks from other connections hold the queries
// (and their slots) in the database.
describe.skipIf(suiteProvider !== 'postgresql')('a queued query whose response is cached while it waits', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { GRAPHQL_MAX_CONCURRENT_EXECUTIONS: '2' } });
  });
  afterAll(() => s.close());

  const scrape = async (name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(await (await fetch(`${s.url}/metrics`)).text())?.[1]);
  const until = async (name: string, n: number) => {
    while ((await scrape(name)) !== n) await new Promise((r) => setTimeout(r, 20));
  };
  const POST = 'query P($id: Int!) { post(id: $id) { id text likedByMe user { id } } }';

  it('leaves the queue with that response while both slots are still held', async () => {
    const [player, player2, admin] = await Promise.all([s.loginAs('player'), s.loginAs('player2'), s.loginAs('admin')]);
    const id = s.demo.posts.demo[0];
    const url = (s.t.target as { url: string }).url;
    const [tournaments, posts] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
    await Promise.all([tournaments.connect(), posts.connect()]);
    try {
      for (const [client, table] of [
        [tournaments, 'Tournament'],
        [posts, 'Post'],
      ] as const) {
        await client.query('BEGIN');
        await client.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
      }
      // Both slots held: a deep query on the locked tournaments, and the player's post query on the locked posts.
      const deep = s.gql(DeepTournamentsDocument, {}, bearer(player2));
      await until('prode_graphql_executions_running', 1);
      const first = s.gql(POST, { id }, bearer(player));
      await until('prode_graphql_executions_running', 2);
      // Queued: another deep query, then the same post query as the same player.
      const deepToo = s.gql(DeepTournamentsDocument, {}, bearer(admin));
      await until('prode_graphql_executions_waiting', 1);
      const same = s.gql(POST, { id }, bearer(player));
      await until('prode_graphql_executions_waiting', 2);

      // The posts are let go: the first post query responds and is cached, its slot goes to the queued deep query, and
      // the second post query, still queued behind it, is served the cached response.
      await posts.query('ROLLBACK');
      const [a, b] = await Promise.all([first, same]);
      expect(a.errors).toBeUndefined();
      expect(b.data).toEqual(a.data);
      expect(await scrape('prode_graphql_executions_answered_waiting_total')).toBe(1);
      expect(await scrape('prode_graphql_executions_running')).toBe(2);
      expect(await scrape('prode_graphql_executions_waiting')).toBe(0);

      await tournaments.query('ROLLBACK');
      for (const r of await Promise.all([deep, deepToo])) expect(r.errors).toBeUndefined();
      await until('prode_graphql_executions_running', 0);
      // Served from memory, so it stays: the next identical request is a hit at once.
      expect((await s.gql(POST, { id }, bearer(player))).data).toEqual(a.data);
    } finally {
      await Promise.all([tournaments.end(), posts.end()]);
    }
  });
});
