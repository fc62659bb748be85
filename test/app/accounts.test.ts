// Accounts by e-mail (src/app/accounts.ts): a reset link is mailed to every open account with the address in the
// company named, the response is the same whether or not there is one, and the link sets a password once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../prisma/seed/demo-seed.ts';
import { PASSWORD_RESET_TTL_MS, requestPasswordReset, resetPassword } from '../../src/app/accounts.ts';
import { verifyPassword } from '../../src/auth/passwords.ts';
import { MemoryLoginThrottle } from '../../src/security/memory-login-throttle.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

const client = (max = 100) => ({ ip: '198.51.100.30', throttle: new MemoryLoginThrottle(max, 60_000) });
const demo = { appPath: 'demo' };
const NEW_PASSWORD = 'a new password of mine';

const mailsTo = (to: string) =>
  database.db.prisma.outgoingEmail.findMany({ where: { to, kind: 'passwordReset' }, orderBy: { id: 'asc' } });

/** Asks for a reset of `email` in Demo Corp and reads the token from the link the e-mail carries. */
async function resetLinkFor(email: string, now = new Date()): Promise<string> {
  await requestPasswordReset(await testScope(database, null, { now }), { email, headers: demo, client: client() });
  const mails = await mailsTo(email);
  const link = /token=([^\s]+)/.exec(mails[mails.length - 1].text);
  return decodeURIComponent(link![1]);
}

describe('requestPasswordReset', () => {
  it('mails a single-use link to the account, and wakes the mail delivery', async () => {
    const wakes = database.wakes.mail;
    const id = database.demo.users['player6@demo.test'];
    const scope = await testScope(database, null);
    await expect(
      requestPasswordReset(scope, { email: 'Player6@demo.test', headers: demo, client: client() }),
    ).resolves.toBe(true);
    const [mail] = await mailsTo('player6@demo.test');
    expect(mail.subject).toBe('Reset your password for Demo Corp');
    expect(mail.text).toContain('/reset-password?token=');
    expect(await database.db.prisma.accountToken.count({ where: { userId: id, purpose: 'passwordReset' } })).toBe(1);
    expect(database.wakes.mail).toBe(wakes + 1);
  });

  it('returns the same for an unknown e-mail, or one of another company, and queues nothing', async () => {
    const wakes = database.wakes.mail;
    const scope = await testScope(database, null);
    for (const email of ['nobody@demo.test', 'player6@globex.test']) {
      await expect(requestPasswordReset(scope, { email, headers: demo, client: client() })).resolves.toBe(true);
      expect(await mailsTo(email)).toEqual([]);
    }
    await expect(
      requestPasswordReset(scope, { email: 'player6@globex.test', headers: { appPath: 'nowhere' }, client: client() }),
    ).resolves.toBe(true);
    expect(await mailsTo('player6@globex.test')).toEqual([]);
    expect(database.wakes.mail).toBe(wakes);
  });

  it('refuses an address that is not one, and counts every request against the throttle', async () => {
    const scope = await testScope(database, null);
    await expect(
      requestPasswordReset(scope, { email: 'not an address', headers: demo, client: client() }),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'email' } });
    const throttled = client(1);
    await requestPasswordReset(scope, { email: 'nobody@demo.test', headers: demo, client: throttled });
    await expect(
      requestPasswordReset(scope, { email: 'nobody@demo.test', headers: demo, client: throttled }),
    ).rejects.toMatchObject({ extensions: { code: 'RATE_LIMITED' } });
  });
});

