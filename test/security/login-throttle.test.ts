// Login throttling counts attempts in flight: each login is counted when it starts, before its password is
// checked (src/security/login-throttle.ts), so attempts sent at once are held to LOGIN_RATE_LIMIT_MAX exactly
// like attempts sent one after another. Unit tests of the reservation, then real servers over loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { LoginThrottle } from '../../src/security/login-throttle.ts';
import { DEMO_PASSWORD, startTestServer, type GqlResult, type TestServer } from '../helpers/app.ts';

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

describe('LoginThrottle.attempt', () => {
  it('counts an attempt when it starts: the attempts in flight fill the window, the next is refused', () => {
    const t = new LoginThrottle(3, 60_000, () => 0);
    const started = Array.from({ length: 3 }, () => t.attempt('1.2.3.4', 'a@x.test'));
    expect(started.map((a) => a.retryAfterSeconds)).toEqual([null, null, null]);
    expect(t.attempt('1.2.3.4', 'a@x.test').retryAfterSeconds).toBe(60);
    expect(t.check('1.2.3.4', 'a@x.test')).toBe(60);
    expect(t.attempt('1.2.3.4', 'b@x.test').retryAfterSeconds).toBeNull();
  });

  it('a success gives its attempt back and clears the e-mail; an attempt left alone stays a failure', () => {
    const t = new LoginThrottle(2, 60_000, () => 0);
    t.attempt('1.2.3.4', 'a@x.test'); // failed
    t.attempt('1.2.3.4', 'a@x.test').succeeded();
    t.attempt('1.2.3.4', 'a@x.test'); // failed
    expect(t.check('1.2.3.4', 'a@x.test')).toBeNull();
    t.attempt('1.2.3.4', 'a@x.test'); // failed
    expect(t.check('1.2.3.4', 'a@x.test')).toBe(60);
  });

  it('successes never use up the address: a hundred logins of twenty users from one address all pass', () => {
    const t = new LoginThrottle(1, 60_000, () => 0); // ten per address
    for (let i = 0; i < 100; i++) {
      const a = t.attempt('1.2.3.4', `u${i % 20}@x.test`);
      expect(a.retryAfterSeconds, `login ${i}`).toBeNull();
      a.succeeded();
    }
  });

  it('a cancelled attempt (no credential checked) counts for nothing; a refused one counted nothing', () => {
    const t = new LoginThrottle(1, 60_000, () => 0);
    for (let i = 0; i < 5; i++) t.attempt('1.2.3.4', 'a@x.test').cancelled();
    const failed = t.attempt('1.2.3.4', 'a@x.test');
    expect(failed.retryAfterSeconds).toBeNull();
    const refused = t.attempt('1.2.3.4', 'a@x.test');
    expect(refused.retryAfterSeconds).toBe(60);
    refused.cancelled();
    refused.succeeded();
    expect(t.check('1.2.3.4', 'a@x.test')).toBe(60);
  });

  it('ends an attempt in the window it was counted in, not in a later one', () => {
    let now = 0;
    const t = new LoginThrottle(1, 60_000, () => now);
    const old = t.attempt('1.2.3.4', 'a@x.test');
    now = 60_001;
    t.attempt('1.2.3.4', 'a@x.test'); // a new window, one failure
    old.cancelled();
    old.cancelled(); // twice: still once
    expect(t.check('1.2.3.4', 'a@x.test')).toBe(60);
  });
});

describe('parallel logins, at the default LOGIN_RATE_LIMIT_MAX', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { LOGIN_RATE_LIMIT_MAX: '' } }); // empty: the default
  });
  afterAll(() => s.close());

  it(
    'GraphQL: of 40 wrong passwords for one e-mail sent at once, exactly 10 are checked and 30 answer ' + '429',
    async () => {
      expect(s.config.rateLimit.loginMax).toBe(LIMIT);
      const answers = await Promise.all(
        Array.from({ length: 40 }, () =>
          s.gql(LOGIN, { e: 'player1@demo.test', p: 'wrong-password' }, { 'x-app-path': 'demo' }),
        ),
      );
      expect(tally(answers.map(codeOf))).toEqual({ UNAUTHENTICATED: LIMIT, RATE_LIMITED: 40 - LIMIT });
      for (const r of answers) {
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
    'REST: of 40 wrong POST /auth/login for one e-mail sent at once, exactly 10 answer 401 and 30 answer ' + '429',
    async () => {
      const answers = await Promise.all(
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
      expect(tally(answers.map((a) => a.status))).toEqual({ 401: LIMIT, 429: 40 - LIMIT });
      for (const a of answers) {
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
    s = await startTestServer({ seed: false, env: { LOGIN_RATE_LIMIT_MAX: '' } });
  });
  afterAll(() => s.close());

  it('of 120 logins for 120 different e-mails sent at once from one address, exactly 100 are checked', async () => {
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, i) => s.gql(LOGIN, { e: `nobody${i}@nowhere.test`, p: 'wrong-password' })),
    );
    expect(tally(answers.map(codeOf))).toEqual({ UNAUTHENTICATED: LIMIT * 10, RATE_LIMITED: 120 - LIMIT * 10 });
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

  it('answers exactly as for an unknown e-mail or a wrong password, and tells how to name the company', async () => {
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
