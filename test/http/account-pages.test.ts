// The account pages over plain HTTP: what every response carries (HTML, a same-origin CSP, no referrer, no cache),
// that they load nothing from elsewhere, that each input has its label, that their operations run where only
// trusted documents do, and that the token in their address reaches no log line. The browser test
// (account-pages-browser.test.ts) follows the links as a person does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.ts';
import { startTestServer, type TestServer } from '../helpers/app.ts';

const PAGES = ['/reset-password', '/verify-email', '/accept-invitation'];
const SECRET = 'Secret-token-that-must-not-be-logged_123';

let s: TestServer;
const lines: string[] = [];
beforeAll(async () => {
  s = await startTestServer({ env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => lines.push(line) } });
});
afterAll(async () => {
  await s?.close();
});

/** The attributes of each tag named `tag` in the HTML. */
function tags(html: string, tag: string): Array<Record<string, string>> {
  return [...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'gi'))].map((m) =>
    Object.fromEntries([...m[1].matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map((a) => [a[1].toLowerCase(), a[2] ?? ''])),
  );
}

describe('the account pages', () => {
  it.each(PAGES)(
    '%s returns HTML with a same-origin CSP, no referrer, no cache, and nothing from elsewhere',
    async (path) => {
      const res = await fetch(`${s.url}${path}?token=${SECRET}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      expect(html).toMatch(/^<!doctype html>\s*<html lang="en">/);
      // Nothing the page loads or links comes from another origin, and the token is not written into it.
      expect(html).not.toMatch(/https?:|\/\/[\w.-]+\.\w/);
      expect(html).not.toContain(SECRET);
      for (const { src } of tags(html, 'script').filter((t) => 'src' in t)) {
        expect(src).toMatch(/^\/account-pages\//);
        expect((await fetch(`${s.url}${src}`)).status).toBe(200);
      }
      for (const { href } of tags(html, 'link')) {
        expect(href).toMatch(/^\/account-pages\//);
        expect((await fetch(`${s.url}${href}`)).status).toBe(200);
      }
      // No inline script runs: the one script element without src holds data (JSON), which the CSP does not run.
      expect(tags(html, 'script').filter((t) => !('src' in t))).toEqual([
        { type: 'application/json', id: 'operations' },
      ]);
      // Accessibility basics: every input has a label naming it, the status is announced.
      const labels = new Set(tags(html, 'label').map((l) => l.for));
      const inputs = tags(html, 'input');
      for (const input of inputs) expect(labels, `input ${input.id}`).toContain(input.id);
      expect(html).toMatch(/id="status" role="status" aria-live="polite"/);
      expect(tags(html, 'button')).toEqual([{ type: 'submit' }]);
    },
  );

  it('serves its script and style from this origin; an unknown asset is 404', async () => {
    const js = await fetch(`${s.url}/account-pages/account.browser.js`);
    expect(js.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(await js.text()).toContain('history.replaceState');
    const css = await fetch(`${s.url}/account-pages/account.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(`${s.url}/account-pages/constructor`)).status).toBe(404);
    expect((await fetch(`${s.url}/account-pages/..%2Fapp.ts`)).status).toBe(404);
  });

  it('the token of a link reaches no log line', async () => {
    for (const path of PAGES) await fetch(`${s.url}${path}?token=${SECRET}`);
    await fetch(`${s.url}/reset-password/nope?token=${SECRET}`); // a 404 is logged too
    const requests = lines.filter((l) => /"msg":"request"/.test(l));
    expect(requests.length).toBeGreaterThanOrEqual(4);
    expect(lines.join('\n')).not.toContain(SECRET);
    // A request logged whole (an error with its request) keeps its path, not the token.
    const whole: string[] = [];
    createLogger({ logLevel: 'info', logFormat: 'json' }, { write: (line) => whole.push(line) }).error(
      { req: { method: 'GET', url: `/accept-invitation?token=${SECRET}` } },
      'failed',
    );
    expect(whole.join('\n')).toContain('/accept-invitation?token=[redacted]');
    expect(whole.join('\n')).not.toContain(SECRET);
  });
});

describe('an invitation link in the path form (/invitations/<token>)', () => {
  it('redirects to the invitation page with its token, without referrer or cache', async () => {
    const res = await fetch(`${s.url}/invitations/${SECRET}.part`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/accept-invitation?token=${SECRET}.part`);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const page = await fetch(`${s.url}/invitations/${SECRET}`);
    expect(page.url).toBe(`${s.url}/accept-invitation?token=${SECRET}`);
    expect(await page.text()).toContain('<body data-page="invitation">');
  });

  it('leaves an invitation id alone: GET /invitations/1 is the 405 of PATCH /invitations/:id', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${s.url}/invitations/1`, { method, redirect: 'manual' });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('PATCH');
      expect(((await res.json()) as { code: string }).code).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('its token reaches no log line, nor the error of a method it does not serve', async () => {
    lines.length = 0;
    await fetch(`${s.url}/invitations/${SECRET}`, { redirect: 'manual' });
    const wrong = await fetch(`${s.url}/invitations/${SECRET}`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(await wrong.text()).not.toContain(SECRET);
    const requests = lines.filter((l) => /"msg":"request"/.test(l));
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.join('\n')).toContain('"url":"/invitations/[redacted]"');
    expect(lines.join('\n')).not.toContain(SECRET);
  });
});

describe('the account pages where only trusted documents run', () => {
  let trusted: TestServer;
  beforeAll(async () => {
    trusted = await startTestServer({ env: { PERSISTED_OPERATIONS_ONLY: 'true' } });
  });
  afterAll(async () => {
    await trusted?.close();
  });

  it('send operations of the manifest: a bad link is NOT_FOUND, not PERSISTED_QUERY_NOT_IN_LIST', async () => {
    for (const path of PAGES) {
      const html = await (await fetch(`${trusted.url}${path}`)).text();
      const json = /<script type="application\/json" id="operations">(.*?)<\/script>/s.exec(html)![1];
      const operations = JSON.parse(json) as Record<string, string>;
      for (const [name, query] of Object.entries(operations)) {
        const variables = { token: 'nope', jwt: 'nope', password: 'Whatever-2026!', name: 'X' };
        const r = await trusted.gql(query, variables);
        expect(r.errors?.[0].extensions.code, `${path} ${name}`).toBe('NOT_FOUND');
      }
    }
  });
});
