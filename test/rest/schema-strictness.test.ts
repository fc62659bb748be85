// The REST schemas derived from the stored operations (src/rest/schema-from-operations.ts) are strict, on the real
// responses of the seeded server: every change to a response is refused where the schema can tell (a key dropped or
// added, an item added, a value of another type, another value where the key has an enum or a format). Only the
// free-form keys (a JSON scalar or object, as the GraphQL type is) let a change through. The contract tests
// (contract.test.ts) hold the same responses, unchanged, to the same schemas.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSchema } from '../../src/graphql/schema.ts';
import { REST_ROUTES, routeKey } from '../../src/rest/route-table.ts';
import { restSchemas } from '../../src/rest/schema-from-operations.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { forgeInvitationLink, mintLoginCode } from '../helpers/tokens.ts';
import { mutationsOf, type Mutation } from './response-mutations.ts';

type Schema = Record<string, unknown>;
const { $defs, responses } = restSchemas(getSchema(), Object.fromEntries(REST_ROUTES.map((r) => [routeKey(r), r])));
const ajv = new Ajv2020({ strict: true });
addFormats.default(ajv);
const validators = new Map(
  Object.entries(responses).map(([route, schema]) => [route, ajv.compile({ $defs, ...schema })]),
);

/** The schema of the value at a JSON pointer: through $ref, the non-null branch of anyOf, properties and items. */
function schemaAt(schema: Schema, pointer: string): Schema {
  const resolve = (s: Schema): Schema => {
    if (typeof s.$ref === 'string') return resolve($defs[s.$ref.replace('#/$defs/', '')]);
    const branch = (s.anyOf as Schema[] | undefined)?.find((b) => b.type !== 'null');
    return branch ? resolve(branch) : s;
  };
  let at = resolve(schema);
  for (const step of pointer.split('/').slice(1)) {
    const next = /^\d+$/.test(step) ? at.items : (at.properties as Record<string, Schema> | undefined)?.[step];
    // Inside a free-form value everything is free-form.
    at = next ? resolve(next as Schema) : {};
  }
  return at;
}

const parentOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf('/'));
const ofType = (s: Schema, v: unknown) =>
  s.type === 'integer'
    ? Number.isInteger(v)
    : s.type === 'array'
      ? Array.isArray(v)
      : s.type === 'object'
        ? typeof v === 'object' && v !== null && !Array.isArray(v)
        : s.type === undefined
          ? ((s.enum as unknown[] | undefined)?.includes(v) ?? true)
          : typeof v === s.type;
const freeForm = (s: Schema) =>
  (s.type === undefined && s.enum === undefined) || (s.type === 'object' && !s.properties);

/** Whether the schema can tell the changed response from the real one. */
function refusable(root: Schema, m: Mutation): boolean {
  const at = schemaAt(root, m.kind === 'drop' ? parentOf(m.at) : m.at);
  if (m.kind === 'drop' || m.kind === 'add') return !freeForm(at);
  if (m.kind === 'item') return at.maxItems === 0 || !freeForm(schemaAt(root, `${m.at}/0`));
  // A null's replacement may be of the key's own type: then only its type can refuse it.
  if (m.kind === 'retype') return !freeForm(at) && !ofType(at, m.to);
  return at.enum !== undefined || at.format !== undefined;
}

let s: TestServer;
const bodies: Array<{ route: string; body: unknown }> = [];
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
    bodies.push({ route, body: await res.json() });
  };
  const player = await as('player', 'demo');
  const admin = await as('admin', 'demo');
  const posts = await s.t.db.prisma.post.findMany({ where: { company: { appPath: 'demo' } } });
  for (const post of posts) {
    await call('GET /posts/{id}', `/posts/${post.id}`, { authorization: player.authorization });
    await call('GET /posts/{postId}/comments', `/posts/${post.id}/comments`, { authorization: player.authorization });
  }
  for (const invitation of Object.values(s.demo.invitations))
    await call('GET /invitations/jwt/{jwt}', `/invitations/jwt/${await forgeInvitationLink(invitation)}`, {});
  const invitation = s.demo.invitations['new.hire1@demo.test'];
  await call('PATCH /invitations/{id}', `/invitations/${invitation}`, admin, { name: 'Strictness Test' });
  for (const [user, appPath] of [
    ['reseller', 'partners'],
    ['manager', 'demo'],
    ['player', 'demo'],
  ] as const) {
    await call('GET /companies/search', '/companies/search', await as(user, appPath));
    await call('GET /tournaments/me', '/tournaments/me', await as(user, appPath));
  }
  const login = { email: 'admin@demo.test', password: 'Prode-demo-2026!' };
  await call('POST /auth/login', '/auth/login', { 'x-app-path': 'demo' }, login);
  const player1 = await s.t.db.prisma.user.findFirstOrThrow({ where: { email: 'player1@demo.test' } });
  const code = await mintLoginCode(s.t.db.prisma, player1);
  await call('POST /auth/sso/exchange', '/auth/sso/exchange', {}, { code });
  // Both providers offered, so the answer has each kind of issuer (Google's, and null for the company's).
  s.config.sso.google = { issuer: 'https://accounts.google.test', clientId: 'g', clientSecret: 'gs' };
  await s.t.db.prisma.companySso.create({
    data: {
      companyId: player1.companyId,
      issuer: 'https://sso.demo.test',
      clientId: 'c',
      clientSecret: 'cs',
      emailDomains: [],
    },
  });
  await call('GET /auth/sso/methods', '/auth/sso/methods?company=demo&redirect=/home', {});
}, 120_000);
afterAll(() => s.close());

describe('the derived REST schemas', () => {
  it('accept every real response of every route', () => {
    expect(new Set(bodies.map((a) => a.route))).toEqual(new Set(Object.keys(responses)));
    for (const { route, body } of bodies) {
      const validate = validators.get(route)!;
      expect(validate(body) ? [] : validate.errors, route).toEqual([]);
    }
  });

  it('refuse every change to a real response that they can tell, and let through only free-form keys', () => {
    const missed: string[] = [];
    const counts = { refused: 0, free: 0 };
    // The smaller responses first: each place in a route's shape is changed once, in the smallest response that has it.
    const bySize = [...bodies].sort((a, b) => JSON.stringify(a.body).length - JSON.stringify(b.body).length);
    const seen = new Map<string, Set<string>>();
    for (const { route, body } of bySize) {
      if (!seen.has(route)) seen.set(route, new Set());
      const validate = validators.get(route)!;
      for (const m of mutationsOf(body, seen.get(route))) {
        const expected = refusable(responses[route], m);
        m.apply();
        const refused = !validate(body);
        m.undo();
        if (expected && !refused) missed.push(`${route} ${m.at} ${m.what}`);
        counts[refused ? 'refused' : 'free']++;
      }
      expect(validate(body), `${route} is whole again`).toBe(true);
    }
    expect(missed).toEqual([]);
    expect(counts.refused).toBeGreaterThan(1000);
  }, 300_000);
});
