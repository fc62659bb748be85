// Two gateway processes on one PostgreSQL database, as two replicas behind a load balancer (test/helpers/replicas.ts):
// the limits count across them as on one, the notifications tick's work is done once although both tick, and
// neither serves a cached response or a cached login after the other has written. Requests name their client by
// X-Forwarded-For (TRUST_PROXY_HOPS=1, as behind a proxy), so each test counts against a client of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../prisma/seed/demo-seed.ts';
import { suiteProvider } from '../helpers/db.ts';
import { startReplicas, type Replicas } from '../helpers/replicas.ts';

const LOGIN = 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }';
/** Above the login test's 43 requests from its address, below the general test's 60. */
const RATE_LIMIT_MAX = 50;
const LOGIN_RATE_LIMIT_MAX = 10;
const TICK_SECONDS = 1;

interface Result {
  status: number;
  headers: Headers;
  data: any;
  errors?: Array<{ message: string; extensions: { code: string } }>;
}

interface LogLine {
  msg: string;
  time: number;
  [field: string]: unknown;
}

function tally(values: Array<string | number>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
  return counts;
}

const codeOf = (a: Result) => a.errors?.[0]?.extensions.code ?? 'OK';

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.runIf(suiteProvider === 'postgresql')('two replicas on one PostgreSQL', () => {
  let r: Replicas;
  beforeAll(async () => {
    r = await startReplicas(2, {
      TRUST_PROXY_HOPS: '1',
      RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
      RATE_LIMIT_WINDOW_MS: '60000',
      LOGIN_RATE_LIMIT_MAX: String(LOGIN_RATE_LIMIT_MAX),
      NOTIFICATIONS_INTERVAL_SECONDS: String(TICK_SECONDS),
      SQL_STATS: 'true',
      LOG_LEVEL: 'debug', // quiet ticks too
    });
  }, 120_000);
  afterAll(() => r?.stop());

  /** A GraphQL request to replica `i` (0 or 1) from the client at `address`. */
  async function gql(i: number, address: string, query: string, variables = {}, headers: Record<string, string> = {}) {
    const res = await fetch(`${r.urls[i]}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address, ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, headers: res.headers, ...((await res.json()) as object) } as Result;
  }

  async function login(i: number, address: string, email: string) {
    const a = await gql(i, address, LOGIN, { e: email, p: DEMO_PASSWORD }, { 'x-app-path': 'demo' });
    if (!a.data?.login) throw new Error(`login ${email} failed: ${JSON.stringify(a.errors)}`);
    return { authorization: `Bearer ${a.data.login.token as string}` };
  }

  /** The JSON log lines of each replica. */
  const logs = (): LogLine[][] =>
    r.outputs().map((out) =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as LogLine),
    );

  it('delivers each notification once although both replicas tick, and runs the triggers once a period', async () => {
    const p = r.db.prisma;
    // Reminders for everyone of a match that starts in three hours, on top of the demo's pending notifications.
    const match = r.demo.matches.final;
    await p.prediction.deleteMany({ where: { matchId: match } });
    await p.match.update({
      where: { id: match },
      data: { date: new Date(Date.now() + 3 * 3600e3), status: 'SCHEDULED', alreadySentOpenNotification: false },
    });
    const reminders = { dedupeKey: { startsWith: `pendingMatchesPredictions:match:${match}:` } };
    await until(
      async () =>
        (await p.notification.count({ where: reminders })) > 0 &&
        (await p.notification.count({ where: { status: 'PENDING' } })) === 0,
      'the reminders to be enqueued and every notification delivered',
    );
    // A few more periods in which both replicas tick with nothing left to do.
    await new Promise((resolve) => setTimeout(resolve, 3000 * TICK_SECONDS));

    const rows = await p.notification.findMany({ select: { id: true, status: true, attempts: true } });
    const reminderCount = await p.notification.count({ where: reminders });
    expect(rows.length).toBeGreaterThan(reminderCount);
    expect(rows.filter((n) => n.status !== 'SENT' || n.attempts !== 1)).toEqual([]);

    const [a, b] = logs();
    const sent = [...a, ...b].filter((l) => l.msg === 'notification sent').map((l) => l.notificationId as number);
    expect(sent).toHaveLength(rows.length); // each sent once, by one replica or the other
    expect(new Set(sent)).toEqual(new Set(rows.map((n) => n.id)));

    // Both ticked; the triggers found the match once.
    const ticks = [a, b].map((lines) => lines.filter((l) => l.msg === 'notifications tick'));
    for (const mine of ticks) expect(mine.length).toBeGreaterThanOrEqual(3);
    const all = [...ticks[0], ...ticks[1]];
    const found = all.filter((t) => (t.pendingPredictions as number) > 0);
    expect(found).toHaveLength(1);
    expect(found[0].pendingPredictions).toBe(reminderCount);
    // Each period one of the two ticks takes the lease: about half of all ticks ran the triggers (every one would
    // without it).
    const triggerRuns = all.filter((t) => t.triggers === true);
    expect(triggerRuns.length).toBeGreaterThan(0);
    expect(triggerRuns.length).toBeLessThan(all.length * 0.75);
  });

  it('of 40 wrong logins for one e-mail over both replicas, 10 are checked and 30 refused, as on one', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        gql(i % 2, '10.0.1.1', LOGIN, { e: 'player6@demo.test', p: 'wrong-password' }, { 'x-app-path': 'demo' }),
      ),
    );
    expect(tally(results.map(codeOf))).toEqual({
      UNAUTHENTICATED: LOGIN_RATE_LIMIT_MAX,
      RATE_LIMITED: 40 - LOGIN_RATE_LIMIT_MAX,
    });
    for (const a of results) if (codeOf(a) === 'RATE_LIMITED') expect(a.status).toBe(429);
    // Refused on both, the right password included; another e-mail is not.
    for (const i of [0, 1]) {
      const right = await gql(
        i,
        '10.0.1.1',
        LOGIN,
        { e: 'player6@demo.test', p: DEMO_PASSWORD },
        { 'x-app-path': 'demo' },
      );
      expect(codeOf(right)).toBe('RATE_LIMITED');
    }
    expect(
      codeOf(await gql(1, '10.0.1.1', LOGIN, { e: 'player7@demo.test', p: DEMO_PASSWORD }, { 'x-app-path': 'demo' })),
    ).toBe('OK');
  });

  it('of 30 wrong current passwords over both replicas and 30 addresses, 10 are checked, as on one', async () => {
    const player = await login(0, '10.0.9.1', 'player9@demo.test');
    const CHANGE = 'mutation($c: String!) { changePassword(currentPassword: $c, newPassword: "Another-pass-2026!") }';
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => gql(i % 2, `10.0.9.${i + 10}`, CHANGE, { c: `wrong-${i}` }, player)),
    );
    expect(tally(results.map(codeOf))).toEqual({
      BAD_USER_INPUT: LOGIN_RATE_LIMIT_MAX,
      RATE_LIMITED: 30 - LOGIN_RATE_LIMIT_MAX,
    });
    // The account's count holds on both replicas, from a new address, for the right password too.
    for (const i of [0, 1])
      expect(codeOf(await gql(i, `10.0.9.${i + 100}`, CHANGE, { c: DEMO_PASSWORD }, player))).toBe('RATE_LIMITED');
  });

  it(`of 60 requests from one address alternating replicas, ${RATE_LIMIT_MAX} pass, as on one`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await gql(i % 2, '10.0.2.1', '{ __typename }')).status);
    expect(tally(statuses)).toEqual({ 200: RATE_LIMIT_MAX, 429: 60 - RATE_LIMIT_MAX });
    expect(statuses.slice(0, RATE_LIMIT_MAX).every((s) => s === 200)).toBe(true);
    // Another address is not limited, on either replica.
    expect((await gql(0, '10.0.2.2', '{ __typename }')).status).toBe(200);
    expect((await gql(1, '10.0.2.2', '{ __typename }')).status).toBe(200);
  });

  it("a write through one replica is seen at once in the other's cached responses", async () => {
    const from = '10.0.3.1';
    const player = await login(0, from, 'player3@demo.test');
    const post = r.demo.posts.demo[1];
    const read = `{ post(id: ${post}) { id likesCount likedByMe } }`;
    const before = await gql(0, from, read, {}, player);
    const again = await gql(0, from, read, {}, player);
    // From A's cache: one statement (the data version; the rate limit's own statement is not the request's).
    expect(again.headers.get('x-sql-statements')).toBe('1');
    expect(again.data).toEqual(before.data);

    const { likedByMe, likesCount } = before.data.post as { likedByMe: boolean; likesCount: number };
    const toggle = `mutation { ${likedByMe ? 'unlikePost' : 'likePost'}(postId: ${post}) { id } }`;
    expect((await gql(1, from, toggle, {}, player)).errors).toBeUndefined();
    const after = await gql(0, from, read, {}, player);
    expect(after.data.post).toEqual({ id: post, likesCount: likesCount + (likedByMe ? -1 : 1), likedByMe: !likedByMe });
  });

  it('a role changed or an account deactivated through one replica holds at once on the other', async () => {
    const from = '10.0.4.1';
    const player = await login(0, from, 'player8@demo.test');
    const admin = await login(1, from, 'admin@demo.test');
    const me = '{ me { email role } }';
    await gql(0, from, me, {}, player);
    const cached = await gql(0, from, me, {}, player);
    expect(cached.headers.get('x-sql-statements')).toBe('1');
    expect(cached.data.me).toEqual({ email: 'player8@demo.test', role: 'player' });
    const userId = r.demo.users['player8@demo.test'];

    const promoted = await gql(
      1,
      from,
      `mutation { updateUser(userId: ${userId}, input: { role: admin }) { role } }`,
      {},
      admin,
    );
    expect(promoted.errors).toBeUndefined();
    // A new role ends the sessions of the old one (docs/security.md, Credentials): signed in again, it is admin.
    const revoked = await gql(0, from, me, {}, player);
    expect(revoked.data).toBeNull();
    expect(codeOf(revoked)).toBe('UNAUTHENTICATED');
    const promotedPlayer = await login(0, from, 'player8@demo.test');
    expect((await gql(0, from, me, {}, promotedPlayer)).data.me.role).toBe('admin');

    const deactivated = await gql(1, from, `mutation { deactivateUser(userId: ${userId}) { id } }`, {}, admin);
    expect(deactivated.errors).toBeUndefined();
    const refused = await gql(0, from, me, {}, promotedPlayer);
    expect(refused.data).toBeNull();
    expect(codeOf(refused)).toBe('UNAUTHENTICATED');
  });
});
