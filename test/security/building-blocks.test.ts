// The small pure parts the limits and logs rely on, each on its own.
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/db/errors.ts';
import { Metrics } from '../../src/observability/metrics.ts';
import { redactUrl } from '../../src/observability/redact.ts';
import { MemoryLoginThrottle } from '../../src/security/memory-login-throttle.ts';

describe('MemoryLoginThrottle', () => {
  it('refuses an address and e-mail after max failures until the window ends, and tells how long to wait', async () => {
    let now = 0;
    const t = new MemoryLoginThrottle(3, 60_000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(await t.check('1.2.3.4', 'a@x.test')).toBeNull();
      await t.attempt('1.2.3.4', 'a@x.test');
    }
    expect(await t.check('1.2.3.4', 'a@x.test')).toBe(60);
    expect(await t.check('1.2.3.4', 'b@x.test')).toBeNull();
    expect(await t.check('5.6.7.8', 'a@x.test')).toBeNull();
    now = 30_000;
    expect(await t.check('1.2.3.4', 'a@x.test')).toBe(30);
    now = 60_001;
    expect(await t.check('1.2.3.4', 'a@x.test')).toBeNull();
  });

  it('refuses an address after ten times max failures over any e-mails', async () => {
    const t = new MemoryLoginThrottle(2, 60_000, () => 0);
    for (let i = 0; i < 20; i++) await t.attempt('1.2.3.4', `u${i}@x.test`);
    expect(await t.check('1.2.3.4', 'fresh@x.test')).toBe(60);
  });

  it("a success clears the e-mail's failures", async () => {
    const t = new MemoryLoginThrottle(2, 60_000, () => 0);
    await t.attempt('1.2.3.4', 'a@x.test');
    await (await t.attempt('1.2.3.4', 'a@x.test')).succeeded();
    await t.attempt('1.2.3.4', 'a@x.test');
    expect(await t.check('1.2.3.4', 'a@x.test')).toBeNull();
  });

  it('stays bounded whatever the e-mails and addresses', async () => {
    let now = 0;
    const t = new MemoryLoginThrottle(5, 60_000, () => now);
    for (let i = 0; i < 60_000; i++) await t.attempt(`10.0.${i >> 8}.${i & 255}`, `${'x'.repeat(1000)}${i}@x.test`);
    expect(t.size).toBeLessThanOrEqual(50_000);
    now = 120_000;
    now += 1001;
    await t.attempt('1.1.1.1', 'a@x.test'); // prunes the expired ones
    expect(t.size).toBe(2);
  });
});

describe('redactUrl', () => {
  it.each([
    ['/invitations/jwt/eyJabc.def.ghi', '/invitations/jwt/[redacted]'],
    ['/invitations/jwt/eyJabc?x=1', '/invitations/jwt/[redacted]'],
    ['/invitations/%6Awt/eyJabc', '/invitations/jwt/[redacted]'],
    ['//invitations//jwt/eyJabc', '/invitations/jwt/[redacted]'],
    ['/invitations/12', '/invitations/12'],
    ['/posts/%ZZ', '/posts/%ZZ'],
    ['/reset-password?token=abc-DEF_1', '/reset-password?token=[redacted]'],
    ['/verify-email?x=1&token=abc&y=2', '/verify-email?x=1&token=[redacted]&y=2'],
    ['/accept-invitation?%74oken=eyJabc', '/accept-invitation?%74oken=[redacted]'],
    ['/reset-password?token', '/reset-password?token=[redacted]'],
    ['/posts?take=1', '/posts?take=1'],
  ])('%s -> %s', (url, expected) => expect(redactUrl(url)).toBe(expected));
});

describe('isDatabaseUnavailable', () => {
  it('knows an outage by code, SQLSTATE, driver kind or message, through the cause chain', () => {
    expect(isDatabaseUnavailable({ code: 'P1001' })).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { cause: { code: 'ECONNREFUSED' } }))).toBe(true);
    expect(isDatabaseUnavailable({ originalError: { code: '57P01' } })).toBe(true);
    expect(isDatabaseUnavailable({ cause: { kind: 'DatabaseNotReachable' } })).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });
  it('does not take a bug or a constraint for an outage', () => {
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable({ code: 'P2002' })).toBe(false);
    expect(isDatabaseUnavailable({ code: '23505' })).toBe(false);
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(isDatabaseUnavailable(loop)).toBe(false);
  });
});

describe('Metrics', () => {
  it('caps operation labels and maps odd error codes to OTHER', async () => {
    const m = new Metrics();
    for (let i = 0; i < 300; i++) m.observeOperation(`field${i}`, true);
    m.observeOperation('bad name!', true);
    m.observeRequest({
      method: 'GET',
      route: '/x',
      status: 400,
      seconds: 0.01,
      statements: 1,
      outcome: { errorCodes: ['BAD_USER_INPUT', 'lower-case-junk'] },
    });
    const text = await m.registry.metrics();
    const labels = new Set([...text.matchAll(/prode_graphql_operations_total\{operation="([^"]+)"/g)].map((x) => x[1]));
    expect(labels.size).toBeLessThanOrEqual(201);
    expect(labels.has('other')).toBe(true);
    expect(text).toMatch(/prode_errors_total\{code="BAD_USER_INPUT"\} 1/);
    expect(text).toMatch(/prode_errors_total\{code="OTHER"\} 1/);
  });
});
