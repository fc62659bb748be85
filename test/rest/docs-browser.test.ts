// A person's view: headless Chromium (Debian's, driven by playwright-core) opens /docs and sees the routes.
// CI installs Chromium (.ci/run); on a developer machine without it this test is skipped, never in CI.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM) || process.env.CI === 'true';

describe.skipIf(!available)('the /docs page in a browser', () => {
  let s: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    s = await startTestServer({ seed: false });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('lists the six spec routes and login', async () => {
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
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
      'GET /companies/search',
      'GET /invitations/jwt/{jwt}',
      'GET /posts/{id}',
      'GET /posts/{postId}/comments',
      'GET /tournaments/me',
      'PATCH /invitations/{id}',
      'POST /auth/login',
    ]);
    expect(failed.filter((u) => u.startsWith(s.url))).toEqual([]);
  });
});
