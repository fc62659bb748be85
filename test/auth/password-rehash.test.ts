// scrypt at N = 2^17 (PASSWORD_HASH_COST, default 17): hashes keep their parameters, so older ones still verify
// and are replaced by a hash at the current cost on their user's next successful login. (password-hash-cost.test.ts:
// the cost itself and which hashes need re-hashing.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, passwordHashCost, setPasswordHashCost, verifyPassword } from '../../src/auth/passwords.ts';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/app.ts';

const LOGIN = 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }';
const SUITE_COST = passwordHashCost();

describe('re-hash on login (server at PASSWORD_HASH_COST=15)', () => {
  let s: TestServer;
  let oldHash: string;
  beforeAll(async () => {
    s = await startTestServer({ env: { PASSWORD_HASH_COST: '15' } });
    oldHash = await hashPassword(DEMO_PASSWORD, 14);
    await s.t.db.prisma.user.updateMany({ where: { email: 'player1@demo.test' }, data: { passwordHash: oldHash } });
  });
  afterAll(async () => {
    await s.close();
    setPasswordHashCost(SUITE_COST);
  });

  const stored = async () =>
    (await s.t.db.prisma.user.findFirstOrThrow({ where: { email: 'player1@demo.test' } })).passwordHash!;

  it('a wrong password leaves an old hash alone', async () => {
    const r = await s.gql(LOGIN, { e: 'player1@demo.test', p: 'wrong-password' }, { 'x-app-path': 'demo' });
    expect(r.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await stored()).toBe(oldHash);
  });

  it('the right password logs in with the N = 2^14 hash and stores one at N = 2^15 that verifies', async () => {
    const r = await s.gql(LOGIN, { e: 'player1@demo.test', p: DEMO_PASSWORD }, { 'x-app-path': 'demo' });
    expect(r.errors).toBeUndefined();
    expect(r.data.login.token).toMatch(/^ey/);
    const now = await stored();
    expect(now).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(now).not.toBe(oldHash);
    expect(await verifyPassword(DEMO_PASSWORD, now)).toBe(true);
    expect(await verifyPassword('wrong-password', now)).toBe(false);

    // The next login finds nothing to raise and logs in with the new hash; a wrong password still fails.
    expect(
      (await s.gql(LOGIN, { e: 'player1@demo.test', p: DEMO_PASSWORD }, { 'x-app-path': 'demo' })).data.login.token,
    ).toMatch(/^ey/);
    expect(await stored()).toBe(now);
    expect(
      (await s.gql(LOGIN, { e: 'player1@demo.test', p: 'wrong-password' }, { 'x-app-path': 'demo' })).errors?.[0]
        .extensions.code,
    ).toBe('UNAUTHENTICATED');
    expect(await stored()).toBe(now);
  });

  it('never lowers a stronger hash', async () => {
    const strong = await hashPassword(DEMO_PASSWORD, 16);
    await s.t.db.prisma.user.updateMany({ where: { email: 'player2@demo.test' }, data: { passwordHash: strong } });
    expect(
      (await s.gql(LOGIN, { e: 'player2@demo.test', p: DEMO_PASSWORD }, { 'x-app-path': 'demo' })).errors,
    ).toBeUndefined();
    expect((await s.t.db.prisma.user.findFirstOrThrow({ where: { email: 'player2@demo.test' } })).passwordHash).toBe(
      strong,
    );
  });
});
