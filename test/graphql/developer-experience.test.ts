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

  it('introspection answers unless GRAPHQL_INTROSPECTION=false', async () => {
    const q = '{ __schema { queryType { name } } }';
    expect((await dev.gql(q)).data.__schema.queryType.name).toBe('Query');
    const r = await prod.gql(q);
    expect(r.errors?.[0].message).toMatch(/introspection/i);
  });
});
