// Login throttling counts attempts in flight: each login is counted when it starts, before its password is
// checked (src/security/login-throttle.ts), so attempts sent at once are held to LOGIN_RATE_LIMIT_MAX exactly
// like attempts sent one after another. Unit tests of the reservation (in memory, and shared through PostgreSQL when
// the suite runs on it), then real servers over loopback, whose throttle is the database's.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { RateCounters } from '../../src/db/rate-counters.ts';
import type { LoginThrottle } from '../../src/security/login-throttle.ts';
import { MemoryLoginThrottle } from '../../src/security/memory-login-throttle.ts';
import { SharedLoginThrottle } from '../../src/security/shared-login-throttle.ts';
import { DEMO_PASSWORD, startTestServer, type GqlResult, type TestServer } from '../helpers/app.ts';
import { freshDatabase, suiteProvider, type TestDatabase } from '../helpers/db.ts';

const json = { 'content-type': 'application/json' };
const LOGIN = 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }';
/** LOGIN_RATE_LIMIT_MAX's default; an address gets ten times that. */
const LIMIT = 10;

const codeOf = (r: GqlResult<unknown>) => r.errors?.[0]?.extensions.code ?? 'OK';
function tally(values: Array<string | number>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
  return counts;
}

// The in-memory throttle always; the one shared through PostgreSQL when the suite runs on it. Each test gets a
// throttle of its own (a name of its own in the shared table).
const throttles: Array<[string, (max: number, windowMs: number, clock: () => number) => LoginThrottle]> = [
  ['in memory', (max, windowMs, clock) => new MemoryLoginThrottle(max, windowMs, clock)],
];
let shared: TestDatabase | undefined;
if (suiteProvider === 'postgresql') {
  throttles.push([
    'shared through PostgreSQL',
    (max, windowMs, clock) =>
      new SharedLoginThrottle(new RateCounters(shared!.db.prisma), `t${randomUUID()}`, max, windowMs, clock),
  ]);
  beforeAll(async () => {
    shared = await freshDatabase();
  });
  afterAll(() => shared?.drop());
}

describe.each(throttles)('LoginThrottle.attempt, %s', (_name, make) => {
  it('counts an attempt when it starts: the attempts in flight fill the window, the next is refused', async () => {
    const t = make(3, 60_000, () => 0);
    const started = await Promise.all(Array.from({ length: 3 }, () => t.attempt('1.2.3.4', 'a@x.test')));
    expect(started.map((a) => a.retryAfterSeconds)).toEqual([null, null, null]);
    expect((await t.attempt('1.2.3.4', 'a@x.test')).retryAfterSeconds).toBe(60);
    expect(await t.check('1.2.3.4', 'a@x.test')).toBe(60);
    expect((await t.attempt('1.2.3.4', 'b@x.test')).retryAfterSeconds).toBeNull();
  });

  it('of 40 attempts at once for one e-mail, the limit pass; of 120 for many e-mails, ten times it', async () => {
    const t = make(10, 60_000, () => 0);
    const one = await Promise.all(Array.from({ length: 40 }, () => t.attempt('1.2.3.4', 'a@x.test')));
    expect(tally(one.map((a) => (a.retryAfterSeconds === null ? 'passed' : 'refused')))).toEqual({
      passed: 10,
      refused: 30,
    });
    const many = await Promise.all(Array.from({ length: 120 }, (_, i) => t.attempt('5.6.7.8', `u${i}@x.test`)));
    expect(tally(many.map((a) => (a.retryAfterSeconds === null ? 'passed' : 'refused')))).toEqual({
      passed: 100,
      refused: 20,
    });
  });

  it('a success gives its attempt back and clears the e-mail; an attempt left alone stays a failure', async () => {
    const t = make(2, 60_000, () => 0);
    await t.attempt('1.2.3.4', 'a@x.test'); // failed
    await (await t.attempt('1.2.3.4', 'a@x.test')).succeeded();
    await t.attempt('1.2.3.4', 'a@x.test'); // failed
    expect(await t.check('1.2.3.4', 'a@x.test')).toBeNull();
    await t.attempt('1.2.3.4', 'a@x.test'); // failed
    expect(await t.check('1.2.3.4', 'a@x.test')).toBe(60);
  });

  it('successes never use up the address: a hundred logins of twenty users from one address all pass', async () => {
    const t = make(1, 60_000, () => 0); // ten per address
    for (let i = 0; i < 100; i++) {
      const a = await t.attempt('1.2.3.4', `u${i % 20}@x.test`);
      expect(a.retryAfterSeconds, `login ${i}`).toBeNull();
      await a.succeeded();
    }
  });

  it('a cancelled attempt (no credential checked) counts for nothing; a refused one counted nothing', async () => {
    const t = make(1, 60_000, () => 0);
    for (let i = 0; i < 5; i++) await (await t.attempt('1.2.3.4', 'a@x.test')).cancelled();
    const failed = await t.attempt('1.2.3.4', 'a@x.test');
    expect(failed.retryAfterSeconds).toBeNull();
    const refused = await t.attempt('1.2.3.4', 'a@x.test');
    expect(refused.retryAfterSeconds).toBe(60);
    await refused.cancelled();
    await refused.succeeded();
    expect(await t.check('1.2.3.4', 'a@x.test')).toBe(60);
  });

  it('ends an attempt in the window it was counted in, not in a later one', async () => {
    let now = 0;
    const t = make(1, 60_000, () => now);
    const old = await t.attempt('1.2.3.4', 'a@x.test');
    now = 60_001;
    await t.attempt('1.2.3.4', 'a@x.test'); // a new window, one failure
    await old.cancelled();
    await old.cancelled(); // twice: still once
    expect(await t.check('1.2.3.4', 'a@x.test')).toBe(60);
  });

  it('tells how long is left of the window, and forgets the failures when it ends', async () => {
    let now = 0;
    const t = make(1, 60_000, () => now);
    await t.attempt('1.2.3.4', 'a@x.test');
    now = 30_000;
    expect(await t.check('1.2.3.4', 'a@x.test')).toBe(30);
    expect((await t.attempt('1.2.3.4', 'a@x.test')).retryAfterSeconds).toBe(30);
    now = 60_001;
    expect(await t.check('1.2.3.4', 'a@x.test')).toBeNull();
    expect((await t.attempt('1.2.3.4', 'a@x.test')).retryAfterSeconds).toBeNull();
  });
});

