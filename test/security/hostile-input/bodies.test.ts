// Hostile input (properties.ts says which properties hold) in request bodies and the text they carry: bad JSON,
// invalid UTF-8, wrong content types and bodies over 1 MiB, on every route that takes a body; and the NUL
// character, which no text input accepts whatever the database.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../helpers/app.ts';
import { authArb, tenantHeadersArb } from './credentials.ts';
import { BASE_SEED, closingChecks, hostile } from './properties.ts';
import type { Req } from './requests.ts';
import { target, useHostileServer } from './server.ts';
import { hostileJson } from './values.ts';

const MiB = 1024 * 1024;
const badJsonText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    '[',
    '{"query":',
    '{"query": "{ me { id } }"',
    "{'query': '{ me { id } }'}",
    '{query: "{ me { id } }"}',
    'null',
    'true',
    '0',
    '-1',
    '"x"',
    '[]',
    '{}',
    '[{}]',
    '{"query": NaN}',
    '{"query": "{ me { id } }", "variables": {"x": Infinity}}',
    '{"a":1,}',
    '{"a":1}{"b":2}',
    '{"a":1} trailing',
    '\ufeff{"query":"{ me { id } }"}',
    '{"__proto__": {"isAdmin": true}, "query": "{ me { id } }"}',
    '{"constructor": {"prototype": {"x": 1}}, "query": "{ me { id } }"}',
    '{"query": "{ me { id } }", "query": "{ company { id } }"}',
    '{"email": "a", "email": "b", "password": "c"}',
    '{"email":"\\ud800","password":"\\udfff"}',
    '{"email": "player1@demo.test", "password": "x", "__proto__": {"email": "x"}}',
    '{"name": "\\u0000", "areaLevel1": {"id": 1e400}}',
    '{"id": 1e400}',
    '{"name": "a", "company": {"id": "1"}}',
    '{"name": "a", "areaLevel2": {"id": 2147483648}}',
    '{"role": "manager"}',
    '{"role": null}',
    '{"company": null}',
    '{"x": 1}',
    '{"email": ["a"], "password": {"b": 1}}',
    '\u0000',
    '\u202e{}',
    '{"a": "\u0000"}',
  ),
  fc.string({ maxLength: 100 }),
  fc.integer({ min: 1_000, max: 200_000 }).map((d) => `${'['.repeat(d)}${']'.repeat(d)}`), // deep JSON
  fc
    .integer({ min: 1_000, max: 100_000 })
    .map((d) => `{"query": "{ me { id } }", "variables": ${'{"a":'.repeat(d)}1${'}'.repeat(d)}}`),
  fc
    .integer({ min: 1_000, max: 50_000 })
    .map((n) => `{${Array.from({ length: n }, (_, i) => `"k${i}": ${i}`).join(',')}}`), // many keys
);
const invalidUtf8 = fc
  .oneof(
    fc
      .constantFrom(
        [0xff],
        [0xfe, 0xff],
        [0xc0, 0xaf],
        [0xed, 0xa0, 0x80],
        [0xf4, 0x90, 0x80, 0x80],
        [0xe2, 0x82],
        [0x80],
        [0x00],
      )
      .map((b) => Buffer.from(b)),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b)),
  )
  .map((bad) =>
    Buffer.concat([Buffer.from('{"query": "{ me { id } }", "email": "'), bad, Buffer.from('", "name": "x"}')]),
  );
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/JSON',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/json;',
  'application/json; x="',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/graphql',
  'application/graphql-response+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/xml',
  'text/html',
  'application/octet-stream',
  'application/vnd.api+json',
  'application/problem+json',
  '*/*',
  'json',
  ';',
  ' ',
  'application/json\t; charset=utf-8',
  'x/y; charset=utf-8',
  'application/jsonx',
];
const BODY_ROUTES = [
  { method: 'POST', path: '/graphql', graphql: true },
  { method: 'POST', path: '/auth/login' },
  { method: 'PATCH', path: '/invitations/1' },
  { method: 'PATCH', path: '/invitations/2' },
];
const bodyArb: fc.Arbitrary<Req> = fc
  .record({
    route: fc.constantFrom(...BODY_ROUTES),
    contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined, freq: 8 }),
    body: fc.oneof(
      { weight: 5, arbitrary: badJsonText },
      { weight: 3, arbitrary: hostileJson.map((v) => JSON.stringify(v) ?? 'null') },
      { weight: 2, arbitrary: invalidUtf8 },
      { weight: 1, arbitrary: fc.constant('{"query": "{ me { id } }"}') },
      // Over 1 MiB: declared, or streamed without a length.
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.integer({ min: MiB + 1, max: 3 * MiB }), fc.constantFrom('json', 'raw'))
          .map(([n, kind]) =>
            kind === 'json' ? `{"query": "{ me { id } }", "pad": "${'x'.repeat(n)}"}` : 'y'.repeat(n),
          ),
      },
    ),
    auth: authArb,
    tenant: tenantHeadersArb,
  })
  .map(({ route, contentType, body, auth, tenant }) => ({
    cat: 'bodies and content types',
    method: route.method,
    path: route.path,
    graphql: route.graphql,
    headers: { ...tenant, ...(contentType === undefined ? {} : { 'content-type': contentType }) },
    body,
    auth,
  }));

useHostileServer();

describe('hostile input: no 5xx, documented error bodies, coded GraphQL errors, no stack traces', () => {
  it(
    'a NUL character in any text input is BAD_USER_INPUT, in literals, variables and REST bodies, ' +
      'on every database',
    async () => {
      const { s, jwts } = target;
      const nul = 'a\u0000b';
      const cases: Array<[string, Record<string, unknown>]> = [
        ['mutation($t: String!) { createPost(text: $t) { id } }', { t: nul }],
        ['mutation { createPost(text: "x\\u0000y") { id } }', {}],
        ['mutation($e: String!) { login(email: $e, password: "whatever-password") { token } }', { e: nul }],
        ['query($s: String) { companiesSearch(search: $s) { id } }', { s: nul }],
        ['mutation($n: String!) { createInternalRanking(name: $n, tournamentId: 1) { id } }', { n: nul }],
      ];
      for (const [query, variables] of cases) {
        const r = await s.gql(query, variables, bearer(jwts.player));
        expect(r.status, query).toBe(400);
        expect(r.errors?.[0].extensions.code, query).toBe('BAD_USER_INPUT');
        expect(r.errors?.[0].message, query).toMatch(/NUL character/);
      }
      const rest = await fetch(`${s.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-app-path': 'demo' },
        body: JSON.stringify({ email: nul, password: nul }),
      });
      expect(rest.status).toBe(400);
      expect(await rest.json()).toMatchObject({ statusCode: 400, code: 'BAD_USER_INPUT' });
      const search = await fetch(`${s.url}/companies/search?search=a%00b`, { headers: bearer(jwts.player) });
      expect(search.status).toBe(400);
    },
  );

  it('bodies: bad JSON, invalid UTF-8, wrong content types, over 1 MiB', async () => {
    await hostile('bodies', bodyArb, 30, BASE_SEED + 6);
  });

  closingChecks(120);
});
