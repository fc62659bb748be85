// Sign-up as a person would do it, with a real SMTP server: open sign-up returns a token at once; where the
// company requires a verified e-mail, login waits (EMAIL_NOT_VERIFIED) until the mailed link is opened. Every
// refusal names its reason (or field) and writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.ts';
import { DEMO_EXTRA_FIELDS } from '../helpers/demo.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';

const REGISTER =
  'mutation($i: RegisterInput!) { register(input: $i) { token emailVerificationRequired user { email role company { ' +
  'code } } } }';
const VERIFY = 'mutation($t: String!) { verifyEmail(token: $t) { token user { email emailVerified } } }';
const RESEND = 'mutation($e: String!) { requestEmailVerification(email: $e) }';
const LOGIN = 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }';
const DEMO = { 'x-app-path': 'demo' };
const PASSWORD = 'Sign-up-password-2026!';

let smtp: TestSmtp;
let s: TestServer;
beforeAll(async () => {
  smtp = await startTestSmtp();
  s = await startTestServer({ env: { SMTP_URL: smtp.url, APP_URL: 'https://prode.example.test' } });
});
afterAll(async () => {
  await s?.close();
  await smtp?.close();
});

const person = (email: string, extra: Record<string, unknown> = {}) => ({
  name: 'New Person',
  email,
  password: PASSWORD,
  extraFields: DEMO_EXTRA_FIELDS,
  ...extra,
});
const code = (r: { errors?: Array<{ extensions: { code: string } }> }) => r.errors?.[0]?.extensions.code;
const verifyToken = (text: string) => /https:\/\/prode\.example\.test\/verify-email\?token=([\w-]+)/.exec(text)?.[1];
const demoCompany = () => s.t.db.prisma.company.findFirstOrThrow({ where: { appPath: 'demo' } });

