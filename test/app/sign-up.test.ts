// Sign-up (src/app/sign-up.ts): a person creates a player account in the company the headers name, within its
// switch, password policy and seats; where the company verifies e-mails, the account opens once its link is used,
// and a taken e-mail gets the response a new one gets while its owner is told.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, requestEmailVerification, verifyEmail } from '../../src/app/sign-up.ts';
import { resolveRequestAuth } from '../../src/auth/request-auth.ts';
import { DEFAULT_COMPANY_JSON } from '../../src/domain/defaults.ts';
import { MemoryLoginThrottle } from '../../src/security/memory-login-throttle.ts';
import { DEMO_EXTRA_FIELDS } from '../helpers/demo.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
beforeAll(async () => {
  database = await appTestDatabase();
  const company = (data: { name: string; code: string; appPath: string } & Record<string, unknown>) =>
    database.db.prisma.company.create({ data: { ...DEFAULT_COMPANY_JSON, ...data } });
  await company({ name: 'Verified Co', code: 'VERIFIED', appPath: 'verified', requiresEmailVerification: true });
  await company({ name: 'Closed Door', code: 'CLOSED', appPath: 'closed', disableRegister: true });
  await company({ name: 'Tiny', code: 'TINY', appPath: 'tiny', maxUsersAmount: 1 });
});
afterAll(() => database.drop());

const client = (max = 100) => ({ ip: '198.51.100.40', throttle: new MemoryLoginThrottle(max, 60_000) });
const PASSWORD = 'a fine password';
const anonymous = () => testScope(database, null);
const person = (email: string, extra: object = {}) => ({ name: 'New Person', email, password: PASSWORD, ...extra });
const usersWith = (email: string) => database.db.prisma.user.findMany({ where: { email } });
const mails = (to: string, kind: string) => database.db.prisma.outgoingEmail.findMany({ where: { to, kind } });
const linkToken = (text: string) => decodeURIComponent(/token=([^\s]+)/.exec(text)![1]);

describe('register', () => {
  it('creates a logged-in player in the company the path names', async () => {
    const now = new Date(Date.UTC(2026, 6, 2));
    const scope = await testScope(database, null, { now });
    const done = await register(scope, client(), person('Fresh@Demo.test', { extraFields: DEMO_EXTRA_FIELDS }), {
      appPath: 'demo',
    });
    expect(done.emailVerificationRequired).toBe(false);
    const [row] = await usersWith('fresh@demo.test');
    expect(row).toMatchObject({
      id: done.user!.id,
      companyId: database.demo.companies.DEMO,
      role: 'player',
      loginCount: 1,
      lastActiveDate: now,
    });
    const auth = await resolveRequestAuth(
      database.db.prisma,
      { authorization: `Bearer ${done.token}` },
      database.config.jwtSecret,
    );
    expect(auth.viewer?.id).toBe(row.id);
  });

  it('refuses without a company header, for an unknown one and where sign-up is closed', async () => {
    const scope = await anonymous();
    await expect(register(scope, client(), person('a@nowhere.test'), {})).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'x-app-path' },
    });
    await expect(register(scope, client(), person('a@nowhere.test'), { appPath: 'nowhere' })).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    await expect(register(scope, client(), person('a@closed.test'), { appPath: 'closed' })).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    expect(await usersWith('a@closed.test')).toEqual([]);
  });

  it('refuses a bad name, e-mail or password, and areas where the company places people itself', async () => {
    const scope = await anonymous();
    const demo = { appPath: 'demo' };
    const refused = [
      [person('b@demo.test', { name: '  ' }), 'name'],
      [person('b@demo.test', { name: 'two\nlines' }), 'name'],
      [person('not an address'), 'email'],
      [person('b@demo.test', { password: 'short' }), 'password'],
    ] as const;
    for (const [input, field] of refused) {
      await expect(register(scope, client(), input, demo)).rejects.toMatchObject({
        extensions: { code: 'BAD_USER_INPUT', argumentName: field },
      });
    }
    await expect(
      register(scope, client(), person('b@demo.test', { areaLevel1Id: database.demo.areas.Argentina }), demo),
    ).rejects.toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect(await usersWith('b@demo.test')).toEqual([]);
  });

  it('a taken e-mail is CONFLICT where the company does not verify, and adds nobody', async () => {
    await expect(
      register(await anonymous(), client(), person('player12@demo.test', { extraFields: DEMO_EXTRA_FIELDS }), {
        appPath: 'demo',
      }),
    ).rejects.toMatchObject({ extensions: { code: 'CONFLICT' } });
    expect(await usersWith('player12@demo.test')).toHaveLength(1);
  });

  it('a full company is refused', async () => {
    const scope = await anonymous();
    await register(scope, client(), person('first@tiny.test'), { appPath: 'tiny' });
    await expect(register(scope, client(), person('second@tiny.test'), { appPath: 'tiny' })).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    expect(await usersWith('second@tiny.test')).toEqual([]);
  });

  it('every sign-up counts against the throttle, successful or not', async () => {
    const throttled = client(1);
    await register(await anonymous(), throttled, person('counted@demo.test', { extraFields: DEMO_EXTRA_FIELDS }), {
      appPath: 'demo',
    });
    await expect(
      register(await anonymous(), throttled, person('counted@demo.test', { extraFields: DEMO_EXTRA_FIELDS }), {
        appPath: 'demo',
      }),
    ).rejects.toMatchObject({ extensions: { code: 'RATE_LIMITED' } });
  });
});

