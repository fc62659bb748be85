// A forgotten password, reset by e-mail through a real SMTP server: the link arrives, opens the account once,
// within the company's password policy; asking says nothing about which e-mails exist; the token is stored hashed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashAccountToken } from '../../src/auth/account-tokens.ts';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/app.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';

const REQUEST = 'mutation($e: String!) { requestPasswordReset(email: $e) }';
const RESET = 'mutation($t: String!, $p: String!) { resetPassword(token: $t, password: $p) { token user { email } } }';
const NEW_PASSWORD = 'A-new-password-2026!';
const DEMO = { 'x-app-path': 'demo' };

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

const linkToken = (text: string) => /https:\/\/prode\.example\.test\/reset-password\?token=([\w-]+)/.exec(text)?.[1];
const loginStatus = async (password: string) =>
  (
    await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...DEMO },
      body: JSON.stringify({ email: 'player2@demo.test', password }),
    })
  ).status;

describe('password reset by e-mail', () => {
  it('mails a link that sets a new password once, within the policy, and logs the user in', async () => {
    const asked = await s.gql(REQUEST, { e: 'Player2@Demo.test' }, DEMO);
    expect(asked.data).toEqual({ requestPasswordReset: true });
    const [mail] = await smtp.waitFor('player2@demo.test');
    expect(mail.subject).toBe('Reset your password for Demo Corp');
    const token = linkToken(mail.text);
    expect(token, mail.text).toMatch(/^[\w-]{43}$/);

    // Only the token's hash is kept.
    const rows = await s.t.db.prisma.accountToken.findMany();
    expect(rows.map((r) => r.tokenHash)).toEqual([hashAccountToken(token!)]);
    expect(JSON.stringify(rows)).not.toContain(token);

    const weak = await s.gql(RESET, { t: token, p: 'short' });
    expect(weak.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'password' });
    const done = await s.gql(RESET, { t: token, p: NEW_PASSWORD });
    expect(done.data.resetPassword.user).toEqual({ email: 'player2@demo.test' });
    expect(done.data.resetPassword.token).toMatch(/^ey/);

    expect(await loginStatus(DEMO_PASSWORD)).toBe(401);
    expect(await loginStatus(NEW_PASSWORD)).toBe(200);
    const again = await s.gql(RESET, { t: token, p: 'Yet-another-password-1!' });
    expect(again.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('returns the same for an e-mail with no account, and sends nothing', async () => {
    const before = smtp.received.length;
    const asked = await s.gql(REQUEST, { e: 'nobody@demo.test' }, DEMO);
    expect(asked.data).toEqual({ requestPasswordReset: true });
    await s.app.mail.idle();
    expect(smtp.received.length).toBe(before);
  });

  it('refuses a malformed e-mail naming the field, and an unknown token as NOT_FOUND', async () => {
    const bad = await s.gql(REQUEST, { e: 'not-an-email' }, DEMO);
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'email' });
    const unknown = await s.gql(RESET, { t: 'x'.repeat(43), p: NEW_PASSWORD });
    expect(unknown.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('a newer link replaces the older one, and an expired link opens nothing', async () => {
    await s.gql(REQUEST, { e: 'admin@demo.test' }, DEMO);
    await s.gql(REQUEST, { e: 'admin@demo.test' }, DEMO);
    const [first, second] = await smtp.waitFor('admin@demo.test', 2);
    const stale = await s.gql(RESET, { t: linkToken(first.text), p: NEW_PASSWORD });
    expect(stale.errors?.[0].extensions.code).toBe('NOT_FOUND');
    await s.t.db.prisma.accountToken.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await s.gql(RESET, { t: linkToken(second.text), p: NEW_PASSWORD });
    expect(expired.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('throttles requests per address and e-mail, found or not', async () => {
    const codes = [];
    for (let i = 0; i < 4; i++)
      codes.push((await s.gql(REQUEST, { e: 'ghost@demo.test' }, DEMO)).errors?.[0].extensions.code);
    expect(codes).toEqual([undefined, undefined, undefined, 'RATE_LIMITED']);
  });
});