describe('resetPassword', () => {
  it('sets the password, verifies the e-mail, ends older sessions, and the link works once', async () => {
    const id = database.demo.users['player7@demo.test'];
    await database.db.prisma.user.update({ where: { id }, data: { emailVerified: false } });
    const before = await database.db.prisma.user.findUniqueOrThrow({ where: { id } });
    const token = await resetLinkFor('player7@demo.test');
    const scope = await testScope(database, null);
    const done = await resetPassword(scope, client(), { token, password: NEW_PASSWORD });
    expect(done.user.id).toBe(id);
    const row = await database.db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(await verifyPassword(NEW_PASSWORD, row.passwordHash!)).toBe(true);
    expect(row.emailVerified).toBe(true);
    expect(row.tokenVersion).toBe(before.tokenVersion + 1);
    expect(database.published).toContainEqual({ kind: 'sessions', userId: id });
    await expect(resetPassword(scope, client(), { token, password: 'yet another password' })).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    expect(
      await verifyPassword(
        NEW_PASSWORD,
        (await database.db.prisma.user.findUniqueOrThrow({ where: { id } })).passwordHash!,
      ),
    ).toBe(true);
  });

  it('a password the policy refuses is BAD_USER_INPUT and leaves the link usable', async () => {
    const id = database.demo.users['player8@demo.test'];
    const token = await resetLinkFor('player8@demo.test');
    const scope = await testScope(database, null);
    await expect(resetPassword(scope, client(), { token, password: 'short' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'password' },
    });
    const row = await database.db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(await verifyPassword(DEMO_PASSWORD, row.passwordHash!)).toBe(true);
    await expect(resetPassword(scope, client(), { token, password: NEW_PASSWORD })).resolves.toMatchObject({
      user: { id },
    });
  });

  it('an expired link, a made-up one and one of a deactivated account open nothing', async () => {
    const sent = new Date(Date.UTC(2026, 6, 1));
    const token = await resetLinkFor('player9@demo.test', sent);
    const late = await testScope(database, null, { now: new Date(sent.getTime() + PASSWORD_RESET_TTL_MS + 1000) });
    await expect(resetPassword(late, client(), { token, password: NEW_PASSWORD })).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    const scope = await testScope(database, null);
    for (const made of ['', 'x'.repeat(201), 'not-a-token-we-issued']) {
      await expect(resetPassword(scope, client(), { token: made, password: NEW_PASSWORD })).rejects.toMatchObject({
        extensions: { code: 'NOT_FOUND' },
      });
    }
    const id = database.demo.users['player10@demo.test'];
    const fresh = await resetLinkFor('player10@demo.test');
    await database.db.prisma.user.update({ where: { id }, data: { deletedAt: new Date() } });
    await expect(resetPassword(scope, client(), { token: fresh, password: NEW_PASSWORD })).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    const row = await database.db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(await verifyPassword(DEMO_PASSWORD, row.passwordHash!)).toBe(true);
  });

  it('a link issued as the company switched to its provider only is FORBIDDEN and sets nothing', async () => {
    const p = database.db.prisma;
    const id = database.demo.users['player9@demo.test'];
    const demoId = database.demo.companies.DEMO;
    // A request that read the company before the switch and wrote its token after: the switch voided nothing.
    const token = await resetLinkFor('player9@demo.test');
    await p.company.update({ where: { id: demoId }, data: { loginStrategy: 1 } });
    try {
      await expect(
        resetPassword(await testScope(database, null), client(), { token, password: NEW_PASSWORD }),
      ).rejects.toMatchObject({
        extensions: { code: 'FORBIDDEN' },
        message: expect.stringContaining('/auth/sso/start?company=DEMO&provider=company'),
      });
      const row = await p.user.findUniqueOrThrow({ where: { id } });
      expect(await verifyPassword(DEMO_PASSWORD, row.passwordHash!)).toBe(true);
    } finally {
      await p.company.update({ where: { id: demoId }, data: { loginStrategy: 0 } });
    }
  });

  it('links that open nothing count against the throttle; one that works is given back', async () => {
    const throttled = client(1);
    const scope = await testScope(database, null);
    await expect(resetPassword(scope, throttled, { token: 'made-up', password: NEW_PASSWORD })).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    const token = await resetLinkFor('player11@demo.test');
    await expect(resetPassword(scope, throttled, { token, password: NEW_PASSWORD })).rejects.toMatchObject({
      extensions: { code: 'RATE_LIMITED' },
    });
    const fresh = client(1);
    await resetPassword(scope, fresh, { token, password: NEW_PASSWORD });
    await expect(resetPassword(scope, fresh, { token: 'made-up', password: NEW_PASSWORD })).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
  });
});
