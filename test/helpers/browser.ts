// Headless Chromium (Debian's, driven by playwright-core) for the tests that look at a page as a person does.
// CI installs Chromium (.ci/run) and sets CI=true: there a missing browser fails the test instead of skipping it.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const browserAvailable = existsSync(CHROMIUM) || process.env.CI === 'true';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
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
}

export interface Watched {
  /** Console errors and uncaught exceptions, with the URL they came from. */
  errors: Array<{ text: string; url: string }>;
  /** Requests for another host than the test server's: failed with a network error, never sent. */
  offHost: string[];
  /** Requests to the test server that failed or returned 4xx/5xx. */
  failedOnHost: string[];
}

/** Blocks every request that leaves 127.0.0.1 (so a page is tested as it behaves offline) and records problems. */
export async function watchPage(page: Page, serverUrl: string): Promise<Watched> {
  const host = new URL(serverUrl).host;
  const watched: Watched = { errors: [], offHost: [], failedOnHost: [] };
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.host === host || url.protocol === 'data:') return route.continue();
    watched.offHost.push(url.href);
    return route.abort('internetdisconnected');
  });
  page.on('console', (m) => {
    if (m.type() === 'error') watched.errors.push({ text: m.text(), url: m.location().url });
  });
  page.on('pageerror', (e) => watched.errors.push({ text: String(e), url: '' }));
  page.on('requestfailed', (r) => {
    if (new URL(r.url()).host === host) watched.failedOnHost.push(`${r.url()} ${r.failure()?.errorText}`);
  });
  page.on('response', (r) => {
    if (new URL(r.url()).host === host && r.status() >= 400) watched.failedOnHost.push(`${r.url()} ${r.status()}`);
  });
  return watched;
}