describe('parallel logins, at the default LOGIN_RATE_LIMIT_MAX', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { LOGIN_RATE_LIMIT_MAX: '' } }); // empty: the default
  });
  afterAll(() => s.close());

  it(
    'GraphQL: of 40 wrong passwords for one e-mail sent at once, exactly 10 are checked and 30 return ' + '429',
    async () => {
      expect(s.config.rateLimit.loginMax).toBe(LIMIT);
      const results = await Promise.all(
        Array.from({ length: 40 }, () =>
          s.gql(LOGIN, { e: 'player1@demo.test', p: 'wrong-password' }, { 'x-app-path': 'demo' }),
        ),
      );
      expect(tally(results.map(codeOf))).toEqual({ UNAUTHENTICATED: LIMIT, RATE_LIMITED: 40 - LIMIT });
      for (const r of results) {
        if (codeOf(r) === 'UNAUTHENTICATED') {
          expect(r.errors![0].message).toBe('e-mail or password is wrong');
        } else {
          expect(r.status).toBe(429);
          expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(r.data).toBeNull();
        }
      }
      // The limit now holds for the right password too, and for this e-mail only.
      expect(codeOf(await s.gql(LOGIN, { e: 'player1@demo.test', p: DEMO_PASSWORD }, { 'x-app-path': 'demo' }))).toBe(
        'RATE_LIMITED',
      );
      expect(codeOf(await s.gql(LOGIN, { e: 'player2@demo.test', p: DEMO_PASSWORD }, { 'x-app-path': 'demo' }))).toBe(
        'OK',
      );
    },
  );

  it(
    'REST: of 40 wrong POST /auth/login for one e-mail sent at once, exactly 10 return 401 and 30 return ' + '429',
    async () => {
      const results = await Promise.all(
        Array.from({ length: 40 }, async () => {
          const r = await fetch(`${s.url}/auth/login`, {
            method: 'POST',
            headers: { ...json, 'x-app-path': 'demo' },
            body: JSON.stringify({ email: 'player3@demo.test', password: 'wrong-password' }),
          });
          return {
            status: r.status,
            retryAfter: r.headers.get('retry-after'),
            body: (await r.json()) as { code: string },
          };
        }),
      );
      expect(tally(results.map((a) => a.status))).toEqual({ 401: LIMIT, 429: 40 - LIMIT });
      for (const a of results) {
        expect(a.body.code).toBe(a.status === 401 ? 'UNAUTHENTICATED' : 'RATE_LIMITED');
        if (a.status === 429) expect(Number(a.retryAfter)).toBeGreaterThan(0);
      }
    },
  );

  it('a success in between clears the count and does not count itself', async () => {
    const email = 'player4@demo.test';
    const wrong = () => s.gql(LOGIN, { e: email, p: 'wrong-password' }, { 'x-app-path': 'demo' });
    expect(tally((await Promise.all(Array.from({ length: LIMIT - 1 }, wrong))).map(codeOf))).toEqual({
      UNAUTHENTICATED: LIMIT - 1,
    });
    expect(codeOf(await s.gql(LOGIN, { e: email, p: DEMO_PASSWORD }, { 'x-app-path': 'demo' }))).toBe('OK');
    expect(tally((await Promise.all(Array.from({ length: LIMIT + 5 }, wrong))).map(codeOf))).toEqual({
      UNAUTHENTICATED: LIMIT,
      RATE_LIMITED: 5,
    });
  });
});

