import { describe, expect, it } from 'vitest';
import { hashPassword, passwordPolicyViolation, verifyPassword } from '../../src/auth/passwords.ts';

describe('password hashing', () => {
  it('verifies the right password only, with a salt per hash', async () => {
    const a = await hashPassword('Prode-demo-2026!');
    const b = await hashPassword('Prode-demo-2026!');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('Prode-demo-2026!', a)).toBe(true);
    expect(await verifyPassword('prode-demo-2026!', a)).toBe(false);
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
  });
});

describe('password policies', () => {
  it.each([
    ['base', 'short', /at least 8/],
    ['base', 'longenough', null],
    ['strong', 'longenough1', /mix/],
    ['strong', 'Long-enough1', null],
    ['strong', 'Sh0rt!', /at least 10/],
    ['nist', 'password1', /too common/],
    ['nist', 'aaaaaaaaaa', /repeat/],
    ['nist', 'correct horse battery', null],
    ['nist', 'x'.repeat(129), /at most 128/],
  ] as const)('%s accepts or refuses %j', (policy, password, expected) => {
    const violation = passwordPolicyViolation(password, policy);
    if (expected === null) expect(violation).toBeNull();
    else expect(violation).toMatch(expected);
  });

  it('the demo password satisfies every policy', () => {
    for (const policy of ['base', 'strong', 'nist'] as const)
      expect(passwordPolicyViolation('Prode-demo-2026!', policy)).toBeNull();
  });
});
