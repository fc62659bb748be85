// scrypt at N = 2^17 (PASSWORD_HASH_COST, default 17): the cost a process hashes at, which stored hashes need
// re-hashing, and how many derivations run at once. (password-rehash.test.ts: the re-hash on login.)
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_PASSWORD_HASH_COST,
  derivationLoad,
  hashPassword,
  needsRehash,
  passwordHashCost,
  setPasswordHashCost,
  verifyNoPassword,
  verifyPassword,
} from '../../src/auth/passwords.ts';
import { loadConfig } from '../../src/config.ts';
import { DEMO_PASSWORD } from '../helpers/app.ts';

const SUITE_COST = passwordHashCost();

describe('password hash cost', () => {
  afterEach(() => setPasswordHashCost(SUITE_COST));

  it('defaults to N = 2^17, which needs (and gets) more than 128 MiB of scrypt memory', async () => {
    expect(DEFAULT_PASSWORD_HASH_COST).toBe(17);
    expect(loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40) }, () => {}).passwordHashCost).toBe(17);
    const hash = await hashPassword('Prode-demo-2026!', 17);
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword('Prode-demo-2026!', hash)).toBe(true);
    expect(await verifyPassword('prode-demo-2026!', hash)).toBe(false);
  });

  it('PASSWORD_HASH_COST is an integer from 14 to 20', () => {
    const cost = (v: string) =>
      loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), PASSWORD_HASH_COST: v }, () => {}).passwordHashCost;
    expect(cost('14')).toBe(14);
    expect(cost('20')).toBe(20);
    for (const bad of ['13', '21', 'high', '16.5'])
      expect(() => cost(bad)).toThrow(/PASSWORD_HASH_COST must be an integer from 14 to 20/);
    expect(() => setPasswordHashCost(21)).toThrow(RangeError);
  });

  it("hashes at the process's cost; a hash below it needs re-hashing, one at or above it does not", async () => {
    setPasswordHashCost(15);
    const current = await hashPassword('x-password');
    expect(current).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(needsRehash(current)).toBe(false);
    expect(needsRehash(await hashPassword('x-password', 14))).toBe(true);
    expect(needsRehash(await hashPassword('x-password', 16))).toBe(false);
    expect(needsRehash(null)).toBe(false);
    expect(needsRehash('md5$abc')).toBe(false);
  });

  it('refuses stored hashes with absurd parameters instead of deriving with them', async () => {
    const [, , r, p, salt, key] = (await hashPassword('x-password', 14)).split('$');
    for (const N of [String(2 ** 21), '3', '0', 'x'])
      expect(await verifyPassword('x-password', ['scrypt', N, r, p, salt, key].join('$'))).toBe(false);
    expect(await verifyPassword('x-password', ['scrypt', 16384, 8, 1000, salt, key].join('$'))).toBe(false);
  });

  it('an account-less login costs one derivation at the current cost, as a wrong password does', async () => {
    setPasswordHashCost(17);
    await verifyNoPassword('warm-up'); // makes the dummy hash once
    const time = async (f: () => Promise<unknown>) => {
      const start = process.hrtime.bigint();
      await f();
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const stored = await hashPassword(DEMO_PASSWORD, 17);
    const wrong: number[] = [];
    const none: number[] = [];
    for (let i = 0; i < 3; i++) {
      wrong.push(await time(() => verifyPassword('wrong-password', stored)));
      none.push(await time(() => verifyNoPassword('wrong-password')));
    }
    expect(await verifyNoPassword(DEMO_PASSWORD)).toBe(false);
    // An N = 2^14 dummy would take an eighth of the time.
    expect(Math.min(...none)).toBeGreaterThan(Math.min(...wrong) * 0.5);
  });
});

describe('derivations at once', () => {
  it('at most two run; the rest queue and all complete', async () => {
    let peak = 0;
    let queued = 0;
    const all = Promise.all(Array.from({ length: 6 }, (_, i) => hashPassword(`password-${i}`, 14)));
    const probe = setInterval(() => {
      const load = derivationLoad();
      peak = Math.max(peak, load.running);
      queued = Math.max(queued, load.waiting);
    }, 1);
    const hashes = await all;
    clearInterval(probe);
    expect(peak).toBeLessThanOrEqual(2);
    expect(queued).toBeGreaterThan(0);
    expect(derivationLoad()).toEqual({ running: 0, waiting: 0 });
    for (const [i, hash] of hashes.entries()) expect(await verifyPassword(`password-${i}`, hash)).toBe(true);
  });
});
