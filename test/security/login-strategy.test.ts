// loginStrategy 1 (src/app/login-strategy.ts) over real HTTP, a real database and a real SMTP server: Demo Corp and
// Channel Partners switch to their own identity provider only; every password operation refuses their people with
// FORBIDDEN and where to sign in, managers excepted (Channel Partners' manager), the reseller not; the refusals
// tell nothing about which e-mails exist beyond what login tells; the e-mails carry no password links; a reset
// link sent before the switch stays dead after it, even once the company switches back; back at 0, all works again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountPageInvitationDocument } from '../../src/graphql/generated/operations.ts';
import { issueAccountToken } from '../../src/auth/account-tokens.ts';
import { DEMO_PASSWORD, bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';

const APP_URL = 'https://prode.example.test';
/** The gateway's own address, which serves the sign-in route (APP_URL is the app's). */
const PUBLIC_URL = 'https://api.prode.example.test';
const SIGN_IN = `${PUBLIC_URL}/auth/sso/start?company=DEMO&provider=company`;
const LOGIN = 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token user { email } } }';
const REQUEST = 'mutation($e: String!) { requestPasswordReset(email: $e) }';
const RESET = 'mutation($t: String!, $p: String!) { resetPassword(token: $t, password: $p) { token } }';
const CHANGE = 'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) }';
const STRATEGY = 'mutation($id: Int!, $s: Int!) { updateCompany(companyId: $id, input: { loginStrategy: $s }) { id } }';
const REGISTER = `mutation($e: String!) {
  register(input: { name: "New Person", email: $e, password: "${DEMO_PASSWORD}" }) { token } }`;
const INVITE = 'mutation($e: String!) { createInvitation(input: { email: $e }) { token } }';
const ACCEPT = `mutation($j: String!) { acceptInvitation(jwt: $j, name: "Invited Person", password: "${DEMO_PASSWORD}")
  { token } }`;
const NEW_PASSWORD = 'A-new-password-2026!';
const DEMO = { 'x-app-path': 'demo' };
const PARTNERS = { 'x-app-path': 'partners' };

let smtp: TestSmtp;
let s: TestServer;
/** Sessions opened before the switch: the switch does not end them. */
let tokens: Record<'admin' | 'player' | 'reseller' | 'manager', string>;
/** A reset link mailed to player5@demo.test before Demo Corp switched. */
let earlyLink: string;

const linkToken = (text: string) => /\/reset-password\?token=([\w-]+)/.exec(text)?.[1];
const code = (r: { errors?: Array<{ extensions: { code: string } }> }) => r.errors?.[0]?.extensions.code ?? 'OK';
const setStrategy = (companyId: number, value: number, token = tokens.manager) =>
  s.gql(STRATEGY, { id: companyId, s: value }, bearer(token));
