import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s.close());

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document of the spec routes, login, sign-in and exports, every $ref resolving', async () => {
    const res = await fetch(`${s.url}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(
      Object.entries(doc.paths)
        .flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`))
        .sort(),
    ).toEqual([
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
    // What every route returns for a query parameter it does not take, and the JSON routes to another body type.
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>))
      for (const [method, op] of Object.entries(ops)) {
        expect(op.responses[400], `${method} ${path}`).toBeDefined();
        expect(op.responses[415] !== undefined, `${method} ${path}`).toBe(op.requestBody !== undefined);
        // Redocly's operation-2xx-response is off for the two sign-in routes that succeed with a redirect.
        const redirects = path === '/auth/sso/start' || path === '/auth/sso/callback';
        expect(
          Object.keys(op.responses).some((status) => /^2/.test(status)),
          `${method} ${path}`,
        ).toBe(!redirects);
        if (redirects) expect(op.responses[302], `${method} ${path}`).toBeDefined();
      }
    expect(doc.info.description).toContain('405');
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(20);
    for (const name of refs) expect(doc.components.schemas[name], name).toBeDefined();
    // The component schemas are valid JSON Schema 2020-12 (ajv compiles each in strict mode).
    const ajv = new Ajv2020({ strict: true });
    addFormats.default(ajv);
    const $defs = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'));
    for (const name of Object.keys($defs))
      expect(() => ajv.compile({ $defs, $ref: `#/$defs/${name}` }), name).not.toThrow();
  });

  it('GET /docs serves the page and its assets from the service itself', async () => {
    const page = await fetch(`${s.url}/docs`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('/docs/swagger-ui-bundle.js');
    const bundle = await fetch(`${s.url}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(`${s.url}/docs/../package.json`)).status).toBe(404);
  });

  it('GET /docs/<a name of Object.prototype> is a 404 with the error body, as an unknown route', async () => {
    const names = [
      ...Object.getOwnPropertyNames(Object.prototype),
      'prototype',
      '__defineGetter__',
      '%5F%5Fproto%5F%5F',
    ];
    expect(names).toEqual(
      expect.arrayContaining(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']),
    );
    for (const name of names) {
      const res = await fetch(`${s.url}/docs/${name}`);
      expect(res.status, name).toBe(404);
      expect(await res.json(), name).toEqual({
        statusCode: 404,
        error: 'Not Found',
        code: 'NOT_FOUND',
        message: expect.any(String),
      });
    }
  });
});
