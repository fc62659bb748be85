// The schemas derived from the stored operations (src/rest/schema-from-operations.ts) against the hand-written
// ones (src/rest/schemas.ts) on the real answers of the seeded server: the derived ones accept every answer, and
// refuse every change to one that the hand-written ones refuse.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSchema } from '../../src/graphql/schema.ts';
import { REST_ROUTES, routeKey } from '../../src/rest/route-table.ts';
import { restSchemas } from '../../src/rest/schema-from-operations.ts';
import { $defs as handDefs, routeResponses } from '../../src/rest/schemas.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { forgeInvitationLink } from '../helpers/tokens.ts';
import { mutationsOf } from './answer-mutations.ts';

const derived = restSchemas(getSchema(), Object.fromEntries(REST_ROUTES.map((r) => [routeKey(r), r])));
const ajv = new Ajv2020({ strict: true });
addFormats.default(ajv);
const validators = new Map<string, ReturnType<typeof ajv.compile>>();
const compile = (defs: object, schema: object) => {
  const key = JSON.stringify(schema) + (defs === handDefs ? ' hand' : ' derived');
  if (!validators.has(key)) validators.set(key, ajv.compile({ $defs: defs, ...schema }));
  return validators.get(key)!;
};

let s: TestServer;
const answers: Array<{ route: string; body: unknown }> = [];
beforeAll(async () => {
  s = await startTestServer();
  const as = async (user: 'player' | 'admin' | 'reseller' | 'manager', appPath: string) => ({
    ...bearer(await s.loginAs(user)),
    'x-app-path': appPath,
  });
  const call = async (route: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const [method] = route.split(' ');
    const res = await fetch(`${s.url}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json', ...headers } : headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(res.status, `${route} ${path}`).toBe(200);
    answers.push({ route, body: await res.json() });
  };
  const player = await as('player', 'demo');
  const admin = await as('admin', 'demo');
  const posts = await s.t.db.prisma.post.findMany({ where: { company: { appPath: 'demo' } } });
  for (const post of posts) {
    await call('GET /posts/{id}', `/posts/${post.id}`, { authorization: player.authorization });
    await call('GET /posts/{postId}/comments', `/posts/${post.id}/comments`, { authorization: player.authorization });
  }
  for (const invitation of Object.values(s.demo.invitations)) {
    await call('GET /invitations/jwt/{jwt}', `/invitations/jwt/${await forgeInvitationLink(invitation)}`, {});
  }
  const invitation = s.demo.invitations['new.hire1@demo.test'];
  await call('PATCH /invitations/{id}', `/invitations/${invitation}`, admin, { name: 'Drift Test' });
  for (const [user, appPath] of [
    ['reseller', 'partners'],
    ['manager', 'demo'],
    ['player', 'demo'],
  ] as const) {
    await call('GET /companies/search', '/companies/search', await as(user, appPath));
    await call('GET /tournaments/me', '/tournaments/me', await as(user, appPath));
  }
  await call(
    'POST /auth/login',
    '/auth/login',
    { 'x-app-path': 'demo' },
    { email: 'admin@demo.test', password: 'Prode-demo-2026!' },
  );
}, 120_000);
afterAll(() => s.close());

describe('the derived REST schemas against the hand-written ones', () => {
  it('name the same routes', () => {
    expect(Object.keys(derived.responses).sort()).toEqual(Object.keys(routeResponses).sort());
  });

  it('accept every real answer', () => {
    expect(answers.length).toBeGreaterThan(10);
    for (const { route, body } of answers) {
      const hand = compile(handDefs, routeResponses[route]);
      const ours = compile(derived.$defs, derived.responses[route]);
      expect(hand(body), `hand-written ${route}`).toBe(true);
      expect(ours(body) ? [] : ours.errors, route).toEqual([]);
    }
  });

  it('refuse every change to a real answer that the hand-written ones refuse', () => {
    const missed: string[] = [];
    let refusedByHand = 0;
    for (const { route, body } of answers) {
      const hand = compile(handDefs, routeResponses[route]);
      const ours = compile(derived.$defs, derived.responses[route]);
      for (const m of mutationsOf(body)) {
        m.apply();
        const handRefuses = !hand(body);
        const oursRefuses = !ours(body);
        m.undo();
        if (handRefuses) refusedByHand++;
        if (handRefuses && !oursRefuses) missed.push(`${route} ${m.at} ${m.what}`);
      }
      expect(hand(body), `${route} is whole again`).toBe(true);
    }
    expect(refusedByHand).toBeGreaterThan(1000);
    expect(missed).toEqual([]);
  }, 300_000);
});
