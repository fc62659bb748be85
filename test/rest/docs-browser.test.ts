// A person's view: headless Chromium opens /docs and sees the routes, with no warning box and no console error.
// On a developer machine without Chromium this test is skipped, never in CI (test/helpers/browser.ts).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.ts';
import { browserAvailable, launchBrowser, watchPage } from '../helpers/browser.ts';

describe.skipIf(!browserAvailable)('the /docs page in a browser', () => {
  let s: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    s = await startTestServer({ seed: false });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('lists the six spec routes, login and the exports, with no warning box and no console error', async () => {
    const page = await browser.newPage();
    const watched = await watchPage(page, s.url);
    await page.goto(`${s.url}/docs`);
    await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
    const routes = await page.$$eval('.opblock', (blocks) =>
      blocks.map(
        (b) =>
          `${b.querySelector('.opblock-summary-method')?.textContent} ` +
          `${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
      ),
    );
    expect(routes.sort()).toEqual([
      'GET /auth/sso/callback',
      'GET /auth/sso/done',
      'GET /auth/sso/methods',
      'GET /auth/sso/start',
      'GET /companies/search',
      'GET /exports/predictions/{tournamentId}.csv',
      'GET /exports/rankings/{tournamentId}.csv',
      'GET /exports/users.csv',
      'GET /invitations/jwt/{jwt}',
      'GET /posts/{id}',
      'GET /posts/{postId}/comments',
      'GET /tournaments/me',
      'PATCH /invitations/{id}',
      'POST /auth/login',
      'POST /auth/sso/exchange',
    ]);
    // Swagger UI's boxes for a document it finds wrong or only partly supports (a jsonSchemaDialect other than
    // the default was one), and for an unsupported or ambiguous OpenAPI version.
    const boxes = await page.$$eval('.errors-wrapper, .error-wrapper, .version-pragma', (found) =>
      found.map((b) => (b as HTMLElement).innerText),
    );
    expect(boxes).toEqual([]);
    expect(watched.errors).toEqual([]);
    expect(watched.failedOnHost).toEqual([]);
    expect(watched.offHost).toEqual([]);
  });
});
