// A person's view of the GraphQL explorers with no internet: every request leaving 127.0.0.1 is blocked.
// /graphiql must work whole (served from npm packages by us); Apollo Sandbox at GET /graphql cannot (its UI is on
// Apollo's CDN), so there the test asks only that our pointer to /graphiql shows. "No console error" on that page
// means none but the ones Apollo's missing CDN scripts cause: the failed loads of the blocked off-host URLs and
// the uncaught error of Apollo's inline script that calls the missing embed. The page holds no script of ours.
// On a developer machine without Chromium this test is skipped, never in CI (test/helpers/browser.ts).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/app.ts';
import { browserAvailable, launchBrowser, watchPage } from '../helpers/browser.ts';
import { DEMO_USERS } from '../helpers/demo.ts';
import { activeSubscriptions, untilSubscribed } from '../helpers/live.ts';

describe.skipIf(!browserAvailable)('the GraphQL explorers in a browser, offline', () => {
  let s: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    s = await startTestServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('/graphiql logs in from its form and runs a query with those headers', async () => {
    const { email, appPath } = DEMO_USERS.player;
    const token = await s.login(email, appPath);
    const expected = await s.gql('{ me { name company { name } } }', {}, { authorization: `Bearer ${token}` });
    expect(expected.errors).toBeUndefined();

    const page = await browser.newPage();
    const watched = await watchPage(page, s.url);
    await page.goto(`${s.url}/graphiql`);
    await page.waitForSelector('.graphiql-container .graphiql-query-editor .CodeMirror', { timeout: 30_000 });
    await page.fill('input[name=appPath]', appPath);
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', DEMO_PASSWORD);
    await page.click('#login');
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('logged in'));
    const formToken = await page.inputValue('input[name=token]');
    expect(formToken).not.toBe('');
    const sent: Array<Record<string, string>> = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.postData()?.includes('me {')) sent.push(r.headers());
    });

    await page.click('.graphiql-execute-button');
    await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('"data"'), {
      timeout: 30_000,
    });
    // CodeMirror 5 keeps its editor on the wrapper element: its text without the gutter and fold markers.
    const result = await page.$eval('.result-window .CodeMirror', (e) =>
      (e as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue(),
    );
    const body = JSON.parse(result);
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual(expected.data);
    // The query went out with the headers from the form (what the headers editor was given).
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ authorization: `Bearer ${formToken}`, 'x-app-path': appPath });

    // The schema came through introspection: the documentation explorer lists the root types.
    await page.click('[aria-label="Show Documentation Explorer"]');
    await page.waitForSelector('.graphiql-doc-explorer-root-type', { timeout: 10_000 });

    const alerts = await page.$$eval('[role=alert], .graphiql-spinner', (found) =>
      found.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => (e as HTMLElement).innerText),
    );
    expect(alerts).toEqual([]);
    expect(watched.errors).toEqual([]);
    expect(watched.failedOnHost).toEqual([]);
    expect(watched.offHost).toEqual([]);
  });

  it('/graphiql runs a subscription over WebSocket with the headers of its form', async () => {
    const page = await browser.newPage();
    const watched = await watchPage(page, s.url);
    await page.goto(`${s.url}/graphiql`);
    await page.waitForSelector('.graphiql-container .graphiql-query-editor .CodeMirror', { timeout: 30_000 });
    await page.fill('input[name=token]', await s.loginAs('player'));
    await page.fill('input[name=appPath]', DEMO_USERS.player.appPath);
    await page.click('#headers-form button[type=submit]');
    const subscription =
      `subscription { matchUpdated(tournamentId: ${s.demo.tournament}) ` +
      '{ match { id status homeTeamGoals awayTeamGoals } } }';
    await page.$eval(
      '.graphiql-query-editor .CodeMirror',
      (e, text) => (e as unknown as { CodeMirror: { setValue(t: string): void } }).CodeMirror.setValue(text),
      subscription,
    );
    // GraphiQL parses the edited text a moment after the change (a person types slower than this): until then it
    // holds the old document and would send the subscription over HTTP.
    await page.waitForTimeout(1000);
    const before = await activeSubscriptions(s.url);
    await page.click('.graphiql-execute-button');
    await untilSubscribed(s.url, before + 1);

    const matchId = s.demo.matches.final;
    await s.kickOff(matchId);
    const manager = await s.loginAs('manager');
    const set = await s.gql(
      'mutation($i: SetMatchResultInput!) { setMatchResult(input: $i) { id } }',
      { i: { matchId, status: 'IN_PLAY', homeTeamGoals: 2, awayTeamGoals: 1, elapsedTime: 50 } },
      bearer(manager),
    );
    expect(set.errors).toBeUndefined();
    await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('IN_PLAY'), {
      timeout: 30_000,
    });
    const result = await page.$eval('.result-window .CodeMirror', (e) =>
      (e as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue(),
    );
    expect(JSON.parse(result).data.matchUpdated.match).toEqual({
      id: matchId,
      status: 'IN_PLAY',
      homeTeamGoals: 2,
      awayTeamGoals: 1,
    });
    expect(watched.errors).toEqual([]);
    expect(watched.failedOnHost).toEqual([]);
    expect(watched.offHost).toEqual([]);
    await page.close();
  });

  it('Apollo Sandbox at GET /graphql points to /graphiql when its CDN cannot be reached', async () => {
    const page = await browser.newPage();
    const watched = await watchPage(page, s.url);
    await page.goto(`${s.url}/graphql`);
    const notice = page.locator('#offline-explorer');
    await notice.waitFor({ state: 'visible' });
    expect(await notice.innerText()).toContain('the offline explorer is at /graphiql');
    expect(watched.offHost.length).toBeGreaterThan(0);
    const blocked = new Set(watched.offHost);
    const ours = watched.errors.filter(
      (e) => !(blocked.has(e.url) && e.text.startsWith('Failed to load resource')) && !/EmbeddedSandbox/.test(e.text),
    );
    expect(ours).toEqual([]);
    expect(watched.failedOnHost).toEqual([]);

    await notice.locator('a').click();
    await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/graphiql');
  });
});