const restLogin = (email: string, password: string, headers: Record<string, string> = DEMO) =>
  fetch(`${s.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email, password }),
  });

beforeAll(async () => {
  smtp = await startTestSmtp();
  s = await startTestServer({ env: { SMTP_URL: smtp.url, APP_URL, PUBLIC_URL } });
  tokens = {
    admin: await s.login('admin@demo.test', 'demo'),
    player: await s.login('player1@demo.test', 'demo'),
    reseller: await s.login('reseller@partners.test', 'partners'),
    manager: await s.login('manager@partners.test', 'partners'),
  };
  expect((await s.gql(REQUEST, { e: 'player5@demo.test' }, DEMO)).data).toEqual({ requestPasswordReset: true });
  earlyLink = linkToken((await smtp.waitFor('player5@demo.test'))[0].text)!;
  expect(earlyLink).toBeTruthy();
  // The reseller managing Demo Corp switches it; a manager switches Channel Partners, the reseller's own company.
  expect(code(await setStrategy(s.demo.companies.DEMO, 1, tokens.reseller))).toBe('OK');
  expect(code(await setStrategy(s.demo.companies.PARTNERS, 1))).toBe('OK');
});
afterAll(async () => {
  await s?.close();
  await smtp?.close();
});

describe('loginStrategy 1: password login', () => {
  it('the right password gets FORBIDDEN saying where to sign in, on GraphQL and REST; no login counted', async () => {
    const id = s.demo.users['player1@demo.test'];
    const before = await s.t.db.prisma.user.findUniqueOrThrow({ where: { id } });
    const refused = await s.gql(LOGIN, { e: 'player1@demo.test', p: DEMO_PASSWORD }, DEMO);
    expect(code(refused)).toBe('FORBIDDEN');
    expect(refused.errors![0].message).toContain(SIGN_IN);
    expect(refused.data).toBeNull();
    // Without a tenant header the unique e-mail finds the account, and the same refusal.
    expect(code(await s.gql(LOGIN, { e: 'player1@demo.test', p: DEMO_PASSWORD }))).toBe('FORBIDDEN');
    const rest = await restLogin('player1@demo.test', DEMO_PASSWORD);
    expect(rest.status).toBe(403);
    const body = await rest.json();
    expect(body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    expect(body.message).toContain(SIGN_IN);
    const after = await s.t.db.prisma.user.findUniqueOrThrow({ where: { id } });
    expect(after.loginCount).toBe(before.loginCount);
  });

  it('a wrong password gets exactly what an unknown e-mail gets, with and without a tenant header', async () => {
    for (const headers of [DEMO, {}]) {
      const wrong = await s.gql(LOGIN, { e: 'player1@demo.test', p: 'not the password' }, headers);
      const unknown = await s.gql(LOGIN, { e: 'nobody@demo.test', p: 'not the password' }, headers);
      expect(code(wrong)).toBe('UNAUTHENTICATED');
      expect(wrong.errors).toEqual(unknown.errors);
    }
    const [wrong, unknown] = [
      await restLogin('player1@demo.test', 'not the password'),
      await restLogin('nobody@demo.test', 'not the password'),
    ];
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('managers are excepted; the reseller is not, in its own company or in one it manages', async () => {
    const manager = await s.gql(LOGIN, { e: 'manager@partners.test', p: DEMO_PASSWORD }, PARTNERS);
    expect(manager.data.login.user.email).toBe('manager@partners.test');
    const reseller = await s.gql(LOGIN, { e: 'reseller@partners.test', p: DEMO_PASSWORD }, PARTNERS);
    expect(code(reseller)).toBe('FORBIDDEN');
    expect(reseller.errors![0].message).toContain(`${PUBLIC_URL}/auth/sso/start?company=PARTNERS&provider=company`);
    // The reseller's account is of Channel Partners: naming Demo Corp finds no such account.
    expect(code(await s.gql(LOGIN, { e: 'reseller@partners.test', p: DEMO_PASSWORD }, DEMO))).toBe('UNAUTHENTICATED');
    // Globex (loginStrategy 0) is untouched.
    const globex = { 'x-app-host': 'prode.globex.test' };
    expect(code(await s.gql(LOGIN, { e: 'player1@globex.test', p: DEMO_PASSWORD }, globex))).toBe('OK');
  });
});

describe('loginStrategy 1: password reset, change, sign-up and invitations', () => {
  it('asking for a reset naming the company by path or host is FORBIDDEN for every e-mail alike', async () => {
    const tokensBefore = await s.t.db.prisma.accountToken.count();
    const known = await s.gql(REQUEST, { e: 'player2@demo.test' }, DEMO);
    const unknown = await s.gql(REQUEST, { e: 'nobody@demo.test' }, DEMO);
    expect(code(known)).toBe('FORBIDDEN');
    expect(known.errors).toEqual(unknown.errors);
    expect(known.errors![0].message).toContain(SIGN_IN);
    // x-app-company is not public: it answers true, as for a code that names no company.
    expect((await s.gql(REQUEST, { e: 'nobody@demo.test' }, { 'x-app-company': 'DEMO' })).data).toEqual({
      requestPasswordReset: true,
    });
    expect(await s.t.db.prisma.accountToken.count()).toBe(tokensBefore);
  });

  it('asked without a header, a person is mailed where to sign in and no link; a manager gets a link', async () => {
    const tokensBefore = await s.t.db.prisma.accountToken.count();
    expect((await s.gql(REQUEST, { e: 'player3@demo.test' })).data).toEqual({ requestPasswordReset: true });
    const [mail] = await smtp.waitFor('player3@demo.test');
    expect(mail.subject).toBe("Sign in to Demo Corp with your company's account");
    expect(mail.text).toContain(SIGN_IN);
    expect(mail.text).not.toMatch(/reset-password|token=/);
    expect(await s.t.db.prisma.accountToken.count()).toBe(tokensBefore);

    expect((await s.gql(REQUEST, { e: 'manager@partners.test' }, PARTNERS)).errors?.[0].extensions.code).toBe(
      'FORBIDDEN',
    );
    expect((await s.gql(REQUEST, { e: 'manager@partners.test' })).data).toEqual({ requestPasswordReset: true });
    const [managerMail] = await smtp.waitFor('manager@partners.test');
    expect(linkToken(managerMail.text)).toBeTruthy();
  });

  it('a reset link sent before the switch opens nothing after it', async () => {
    const used = await s.gql(RESET, { t: earlyLink, p: NEW_PASSWORD });
    expect(code(used)).toBe('NOT_FOUND');
  });

  it('changePassword is FORBIDDEN before any password is checked; a manager still changes theirs', async () => {
    const refused = await s.gql(CHANGE, { c: 'not the password', n: NEW_PASSWORD }, bearer(tokens.player));
    expect(code(refused)).toBe('FORBIDDEN');
    expect(refused.errors![0].message).toContain(SIGN_IN);
    const manager = await s.gql(CHANGE, { c: DEMO_PASSWORD, n: NEW_PASSWORD }, bearer(tokens.manager));
    expect(manager.data).toEqual({ changePassword: true });
    tokens.manager = await s.login('manager@partners.test', 'partners', NEW_PASSWORD);
  });

  it('an e-mail verification link verifies the address but opens no session', async () => {
    const prisma = s.t.db.prisma;
    const user = await prisma.user.findFirstOrThrow({ where: { email: 'player4@demo.test' } });
    await prisma.user.update({ where: { id: user.id }, data: { emailVerified: false } });
    const link = await prisma.$transaction((tx) =>
      issueAccountToken(tx, user.id, 'emailVerification', new Date(), 3_600_000),
    );
    const refused = await s.gql('mutation($t: String!) { verifyEmail(token: $t) { token } }', { t: link });
    expect(code(refused)).toBe('FORBIDDEN');
    expect(refused.errors![0].message).toContain(SIGN_IN);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerified).toBe(true);
  });

  it('register is FORBIDDEN and adds nobody', async () => {
    const refused = await s.gql(REGISTER, { e: 'someone.new@demo.test' }, DEMO);
    expect(code(refused)).toBe('FORBIDDEN');
    expect(refused.errors![0].message).toContain(SIGN_IN);
    expect(await s.t.db.prisma.user.count({ where: { email: 'someone.new@demo.test' } })).toBe(0);
  });

  it('an invitation mails where to sign in and no link that sets a password; accepting is FORBIDDEN', async () => {
    const made = await s.gql(INVITE, { e: 'invited@demo.test' }, bearer(tokens.admin));
    expect(code(made)).toBe('OK');
    const [mail] = await smtp.waitFor('invited@demo.test');
    expect(mail.text).toContain(SIGN_IN);
    expect(mail.text).not.toMatch(/accept-invitation|invitations\/|token=/);
    // What the gateway's invitation page reads to show the provider's link instead of a password form.
    const page = await s.gql(AccountPageInvitationDocument, { jwt: made.data.createInvitation.token });
    expect(page.data.invitationByJwt).toMatchObject({ role: 'player', company: { code: 'DEMO', loginStrategy: 1 } });
    const accepted = await s.gql(ACCEPT, { j: made.data.createInvitation.token });
    expect(code(accepted)).toBe('FORBIDDEN');
    expect(await s.t.db.prisma.user.count({ where: { email: 'invited@demo.test' } })).toBe(0);
  });

  it('only 0 and 1 are accepted, with BAD_USER_INPUT naming loginStrategy', async () => {
    for (const value of [2, -1]) {
      const refused = await setStrategy(s.demo.companies.GLOBEX, value);
      expect(refused.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'loginStrategy' });
    }
  });
});

describe('back to loginStrategy 0', () => {
  it('passwords work again; the link sent before the first switch stays dead', async () => {
    expect(code(await setStrategy(s.demo.companies.DEMO, 0, tokens.reseller))).toBe('OK');
    expect(code(await s.gql(LOGIN, { e: 'player1@demo.test', p: DEMO_PASSWORD }, DEMO))).toBe('OK');
    expect((await restLogin('player1@demo.test', DEMO_PASSWORD)).status).toBe(200);
    expect(code(await s.gql(RESET, { t: earlyLink, p: NEW_PASSWORD }))).toBe('NOT_FOUND');
    // A new link works.
    expect((await s.gql(REQUEST, { e: 'player5@demo.test' }, DEMO)).data).toEqual({ requestPasswordReset: true });
    const [, fresh] = await smtp.waitFor('player5@demo.test', 2);
    expect(fresh.subject).toBe('Reset your password for Demo Corp');
    expect(code(await s.gql(RESET, { t: linkToken(fresh.text), p: NEW_PASSWORD }))).toBe('OK');
    expect((await restLogin('player5@demo.test', NEW_PASSWORD)).status).toBe(200);
  });
});