describe('register', () => {
  it('opens an account at once where the company does not ask for verification', async () => {
    const r = await s.gql(REGISTER, { i: person('Newcomer@Example.test') }, DEMO);
    expect(r.data.register).toMatchObject({
      emailVerificationRequired: false,
      user: { email: 'newcomer@example.test', role: 'player', company: { code: 'DEMO' } },
    });
    expect(r.data.register.token).toMatch(/^ey/);
    expect(code(await s.gql(LOGIN, { e: 'newcomer@example.test', p: PASSWORD }, DEMO))).toBeUndefined();
    const again = await s.gql(REGISTER, { i: person('newcomer@example.test') }, DEMO);
    expect(code(again)).toBe('CONFLICT');
  });

  it('where the company asks, login waits for the link mailed to the address', async () => {
    const company = await demoCompany();
    await s.t.db.prisma.company.update({ where: { id: company.id }, data: { requiresEmailVerification: true } });
    try {
      const r = await s.gql(REGISTER, { i: person('verify-me@example.test') }, DEMO);
      expect(r.data.register).toMatchObject({ token: null, emailVerificationRequired: true });

      const blocked = await s.gql(LOGIN, { e: 'verify-me@example.test', p: PASSWORD }, DEMO);
      expect(code(blocked)).toBe('EMAIL_NOT_VERIFIED');
      const rest = await fetch(`${s.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...DEMO },
        body: JSON.stringify({ email: 'verify-me@example.test', password: PASSWORD }),
      });
      expect(rest.status).toBe(403);
      expect(await rest.json()).toMatchObject({ statusCode: 403, code: 'EMAIL_NOT_VERIFIED' });
      // A wrong password is still refused as a wrong password: the state of the account is told only to its owner.
      expect(code(await s.gql(LOGIN, { e: 'verify-me@example.test', p: 'wrong-password' }, DEMO))).toBe(
        'UNAUTHENTICATED',
      );

      const [mail] = await smtp.waitFor('verify-me@example.test');
      expect(mail.subject).toBe('Confirm your e-mail for Demo Corp');
      // Asking again replaces the link: the first one stops working.
      expect((await s.gql(RESEND, { e: 'verify-me@example.test' }, DEMO)).data).toEqual({
        requestEmailVerification: true,
      });
      const [, second] = await smtp.waitFor('verify-me@example.test', 2);
      expect(code(await s.gql(VERIFY, { t: verifyToken(mail.text) }))).toBe('NOT_FOUND');

      const verified = await s.gql(VERIFY, { t: verifyToken(second.text) });
      expect(verified.data.verifyEmail.user).toEqual({ email: 'verify-me@example.test', emailVerified: true });
      expect(code(await s.gql(LOGIN, { e: 'verify-me@example.test', p: PASSWORD }, DEMO))).toBeUndefined();
      expect(code(await s.gql(VERIFY, { t: verifyToken(second.text) }))).toBe('NOT_FOUND');
    } finally {
      await s.t.db.prisma.company.update({ where: { id: company.id }, data: { requiresEmailVerification: false } });
    }
  });

  it('refuses, naming why, and writes nothing', async () => {
    const p = s.t.db.prisma;
    const users = await p.user.count();
    const noCompany = await s.gql(REGISTER, { i: person('x1@example.test') });
    expect(noCompany.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'x-app-path' });
    const unknown = await s.gql(REGISTER, { i: person('x1@example.test') }, { 'x-app-path': 'nowhere' });
    expect(code(unknown)).toBe('NOT_FOUND');
    for (const [input, argumentName] of [
      [person('not-an-email'), 'email'],
      [person('x2@example.test', { name: '  ' }), 'name'],
      [person('x3@example.test', { password: 'short' }), 'password'],
    ] as const) {
      const r = await s.gql(REGISTER, { i: input }, DEMO);
      expect(r.errors?.[0].extensions, argumentName).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
    }
    const area = await p.area.findFirstOrThrow({ where: { company: { appPath: 'demo' } } });
    const areas = await s.gql(REGISTER, { i: person('x4@example.test', { areaLevel1Id: area.id }) }, DEMO);
    expect(code(areas)).toBe('FORBIDDEN');

    const company = await demoCompany();
    await p.company.update({ where: { id: company.id }, data: { disableRegister: true } });
    expect(code(await s.gql(REGISTER, { i: person('x5@example.test') }, DEMO))).toBe('FORBIDDEN');
    await p.company.update({ where: { id: company.id }, data: { disableRegister: false, maxUsersAmount: 1 } });
    const full = await s.gql(REGISTER, { i: person('x6@example.test') }, DEMO);
    expect(full.errors?.[0].message).toMatch(/maximum of 1 users/);
    await p.company.update({ where: { id: company.id }, data: { maxUsersAmount: company.maxUsersAmount } });
    expect(await p.user.count()).toBe(users);
  });

  it('places the person in the areas they pick where the company lets them', async () => {
    const p = s.t.db.prisma;
    const company = await demoCompany();
    const settings = company.featureSettings as Record<string, Record<string, unknown>>;
    await p.company.update({
      where: { id: company.id },
      data: { featureSettings: { ...settings, areas: { ...settings.areas, selfAssignOnSignUp: true } } },
    });
    const area = await p.area.findFirstOrThrow({ where: { companyId: company.id, level: 1 } });
    const r = await s.gql(REGISTER, { i: person('placed@example.test', { areaLevel1Id: area.id }) }, DEMO);
    expect(code(r)).toBeUndefined();
    expect((await p.user.findFirstOrThrow({ where: { email: 'placed@example.test' } })).areaLevel1Id).toBe(area.id);
    const foreign = await p.area.findFirstOrThrow({ where: { companyId: { not: company.id } } });
    const bad = await s.gql(REGISTER, { i: person('misplaced@example.test', { areaLevel1Id: foreign.id }) }, DEMO);
    expect(code(bad)).toBe('BAD_USER_INPUT');
  });
});
