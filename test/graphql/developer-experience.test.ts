import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.ts';

let dev: TestServer;
let prod: TestServer;
beforeAll(async () => {
  [dev, prod] = await Promise.all([
    startTestServer({ seed: false }),
    startTestServer({ seed: false, env: { GRAPHQL_INTROSPECTION: 'false', GRAPHQL_SANDBOX: 'false' } }),
  ]);
});
afterAll(async () => {
  await dev.close();
  await prod.close();
});

describe('developer experience', () => {
  it('GET /graphql in a browser opens Apollo Sandbox, unless switched off', async () => {
    const page = await fetch(`${dev.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/sandbox/i);
    const off = await fetch(`${prod.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(await off.text()).not.toMatch(/embeddable-sandbox/i);
  });

  it("Sandbox's page points to the offline explorer at /graphiql", async () => {
    const html = await (await fetch(`${dev.url}/graphql`, { headers: { accept: 'text/html' } })).text();
    expect(html).toMatch(/<p id="offline-explorer">[^<]*offline explorer is at <a href="\/graphiql">/);
  });

  it('GET /graphiql serves GraphiQL and everything it loads from this server, under a strict CSP', async () => {
    const page = await fetch(`${dev.url}/graphiql`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
    const html = await page.text();
    const loads = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(loads).toContain('/graphiql/assets/graphiql.min.js');
    for (const path of loads) {
      expect(path).toMatch(/^\/graphiql\/assets\//);
      const asset = await fetch(`${dev.url}${path}`);
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get('content-type'), path).toMatch(path.endsWith('.css') ? /^text\/css/ : /javascript/);
      expect((await asset.arrayBuffer()).byteLength, path).toBeGreaterThan(0);
    }
    for (const missing of ['constructor', '__proto__', 'package.json', '..%2Fpackage.json'])
      expect((await fetch(`${dev.url}/graphiql/assets/${missing}`)).status, missing).toBe(404);
  });

  it('/graphiql is off where Sandbox is off (GRAPHQL_SANDBOX=false, the production default)', async () => {
    expect((await fetch(`${prod.url}/graphiql`)).status).toBe(404);
    expect((await fetch(`${prod.url}/graphiql/assets/graphiql.min.js`)).status).toBe(404);
  });

  it('introspection responds unless GRAPHQL_INTROSPECTION=false', async () => {
    const q = '{ __schema { queryType { name } } }';
    expect((await dev.gql(q)).data.__schema.queryType.name).toBe('Query');
    const r = await prod.gql(q);
    expect(r.errors?.[0].message).toMatch(/introspection/i);
  });
});
