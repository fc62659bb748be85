// Hostile input (properties.ts says which properties hold) on every REST route: malformed path parameters, query
// strings and JSON bodies, real, forged or garbage credentials, and garbage tenant headers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authArb, JWT_NAMES, tenantHeadersArb } from './credentials.ts';
import { BASE_SEED, closingChecks, hostile } from './properties.ts';
import { counts, MAX_PARAM, resolvePath, withInvitationJwt, type Req } from './requests.ts';
import { useHostileServer } from './server.ts';
import {
  extremeInt,
  hostileJson,
  hostileString,
  nanishString,
  plausibleInt,
  plausibleString,
  wellFormed,
} from './values.ts';

/** Percent-encodes (UTF-8, lone surrogates as U+FFFD) and cuts to `max` encoded characters on a character boundary. */
function encodeSegment(x: string, max: number): string {
  let out = '';
  for (const ch of wellFormed(x)) {
    const e = encodeURIComponent(ch);
    if (out.length + e.length > max) break;
    out += e;
  }
  return out;
}

/** Path segments: ids of the seed data, edge numbers, number-ish text, odd text (percent-encoded as UTF-8). */
const segment = fc
  .oneof(
    { weight: 5, arbitrary: fc.integer({ min: 1, max: 12 }).map(String) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '1.5',
        '1e3',
        '0x1',
        '01',
        '2147483647',
        '2147483648',
        '4294967296',
        '9999999999',
        '99999999999',
        '9'.repeat(300),
        ' 1',
        '1 ',
        '+1',
        'NaN',
        'null',
        'undefined',
        'true',
        '[1]',
        '{"id":1}',
        '__proto__',
        '١',
        '１',
        '%',
        '%25',
        '.',
        '..',
        '...',
      ),
    },
    { weight: 3, arbitrary: hostileString },
  )
  .map((x) => encodeSegment(x, MAX_PARAM));

const queryValue = fc.oneof(
  nanishString,
  extremeInt.map(String),
  fc.integer({ min: -5, max: 120 }).map(String),
  hostileString.map((x) => x.slice(0, 1_000)),
  fc.constant(''),
);
const searchQuery = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'skip',
        'take',
        'search',
        'search',
        'skip[]',
        'take[0]',
        'search[a]',
        '__proto__',
        'constructor',
        'Take',
        'x',
        '',
      ),
      queryValue,
    ),
    { maxLength: 5 },
  )
  .map((pairs) => {
    const qs = new URLSearchParams();
    for (const [k, v] of pairs) qs.append(k, wellFormed(v));
    const text = qs
      .toString()
      .slice(0, 6_000)
      .replace(/%[0-9A-F]?$/, ''); // the request line stays under 16 KiB
    return text ? `?${text}` : '';
  });

const jwtSegment = fc.oneof(
  { weight: 2, arbitrary: fc.constant('<invitation-jwt>') },
  { weight: 2, arbitrary: fc.constantFrom(...JWT_NAMES).map((n) => `<jwt:${n}>`) },
  { weight: 4, arbitrary: segment },
  // Up to Fastify's maxParamLength.
  { weight: 1, arbitrary: fc.integer({ min: 1_500, max: MAX_PARAM }).map((n) => 'a'.repeat(n)) },
);

const restArb: fc.Arbitrary<Req> = fc
  .record({
    route: fc.constantFrom('post', 'comments', 'invitationJwt', 'patchInvitation', 'companies', 'tournaments', 'login'),
    seg: segment,
    jwtSeg: jwtSegment,
    qs: searchQuery,
    auth: authArb,
    tenant: tenantHeadersArb,
    patch: fc.oneof(
      fc.record(
        {
          externalId: fc.oneof(plausibleString, hostileJson),
          name: fc.oneof(plausibleString, hostileJson),
          email: fc.oneof(plausibleString, hostileJson),
          role: fc.oneof(fc.constantFrom('player', 'admin', 'reseller', 'manager', 'MANAGER', 'root'), hostileJson),
          company: fc.oneof(fc.record({ id: fc.oneof(plausibleInt, hostileJson) }), hostileJson),
          areaLevel1: fc.oneof(fc.record({ id: fc.oneof(plausibleInt, hostileJson) }), hostileJson),
          areaLevel2: fc.oneof(fc.record({ id: plausibleInt }), hostileJson),
          areaLevel3: fc.oneof(fc.record({ id: plausibleInt }), hostileJson),
          extra: hostileJson,
        },
        { requiredKeys: [] },
      ),
      hostileJson,
    ),
    login: fc.oneof(
      fc.record({ email: fc.oneof(plausibleString, hostileJson), password: fc.oneof(plausibleString, hostileJson) }),
      fc.record(
        {
          email: fc.oneof(plausibleString, hostileJson),
          password: fc.oneof(plausibleString, hostileJson),
          extra: hostileJson,
        },
        { requiredKeys: [] },
      ),
      hostileJson,
    ),
  })
  .map(({ route, seg, jwtSeg, qs, auth, tenant, patch, login }): Req => {
    const cat = `rest ${route}`;
    const json = { 'content-type': 'application/json' };
    switch (route) {
      case 'post':
        return { cat, method: 'GET', path: `/posts/${seg}`, headers: tenant, auth };
      case 'comments':
        return { cat, method: 'GET', path: `/posts/${seg}/comments`, headers: tenant, auth };
      case 'invitationJwt':
        return { cat, method: 'GET', path: `/invitations/jwt/${jwtSeg}`, headers: tenant, auth };
      case 'patchInvitation':
        return {
          cat,
          method: 'PATCH',
          path: `/invitations/${seg}`,
          headers: { ...json, ...tenant },
          body: JSON.stringify(patch) ?? 'null',
          auth,
        };
      case 'companies':
        return { cat, method: 'GET', path: `/companies/search${qs}`, headers: tenant, auth };
      case 'tournaments':
        return { cat, method: 'GET', path: `/tournaments/me${qs.length < 50 ? qs : ''}`, headers: tenant, auth };
      case 'login':
        return {
          cat,
          method: 'POST',
          path: '/auth/login',
          headers: { ...json, ...tenant },
          body: withInvitationJwt(JSON.stringify(login) ?? 'null'),
          auth,
        };
    }
  });

useHostileServer();

describe('hostile input: no 5xx, documented error bodies, coded GraphQL errors, no stack traces', () => {
  it('REST routes: malformed paths, queries, bodies, credentials and tenant headers', async () => {
    await hostile('rest', restArb.map(resolvePath), 125, BASE_SEED + 1);
    for (const route of ['post', 'comments', 'invitationJwt', 'patchInvitation', 'companies', 'tournaments', 'login'])
      expect(counts.get(`rest ${route}`) ?? 0, route).toBeGreaterThan(0);
  });

  closingChecks(500);
});
