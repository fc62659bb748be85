// The /graphiql explorer's single sign-on, in a real browser against a real gateway and a real OpenID Connect
// provider (oidc-provider) on loopback: the form offers the company's providers, a button goes through a sign-in,
// and the page comes back with a code that it turns into the token and removes from the address bar. The provider
// is on another port, so this page is not held offline as explorer-browser.test.ts's are.
// On a developer machine without Chromium this test is skipped, never in CI (test/helpers/browser.ts).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { browserAvailable, launchBrowser } from '../helpers/browser.ts';
import { startTestIssuer, type TestIssuer } from '../helpers/oidc-issuer.ts';

describe.skipIf(!browserAvailable)('the explorer signs in with a company provider', () => {
  let s: TestServer;
  let browser: Browser;
  let own: TestIssuer;
  let google: TestIssuer;

  beforeAll(async () => {
    // APP_URL elsewhere: a sign-in started from the explorer still ends on it.
    s = await startTestServer({ env: { APP_URL: 'https://app.example.test' } });
    s.config.sso.publicUrl = s.url;
    const callback = `${s.url}/auth/sso/callback`;
    [own, google] = await Promise.all([startTestIssuer(callback, 'demo-client'), startTestIssuer(callback, 'g')]);
    s.config.sso.google = { issuer: google.issuer, clientId: google.clientId, clientSecret: google.clientSecret };
    const set = await s.gql(
      `mutation ($id: Int!, $input: CompanySsoInput!) { updateCompanySso(companyId: $id, input: $input) { id } }`,
      {
        id: s.demo.companies.DEMO,
        input: { issuer: own.issuer, clientId: own.clientId, clientSecret: own.clientSecret, emailDomains: [] },
      },
      bearer(await s.loginAs('admin')),
    );
    expect(set.errors).toBeUndefined();
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([own?.close(), google?.close()]);
    await s?.close();
  });

  async function open(path = '/graphiql'): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // Chromium asks for a favicon of its own accord as the sign-in's redirects land; neither server has one.
      const favicon = m.location().url.endsWith('/favicon.ico');
      if (m.type() === 'error' && !favicon) errors.push(m.text());
    });
    await page.goto(`${s.url}${path}`);
    await page.waitForSelector('.graphiql-container .graphiql-query-editor .CodeMirror', { timeout: 30_000 });
    return { page, errors };
  }

  const buttons = (page: Page) =>
    page.$$eval('#sso button', (found) => found.map((b) => [(b as HTMLElement).dataset.provider, b.textContent]));

  it("offers the company's providers, signs in with one and keeps the token in the page only", async () => {
    const { page, errors } = await open();
    await page.waitForSelector('#sso button[data-provider=company]');
    expect(await buttons(page)).toEqual([
      ['google', 'Sign in with Google'],
      ['company', "Sign in with the company's provider"],
    ]);
    expect(await page.isVisible('#headers-form .login')).toBe(true);

    own.accounts.set('explorer-player', { email: 'player1@demo.test', email_verified: true });
    own.next = 'explorer-player';
    await page.click('#sso button[data-provider=company]');
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('signed in'), null, {
      timeout: 30_000,
    });
    // Back on the explorer, the code gone from the address (and so from history's entry).
    const landed = new URL(page.url());
    expect(landed.origin + landed.pathname).toBe(`${s.url}/graphiql`);
    expect(landed.search).toBe('');
    const token = await page.inputValue('input[name=token]');
    const me = await s.gql('{ me { email } }', {}, bearer(token));
    expect(me.data).toEqual({ me: { email: 'player1@demo.test' } });
    // GraphiQL keeps its tabs in localStorage; the token is in neither storage.
    const stored = await page.evaluate(() =>
      JSON.stringify([{ ...window.localStorage }, { ...window.sessionStorage }]),
    );
    expect(stored).not.toContain(token);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a refused sign-in, and hides the password form where the company allows its provider only', async () => {
    const id = s.demo.companies.DEMO;
    await s.t.db.prisma.company.update({ where: { id }, data: { loginStrategy: 1 } });
    try {
      const { page, errors } = await open('/graphiql?error=not_admitted');
      await page.waitForSelector('#sso button[data-provider=company]');
      expect(await page.textContent('#status')).toBe('sign-in refused: not_admitted');
      expect(new URL(page.url()).search).toBe('');
      expect(await buttons(page)).toEqual([['company', "Sign in with the company's provider"]]);
      expect(await page.isVisible('#headers-form .login')).toBe(false);
      // Another company in x-app-path: its own methods (Globex: Google, and the password form).
      await page.fill('input[name=appPath]', 'GLOBEX');
      await page.press('input[name=appPath]', 'Tab');
      await page.waitForSelector('#sso button[data-provider=google]');
      expect(await buttons(page)).toEqual([['google', 'Sign in with Google']]);
      expect(await page.isVisible('#headers-form .login')).toBe(true);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await s.t.db.prisma.company.update({ where: { id }, data: { loginStrategy: 0 } });
    }
  });
});
