// Contract: every REST route's responses on the demo data validate against the JSON Schemas derived from the stored
// operations (src/rest/schema-from-operations.ts; ajv, strict mode, additionalProperties false), and so do error
// bodies.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSchema } from '../../src/graphql/schema.ts';
import { REST_ROUTES, routeKey } from '../../src/rest/route-table.ts';
import { restSchemas } from '../../src/rest/schema-from-operations.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { forgeInvitationLink, mintLoginCode } from '../helpers/tokens.ts';

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);
const { $defs, responses: routeResponses } = restSchemas(
  getSchema(),
  Object.fromEntries(REST_ROUTES.map((r) => [routeKey(r), r])),
);
const validator = (schema: object) => ajv.compile({ $defs, ...schema });

let s: TestServer;
let h: Record<string, Record<string, string>>;
let ids: { post: number; invitation: number };
beforeAll(async () => {
  s = await startTestServer();
  h = {
    player: { ...bearer(await s.loginAs('player')), 'x-app-path': 'demo' },
    admin: { ...bearer(await s.loginAs('admin')), 'x-app-path': 'demo' },
    reseller: { ...bearer(await s.loginAs('reseller')), 'x-app-path': 'partners' },
  };
  // A post with an image, written by an admin: exercises imageUrl and the company display author.
  ids = { post: s.demo.posts.demo[1], invitation: s.demo.invitations['new.hire1@demo.test'] };
});
afterAll(() => s.close());

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json', ...headers } : headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

function expectValid(route: string, body: unknown) {
  const validate = validator(routeResponses[route]);
  const ok = validate(body);
  expect(
    ok ? [] : validate.errors!.slice(0, 5).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`),
    route,
  ).toEqual([]);
}

describe('REST responses match the spec schemas', () => {
  it('GET /posts/{id} (every post of the demo)', async () => {
    const posts = await s.t.db.prisma.post.findMany({ where: { company: { appPath: 'demo' } } });
    for (const post of posts) {
      const r = await call('GET', `/posts/${post.id}`, { authorization: h.player.authorization });
      expect(r.status).toBe(200);
      expectValid('GET /posts/{id}', r.body);
    }
    const withImage = await call('GET', `/posts/${ids.post}`, { authorization: h.player.authorization });
    expect(withImage.body.imageUrl).toMatch(/^https:/);
  });

  it('GET /posts/{postId}/comments', async () => {
    const r = await call('GET', `/posts/${ids.post}/comments`, { authorization: h.player.authorization });
    expect(r.body.length).toBeGreaterThan(0);
    expectValid('GET /posts/{postId}/comments', r.body);
  });

  it('GET /invitations/jwt/{jwt}', async () => {
    const r = await call('GET', `/invitations/jwt/${await forgeInvitationLink(ids.invitation)}`, {});
    expect(r.status).toBe(200);
    expectValid('GET /invitations/jwt/{jwt}', r.body);
  });

  it('PATCH /invitations/{id}', async () => {
    const r = await call('PATCH', `/invitations/${ids.invitation}`, h.admin, { name: 'Contract Test' });
    expect(r.status).toBe(200);
    expectValid('PATCH /invitations/{id}', r.body);
  });

  it('GET /companies/search (a reseller: three companies with tournaments, predictions and managers)', async () => {
    const r = await call('GET', '/companies/search', h.reseller);
    expect(r.body).toHaveLength(3);
    expectValid('GET /companies/search', r.body);
  });

  it('GET /tournaments/me', async () => {
    const r = await call('GET', '/tournaments/me', h.player);
    expect(r.body.length).toBeGreaterThan(0);
    expectValid('GET /tournaments/me', r.body);
  });

  it('POST /auth/login', async () => {
    const r = await call(
      'POST',
      '/auth/login',
      { 'x-app-path': 'demo' },
      { email: 'admin@demo.test', password: 'Prode-demo-2026!' },
    );
    expectValid('POST /auth/login', r.body);
  });

  it('POST /auth/sso/exchange answers as POST /auth/login', async () => {
    const admin = await s.t.db.prisma.user.findFirstOrThrow({ where: { email: 'admin@demo.test' } });
    const r = await call('POST', '/auth/sso/exchange', {}, { code: await mintLoginCode(s.t.db.prisma, admin) });
    expect(r.status).toBe(200);
    expectValid('POST /auth/sso/exchange', r.body);
  });

  it('GET /auth/sso/methods', async () => {
    const r = await call('GET', '/auth/sso/methods?company=demo', {});
    expect(r.status).toBe(200);
    expectValid('GET /auth/sso/methods', r.body);
  });

  it('error bodies', async () => {
    const validate = validator({ $ref: '#/$defs/Error' });
    for (const r of [
      await call('GET', '/posts/abc', h.player),
      await call('GET', '/posts/1', {}),
      await call('GET', '/posts/99999', h.player),
    ]) {
      expect(validate(r.body), JSON.stringify(r.body)).toBe(true);
    }
  });

  it('the schemas are strict enough to catch a leaked secret or a missing required field', async () => {
    const r = await call('GET', `/posts/${ids.post}`, { authorization: h.player.authorization });
    const validate = validator(routeResponses['GET /posts/{id}']);
    expect(validate({ ...r.body, user: { ...r.body.user, passwordHash: 'scrypt$x' } })).toBe(false);
    expect(validate({ ...r.body, user: { ...r.body.user, recoverPasswordToken: 'abc' } })).toBe(false);
    const { likedByMe: _drop, ...missing } = r.body;
    expect(validate(missing)).toBe(false);
  });
});