describe('sign-up with e-mail verification', () => {
  const verified = { appPath: 'verified' };

  it('returns no account and no token, mails a link that opens the account once', async () => {
    const wakes = database.wakes.mail;
    const scope = await anonymous();
    const done = await register(scope, client(), person('me@verified.test'), verified);
    expect(done).toEqual({ user: null, token: null, emailVerificationRequired: true });
    expect(database.wakes.mail).toBe(wakes + 1);
    const [row] = await usersWith('me@verified.test');
    expect(row).toMatchObject({ emailVerified: false, loginCount: 0 });
    const [mail] = await mails('me@verified.test', 'emailVerification');
    const token = linkToken(mail.text);

    const opened = await verifyEmail(scope, client(), token);
    expect(opened.user).toMatchObject({ id: row.id, emailVerified: true, loginCount: 1 });
    await expect(verifyEmail(scope, client(), token)).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
  });

  it('a taken e-mail gets the same response, adds nobody and tells the address’s owner', async () => {
    const scope = await anonymous();
    await register(scope, client(), person('twice@verified.test'), verified);
    const again = await register(scope, client(), person('twice@verified.test'), verified);
    expect(again).toEqual({ user: null, token: null, emailVerificationRequired: true });
    expect(await usersWith('twice@verified.test')).toHaveLength(1);
    expect(await mails('twice@verified.test', 'signUpAttempt')).toHaveLength(1);
  });

  it('a made-up link opens nothing', async () => {
    await expect(verifyEmail(await anonymous(), client(), 'made-up')).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
  });

  it('requestEmailVerification mails a new link to an unverified account only, returning true either way', async () => {
    const scope = await anonymous();
    await register(scope, client(), person('slow@verified.test'), verified);
    expect(await requestEmailVerification(scope, 'slow@verified.test', verified, client())).toBe(true);
    expect(await mails('slow@verified.test', 'emailVerification')).toHaveLength(2);
    for (const [email, headers] of [
      ['nobody@verified.test', verified],
      ['player1@demo.test', { appPath: 'demo' }], // verified already
      ['slow@verified.test', { appPath: 'nowhere' }],
    ] as const) {
      expect(await requestEmailVerification(scope, email, headers, client())).toBe(true);
    }
    expect(await mails('slow@verified.test', 'emailVerification')).toHaveLength(2);
    expect(
      await database.db.prisma.outgoingEmail.count({
        where: { to: { in: ['nobody@verified.test', 'player1@demo.test'] }, kind: 'emailVerification' },
      }),
    ).toBe(0);
  });
});
