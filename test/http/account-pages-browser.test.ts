// The links our e-mails and operator:create print, followed in Chromium as a person would, with APP_URL left to its
// default (the gateway's own address): every request leaving 127.0.0.1 is blocked, and the pages must work whole
// from the keyboard, say plainly what happened, and leave an account one can log in to.
// On a developer machine without Chromium this test is skipped, never in CI (test/helpers/browser.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { DEMO_EXTRA_FIELDS } from '../helpers/demo.ts';
import { browserAvailable, launchBrowser, watchPage, type Watched } from '../helpers/browser.ts';
import { runScript } from '../helpers/process.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';

const LINK_REFUSED = /invalid, expired or already used/;
/** An invitation refused (not "Reading the invitation…", which the page shows first). */
const INVITATION_REFUSED = /invitation is invalid/;

describe.skipIf(!browserAvailable)('the account links in a browser', () => {
  let s: TestServer;
  let smtp: TestSmtp;
  let browser: Browser;
  let dataDir: string;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    s = await startTestServer({ env: { SMTP_URL: smtp.url } });
    // What APP_URL's default (http://127.0.0.1:$PORT) is for a server on this port; operator:create below derives
    // it from PORT itself.
    s.config.mail.appUrl = s.url;
    dataDir = mkdtempSync(join(tmpdir(), 'prode-pages-'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await smtp?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function open(link: string): Promise<{ page: Page; watched: Watched }> {
    const page = await browser.newPage();
    const watched = await watchPage(page, s.url);
    await page.goto(link);
    return { page, watched };
  }
  const statusText = (page: Page) => page.locator('#status').innerText();
  async function statusMatches(page: Page, pattern: RegExp) {
    await page.waitForFunction(
      (source) => new RegExp(source).test(document.getElementById('status')?.textContent ?? ''),
      pattern.source,
    );
    return statusText(page);
  }
  /** Types into the input a label names, as a person with a keyboard does. */
  async function type(page: Page, label: string, text: string) {
    const input = page.getByLabel(label, { exact: true });
    await input.focus();
    await input.fill('');
    await page.keyboard.type(text);
  }
  function clean(watched: Watched) {
    expect(watched.errors).toEqual([]);
    expect(watched.failedOnHost).toEqual([]);
    expect(watched.offHost).toEqual([]);
  }
  const linkIn = (text: string, path: string) =>
    new RegExp(`${s.url.replace(/[.]/g, '\\.')}/${path}\\?token=[\\w.%-]+`).exec(text)?.[0];

  it("operator:create's printed link sets the password: too weak first, then one that logs in", async () => {
    const target = s.t.target;
    const created = runScript(
      'scripts/operator-create.ts',
      {
        DATA_DIR: dataDir,
        DATABASE_URL: target.provider === 'postgresql' ? target.url : `file:${target.file}`,
        PORT: new URL(s.url).port,
        APP_URL: undefined,
      },
      ['--email', 'ops@example.com'],
    );
    expect(await created.exited, created.output()).toBe(0);
    const link = /set the password within 72 hours[^:]*: (\S+)/.exec(created.output())?.[1];
    expect(link).toMatch(new RegExp(`^${s.url}/reset-password\\?token=`));

    const { page, watched } = await open(link!);
    await page.getByLabel('New password', { exact: true }).waitFor();
    // The token left the address bar (and so the history) as soon as the page read it.
    expect(page.url()).toBe(`${s.url}/reset-password`);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');

    // The operator's company has the strong policy: a short password is refused, and the page says why.
    await type(page, 'New password', 'short');
    await type(page, 'Repeat the new password', 'short');
    await page.keyboard.press('Enter');
    expect(await statusMatches(page, /too weak/)).toBe('This password is too weak: it must be at least 10 characters.');
    expect(await page.getByLabel('New password', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await type(page, 'New password', 'Operator-password-2026!');
    await type(page, 'Repeat the new password', 'Operator-password-2026');
    await page.keyboard.press('Enter');
    expect(await statusMatches(page, /differ/)).toMatch(/The two passwords differ/);

    await type(page, 'Repeat the new password', 'Operator-password-2026!');
    await page.keyboard.press('Enter');
    expect(await statusMatches(page, /password is set/)).toBe(
      'Your password is set. You can now sign in as ops@example.com in Platform operations.',
    );
    expect(await page.locator('#account-form').isHidden()).toBe(true);
    clean(watched);
    await page.close();

    const token = await s.login('ops@example.com', 'operator', 'Operator-password-2026!');
    const me = await s.gql('{ me { email role } }', {}, { ...bearer(token), 'x-app-path': 'operator' });
    expect(me.data.me).toEqual({ email: 'ops@example.com', role: 'manager' });

    // The link is single use: opened again, it says so.
    const again = await open(link!);
    await type(again.page, 'New password', 'Another-password-2026!');
    await type(again.page, 'Repeat the new password', 'Another-password-2026!');
    await again.page.keyboard.press('Enter');
    expect(await statusMatches(again.page, LINK_REFUSED)).toMatch(/^This link is invalid, expired or already used/);
    clean(again.watched);
    await again.page.close();
  });

  it('an e-mailed invitation link creates the account, which logs in; opened again, it says it is used', async () => {
    const admin = { ...bearer(await s.loginAs('admin')), 'x-app-path': 'demo' };
    const invited = await s.gql(
      'mutation($i: CreateInvitationInput!) { createInvitation(input: $i) { invitation { id } } }',
      { i: { email: 'grace@demo.test', name: 'Grace Hopper' } },
      admin,
    );
    expect(invited.errors).toBeUndefined();
    const [mail] = await smtp.waitFor('grace@demo.test');
    const link = linkIn(mail.text, 'accept-invitation');
    expect(link, mail.text).toBeDefined();

    const { page, watched } = await open(link!);
    await page.waitForFunction(() => document.getElementById('intro')?.textContent?.startsWith('You are invited to'));
    expect(await page.locator('#intro').innerText()).toBe(
      'You are invited to Demo Corp. Create your account to join the game.',
    );
    expect(page.url()).toBe(`${s.url}/accept-invitation`);
    expect(await page.getByLabel('Your name').inputValue()).toBe('Grace Hopper');
    // The invitation names the address: the account gets it, and the page does not ask.
    expect(await page.getByLabel('Your e-mail address').isHidden()).toBe(true);
    // Demo Corp requires an employee number of everyone: the page asks for it, and refuses to send without it.
    await type(page, 'New password', 'Grace-password-2026!');
    await type(page, 'Repeat the new password', 'Grace-password-2026!');
    await page.keyboard.press('Enter');
    expect(await statusMatches(page, /employeeNumber/)).toBe('Enter your employeeNumber.');
    await type(page, 'employeeNumber', 'E9001');
    await page.keyboard.press('Enter');
    expect(await statusMatches(page, /account is ready/)).toBe(
      'Your account is ready. You can now sign in as grace@demo.test in Demo Corp.',
    );
    clean(watched);
    await page.close();
    expect(await s.login('grace@demo.test', 'demo', 'Grace-password-2026!')).toMatch(/^ey/);

    const again = await open(link!);
    expect(await statusMatches(again.page, INVITATION_REFUSED)).toMatch(
      /^This invitation is invalid, expired or revoked/,
    );
    expect(await again.page.locator('#account-form').isHidden()).toBe(true);
    clean(again.watched);
    await again.page.close();
  });

  it('an invitation without an e-mail asks for one, with the keyboard alone', async () => {
    const admin = { ...bearer(await s.loginAs('admin')), 'x-app-path': 'demo' };
    await s.gql(
      'mutation($i: CreateInvitationInput!) { createInvitation(input: $i) { invitation { id } } }',
      { i: { email: 'open@demo.test' } },
      admin,
    );
    const [mail] = await smtp.waitFor('open@demo.test');
    // An invitation stored without an address (acceptInvitation then takes one): the page asks for it.
    await s.t.db.prisma.invitation.updateMany({ where: { email: 'open@demo.test' }, data: { email: null } });
    const { page, watched } = await open(linkIn(mail.text, 'accept-invitation')!);
    const email = page.getByLabel('Your e-mail address');
    await email.waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('name');
    // Tab moves through the fields in order; Enter sends the form.
    for (const text of ['Olive Open', 'olive@demo.test', 'E9002', 'Olive-password-2026!', 'Olive-password-2026!']) {
      await page.keyboard.type(text);
      await page.keyboard.press('Tab');
    }
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Create my account');
    await page.keyboard.press('Enter');
    expect(await statusMatches(page, /account is ready/)).toBe(
      'Your account is ready. You can now sign in as olive@demo.test in Demo Corp.',
    );
    clean(watched);
    await page.close();
    expect(await s.login('olive@demo.test', 'demo', 'Olive-password-2026!')).toMatch(/^ey/);
  });

  it('an invitation to a company signing in with its own provider links there, asks no password', async () => {
    const admin = bearer(await s.login('admin@globex.test'));
    await s.gql(
      'mutation($i: CreateInvitationInput!) { createInvitation(input: $i) { invitation { id } } }',
      {
        i: { email: 'sso@globex.test' },
      },
      admin,
    );
    const [mail] = await smtp.waitFor('sso@globex.test');
    // Sent while Globex used passwords; opened after it switched to its provider only.
    const globex = s.demo.companies.GLOBEX;
    await s.t.db.prisma.company.update({ where: { id: globex }, data: { loginStrategy: 1 } });
    try {
      const { page, watched } = await open(linkIn(mail.text, 'accept-invitation')!);
      const signIn = page.locator('#provider-sign-in');
      await signIn.waitFor();
      expect(await page.locator('#intro').innerText()).toBe(
        'You are invited to Globex, which signs in with its own identity provider: no password is set here. ' +
          'To join, sign in with your company account.',
      );
      expect(await signIn.getAttribute('href')).toBe('/auth/sso/start?company=GLOBEX&provider=company');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('provider-sign-in');
      expect(await page.locator('#account-form').isHidden()).toBe(true);
      expect(await page.locator('input[type=password]:visible').count()).toBe(0);
      clean(watched);
      await page.close();
    } finally {
      await s.t.db.prisma.company.update({ where: { id: globex }, data: { loginStrategy: 0 } });
    }
  });

  it('an expired reset link and an expired invitation say so plainly', async () => {
    const reset = await s.gql(
      'mutation { requestPasswordReset(email: "player2@demo.test") }',
      {},
      { 'x-app-path': 'demo' },
    );
    expect(reset.errors).toBeUndefined();
    const [mail] = await smtp.waitFor('player2@demo.test');
    const link = linkIn(mail.text, 'reset-password');
    expect(link, mail.text).toBeDefined();
    const user = await s.t.db.prisma.user.findFirstOrThrow({ where: { email: 'player2@demo.test' } });
    await s.t.db.prisma.accountToken.updateMany({
      where: { userId: user.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const { page, watched } = await open(link!);
    await type(page, 'New password', 'Player-password-2026!');
    await type(page, 'Repeat the new password', 'Player-password-2026!');
    await page.keyboard.press('Enter');
    expect(await statusMatches(page, LINK_REFUSED)).toBe(
      'This link is invalid, expired or already used. Ask for a new password reset e-mail.',
    );
    clean(watched);
    await page.close();

    const admin = { ...bearer(await s.loginAs('admin')), 'x-app-path': 'demo' };
    await s.gql(
      'mutation($i: CreateInvitationInput!) { createInvitation(input: $i) { invitation { id } } }',
      { i: { email: 'late@demo.test' } },
      admin,
    );
    const [invitation] = await smtp.waitFor('late@demo.test');
    await s.t.db.prisma.invitation.updateMany({
      where: { email: 'late@demo.test' },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const late = await open(linkIn(invitation.text, 'accept-invitation')!);
    expect(await statusMatches(late.page, INVITATION_REFUSED)).toBe(
      'This invitation is invalid, expired or revoked. Ask the person who invited you for a new one.',
    );
    clean(late.watched);
    await late.page.close();

    // A link cut short (no token at all) says so before anything is sent.
    const cut = await open(`${s.url}/reset-password`);
    expect(await statusMatches(cut.page, /no token/)).toMatch(/This link has no token/);
    expect(await cut.page.locator('#account-form').isHidden()).toBe(true);
    await cut.page.close();
  });

  it('the e-mail confirmation link confirms the address, and the account logs in', async () => {
    const demo = await s.t.db.prisma.company.findFirstOrThrow({ where: { appPath: 'demo' } });
    await s.t.db.prisma.company.update({ where: { id: demo.id }, data: { requiresEmailVerification: true } });
    const registered = await s.gql(
      'mutation($i: RegisterInput!) { register(input: $i) { emailVerificationRequired } }',
      {
        i: {
          name: 'Vera Fied',
          email: 'vera@example.test',
          password: 'Vera-password-2026!',
          extraFields: DEMO_EXTRA_FIELDS,
        },
      },
      { 'x-app-path': 'demo' },
    );
    expect(registered.data.register).toEqual({ emailVerificationRequired: true });
    const [mail] = await smtp.waitFor('vera@example.test');
    const link = linkIn(mail.text, 'verify-email');
    expect(link, mail.text).toBeDefined();
    const login = () =>
      s.gql(
        'mutation { login(email: "vera@example.test", password: "Vera-password-2026!") { token } }',
        {},
        { 'x-app-path': 'demo' },
      );
    expect((await login()).errors?.[0].extensions.code).toBe('EMAIL_NOT_VERIFIED');

    const { page, watched } = await open(link!);
    const confirm = page.getByRole('button', { name: 'Confirm my e-mail address' });
    await confirm.waitFor();
    expect((await login()).errors?.[0].extensions.code).toBe('EMAIL_NOT_VERIFIED');
    // Nothing is confirmed by opening the page (a mail scanner fetching the link confirms nothing): by the button.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Confirm my e-mail address');
    await page.keyboard.press('Enter');
    expect(await statusMatches(page, /confirmed/)).toBe(
      'Your e-mail address is confirmed. You can now sign in as vera@example.test in Demo Corp.',
    );
    clean(watched);
    await page.close();
    expect((await login()).data.login.token).toMatch(/^ey/);
  });
});