describe('parallel logins per address (ten times LOGIN_RATE_LIMIT_MAX)', () => {
  let s: TestServer;
  beforeAll(async () => {
    // The throttle alone: the queue of password work would refuse most of 100 waiting from one address
    // (PASSWORD_HASH_QUEUE_PER_ADDRESS, test/security/password-work-fairness.test.ts).
    const queue = { PASSWORD_HASH_QUEUE_PER_ADDRESS: '1000', PASSWORD_HASH_QUEUE_PER_COMPANY: '1000' };
    s = await startTestServer({ seed: false, env: { LOGIN_RATE_LIMIT_MAX: '', ...queue } });
  });
  afterAll(() => s.close());

  it('of 120 logins for 120 different e-mails sent at once from one address, exactly 100 are checked', async () => {
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) => s.gql(LOGIN, { e: `nobody${i}@nowhere.test`, p: 'wrong-password' })),
    );
    expect(tally(results.map(codeOf))).toEqual({ UNAUTHENTICATED: LIMIT * 10, RATE_LIMITED: 120 - LIMIT * 10 });
  });
});

describe('an e-mail kept by several companies, without a tenant header', () => {
  let s: TestServer;
  let hash: string;
  beforeAll(async () => {
    s = await startTestServer({ env: { LOGIN_RATE_LIMIT_MAX: '3' } });
    const p = s.t.db.prisma;
    hash = (await p.user.findFirstOrThrow({ where: { email: 'player1@demo.test' } })).passwordHash!;
    for (const email of ['twin@multi.test', 'twin2@multi.test']) {
      for (const companyId of [s.demo.companies.DEMO, s.demo.companies.GLOBEX]) {
        await p.user.create({
          data: {
            ...DEFAULT_USER_JSON,
            companyId,
            email,
            name: 'Twin',
            role: 'player',
            passwordHash: hash,
            externalId: `${email}:${companyId}`,
            loginProviderId: email,
          },
        });
      }
    }
  });
  afterAll(() => s.close());

  it('responds exactly as to an unknown e-mail or a wrong password, and tells how to name the company', async () => {
    const twin = await s.gql(LOGIN, { e: 'twin@multi.test', p: DEMO_PASSWORD });
    const unknown = await s.gql(LOGIN, { e: 'nobody@multi.test', p: DEMO_PASSWORD });
    const wrong = await s.gql(LOGIN, { e: 'player1@globex.test', p: 'wrong-password' });
    for (const r of [twin, unknown, wrong]) {
      expect(r.status).toBe(twin.status);
      expect(r.data).toBeNull();
      expect(r.errors).toEqual(twin.errors);
    }
    expect(twin.errors![0]).toMatchObject({
      extensions: { code: 'UNAUTHENTICATED' },
      message: expect.stringMatching(/^e-mail or password is wrong .*x-app-path or x-app-host/),
    });
    expect(twin.errors![0].message).not.toMatch(/exists/);
    // REST alike.
    const rest = (email: string) =>
      fetch(`${s.url}/auth/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email, password: DEMO_PASSWORD }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    expect(await rest('twin@multi.test')).toEqual(await rest('nobody2@multi.test'));
    // Naming the company logs the twin in.
    expect(codeOf(await s.gql(LOGIN, { e: 'twin@multi.test', p: DEMO_PASSWORD }, { 'x-app-path': 'demo' }))).toBe('OK');
  });

  it('counts as a failed attempt', async () => {
    for (let i = 0; i < 3; i++)
      expect(codeOf(await s.gql(LOGIN, { e: 'twin2@multi.test', p: DEMO_PASSWORD }))).toBe('UNAUTHENTICATED');
    const over = await s.gql(LOGIN, { e: 'twin2@multi.test', p: DEMO_PASSWORD }, { 'x-app-path': 'demo' });
    expect(over.status).toBe(429);
    expect(codeOf(over)).toBe('RATE_LIMITED');
  });
});
