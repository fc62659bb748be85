// Login (src/app/auth.ts): e-mail and password for an access token, one response for every credential failure,
// counted against the login throttle before anything is checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../prisma/seed/demo-seed.ts';
import { login } from '../../src/app/auth.ts';
import { hashPassword } from '../../src/auth/passwords.ts';
import { resolveRequestAuth } from '../../src/auth/request-auth.ts';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { MemoryLoginThrottle } from '../../src/security/memory-login-throttle.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

const client = (max = 100) => ({ ip: '198.51.100.20', throttle: new MemoryLoginThrottle(max, 60_000) });
const demo = { appPath: 'demo' };
const anonymous = () => testScope(database, null);

describe('login', () => {
  it('returns a token for the account, and counts the login on the row', async () => {
    const id = database.demo.users['player3@demo.test'];
    const before = await database.db.prisma.user.findUniqueOrThrow({ where: { id } });
    const now = new Date(Date.UTC(2026, 6, 1));
    const scope = await testScope(database, null, { now });
    const { token, user } = await login(scope, {
      email: ' Player3@Demo.test ',
      password: DEMO_PASSWORD,
      headers: demo,
      client: client(),
    });
    expect(user.id).toBe(id);
    const row = await database.db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(row.loginCount).toBe(before.loginCount + 1);
    expect(row.lastActiveDate).toEqual(now);
    // The token opens the account.
    const auth = await resolveRequestAuth(
      database.db.prisma,
      { authorization: `Bearer ${token}` },
      database.config.jwtSecret,
    );
    expect(auth.viewer?.id).toBe(id);
  });

  it('a unique e-mail logs in without a tenant header', async () => {
    const { user } = await login(await anonymous(), {
      email: 'player2@globex.test',
      password: DEMO_PASSWORD,
      headers: {},
      client: client(),
    });
    expect(user.id).toBe(database.demo.users['player2@globex.test']);
  });

  it('a wrong password and an unknown e-mail get one response, and nothing is written', async () => {
    const id = database.demo.users['player4@demo.test'];
    const before = await database.db.prisma.user.findUniqueOrThrow({ where: { id } });
    const refusal = { extensions: { code: 'UNAUTHENTICATED' }, message: 'e-mail or password is wrong' };
    const scope = await anonymous();
    await expect(
      login(scope, { email: 'player4@demo.test', password: 'not the password', headers: demo, client: client() }),
    ).rejects.toMatchObject(refusal);
    await expect(
      login(scope, { email: 'nobody@demo.test', password: DEMO_PASSWORD, headers: demo, client: client() }),
    ).rejects.toMatchObject(refusal);
    // The account of another company is not found through this company's header.
    await expect(
      login(scope, { email: 'player4@globex.test', password: DEMO_PASSWORD, headers: demo, client: client() }),
    ).rejects.toMatchObject(refusal);
    const after = await database.db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(after.loginCount).toBe(before.loginCount);
  });

  it('refuses a missing e-mail or password, and an overlong e-mail, naming the field', async () => {
    const scope = await anonymous();
    const input = { headers: demo, client: client() };
    await expect(login(scope, { ...input, email: '  ', password: 'x' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'email' },
    });
    await expect(login(scope, { ...input, email: 'player1@demo.test', password: '' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'password' },
    });
    await expect(
      login(scope, { ...input, email: `${'x'.repeat(400)}@demo.test`, password: 'x' }),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'email' } });
  });

  it('an app path that names no company is NOT_FOUND, and checks no password', async () => {
    await expect(
      login(await anonymous(), {
        email: 'player1@demo.test',
        password: DEMO_PASSWORD,
        headers: { appPath: 'no-such-company' },
        client: client(),
      }),
    ).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
  });

  it('past the throttle even the right password is refused with RATE_LIMITED', async () => {
    const throttled = client(2);
    const scope = await anonymous();
    for (let i = 0; i < 2; i++) {
      await expect(
        login(scope, { email: 'player5@demo.test', password: 'wrong', headers: demo, client: throttled }),
      ).rejects.toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
    }
    await expect(
      login(scope, { email: 'player5@demo.test', password: DEMO_PASSWORD, headers: demo, client: throttled }),
    ).rejects.toMatchObject({ extensions: { code: 'RATE_LIMITED' } });
  });

  it('loginStrategy 1: the right password is FORBIDDEN and stays counted; a manager logs in', async () => {
    const p = database.db.prisma;
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const company = await p.company.create({
      data: { ...DEFAULT_COMPANY_JSON, name: 'Provider Only', code: 'PROVIDERONLY', appPath: 'sso', loginStrategy: 1 },
    });
    for (const [email, role] of [
      ['player@sso.test', 'player'],
      ['admin@sso.test', 'admin'],
      ['manager@sso.test', 'manager'],
    ] as const) {
      await p.user.create({
        data: {
          ...DEFAULT_USER_JSON,
          companyId: company.id,
          name: email,
          email,
          role,
          externalId: email,
          loginProviderId: email,
          passwordHash,
          emailVerified: true,
        },
      });
    }
    const scope = await anonymous();
    const throttled = client(2);
    const as = (email: string, c = client()) =>
      login(scope, { email, password: DEMO_PASSWORD, headers: { appPath: 'sso' }, client: c });
    const refusal = { extensions: { code: 'FORBIDDEN' }, message: expect.stringContaining('/auth/sso/start') };
    await expect(as('admin@sso.test')).rejects.toMatchObject(refusal);
    // Refusals are failures to the throttle: the right password does not clear the count.
    for (let i = 0; i < 2; i++) await expect(as('player@sso.test', throttled)).rejects.toMatchObject(refusal);
    await expect(as('player@sso.test', throttled)).rejects.toMatchObject({ extensions: { code: 'RATE_LIMITED' } });
    await expect(as('manager@sso.test')).resolves.toMatchObject({ user: { email: 'manager@sso.test' } });
  });

  it('EMAIL_NOT_VERIFIED where the company verifies e-mails; a closed company opens nothing', async () => {
    const p = database.db.prisma;
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const company = await p.company.create({
      data: {
        ...DEFAULT_COMPANY_JSON,
        name: 'Strict',
        code: 'STRICT',
        appPath: 'strict',
        requiresEmailVerification: true,
      },
    });
    const person = (email: string, emailVerified: boolean) =>
      p.user.create({
        data: {
          ...DEFAULT_USER_JSON,
          companyId: company.id,
          name: email,
          email,
          externalId: email,
          loginProviderId: email,
          passwordHash,
          emailVerified,
        },
      });
    await person('new@strict.test', false);
    await person('old@strict.test', true);
    const scope = await anonymous();
    const as = (email: string) =>
      login(scope, { email, password: DEMO_PASSWORD, headers: { appPath: 'strict' }, client: client() });
    await expect(as('new@strict.test')).rejects.toMatchObject({ extensions: { code: 'EMAIL_NOT_VERIFIED' } });
    await expect(as('old@strict.test')).resolves.toMatchObject({ user: { email: 'old@strict.test' } });
    await p.company.update({ where: { id: company.id }, data: { deletedAt: new Date() } });
    // A closed company's path names no open company.
    await expect(as('old@strict.test')).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    await expect(
      login(scope, { email: 'old@strict.test', password: DEMO_PASSWORD, headers: {}, client: client() }),
    ).rejects.toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
  });
});
