// Credentials and tenant headers for hostile requests: the names of the tokens a request may carry (minted here
// once the server runs: the real tokens of a player and a reseller, and forged, tampered, expired and odd JWTs), and
// generators for Authorization and tenant headers, real or garbage.
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import type { TestServer } from '../../helpers/app.ts';
import { signJwt } from '../../helpers/tokens.ts';
import type { Auth } from './requests.ts';
import { extremeInt } from './values.ts';

const claimsOf = (payload: string) => JSON.parse(Buffer.from(payload, 'base64url').toString());
const b64url = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

/** Every token of JWT_NAMES, minted for the server's demo data. */
export async function mintJwts(s: TestServer, invitationJwt: string): Promise<Record<string, string>> {
  const player = await s.loginAs('player');
  const reseller = await s.loginAs('reseller');
  const { users, companies } = s.demo;
  const ids = {
    player: users['player1@demo.test'],
    demo: companies.DEMO,
    globex: companies.GLOBEX,
    globexAdmin: users['admin@globex.test'],
  };
  const now = Math.floor(Date.now() / 1000);
  const mine = { cid: ids.demo, role: 'player', typ: 'access' };
  const sub = String(ids.player);
  const [h, payload, sig] = player.split('.');
  const flip = (x: string) => x.slice(0, -2) + (x.at(-2) === 'A' ? 'B' : 'A') + x.at(-1);
  return {
    player,
    reseller,
    algNone: `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`,
    algNoneKeptSignature: `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.${sig}`,
    algHS512: await signJwt(mine, { alg: 'HS512', sub }),
    tamperedSignature: `${h}.${payload}.${flip(sig)}`,
    tamperedPayload: `${h}.${b64url({ ...claimsOf(payload), role: 'manager', cid: ids.globex })}.${sig}`,
    truncatedSignature: `${h}.${payload}.${sig.slice(0, 10)}`,
    wrongSecret: await signJwt(mine, { secret: 'not-the-secret-but-long-enough-for-hs256-0123456789', sub }),
    expired: await signJwt(mine, { sub, exp: now - 60 }),
    notYetValid: await signJwt(mine, { sub, nbf: now + 3600 }),
    wrongIssuer: await signJwt(mine, { sub, iss: 'someone-else' }),
    noIssuer: await signJwt(mine, { sub, iss: null }),
    // Signed with the service's own secret, but the claims name another tenant than the user's.
    otherTenant: await signJwt({ ...mine, cid: ids.globex }, { sub }),
    otherTenantAdmin: await signJwt({ cid: ids.demo, role: 'admin', typ: 'access' }, { sub: String(ids.globexAdmin) }),
    roleEscalation: await signJwt({ ...mine, role: 'manager' }, { sub }),
    invitationAsAccess: invitationJwt,
    noTyp: await signJwt({ cid: ids.demo, role: 'player' }, { sub }),
    cidString: await signJwt({ ...mine, cid: String(ids.demo) }, { sub }),
    subText: await signJwt(mine, { sub: 'player1' }),
    subNegative: await signJwt(mine, { sub: '-1' }),
    subHuge: await signJwt(mine, { sub: '99999999999999999999999' }),
    subBeyondInt32: await signJwt(mine, { sub: String(2 ** 31) }),
    subMaxSafe: await signJwt(mine, { sub: String(Number.MAX_SAFE_INTEGER) }),
    subMissing: await signJwt(mine),
    unknownUser: await signJwt(mine, { sub: '987654' }),
  };
}

export const JWT_NAMES = [
  'player',
  'reseller',
  'algNone',
  'algNoneKeptSignature',
  'algHS512',
  'tamperedSignature',
  'tamperedPayload',
  'truncatedSignature',
  'wrongSecret',
  'expired',
  'notYetValid',
  'wrongIssuer',
  'noIssuer',
  'otherTenant',
  'otherTenantAdmin',
  'roleEscalation',
  'invitationAsAccess',
  'noTyp',
  'cidString',
  'subText',
  'subNegative',
  'subHuge',
  'subBeyondInt32',
  'subMaxSafe',
  'subMissing',
  'unknownUser',
];
/** What fetch can carry in a header value: tab, visible ASCII and Latin-1 (obs-text); no CR, LF, NUL or controls. */
const headerChar = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
  fc.constant('\t'),
);
const headerGarbage = fc.oneof(
  { weight: 2, arbitrary: fc.string({ unit: headerChar, minLength: 1, maxLength: 60 }) },
  // Long, but all headers together stay under Node's 16 KiB header limit (past it: the malformed-URL test).
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 100, max: 3_000 }), fc.string({ unit: headerChar, minLength: 1, maxLength: 3 }))
      .map(([n, u]) => u.repeat(n).slice(0, n)),
  },
  // Number-like: ids, and numbers past every integer type (x-app-company takes a company id).
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: -5, max: 10 }), extremeInt)
      .map(String),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'demo',
      'DEMO',
      ' demo ',
      'partners',
      'prode.globex.test',
      'PRODE.GLOBEX.TEST',
      'GLOBEX',
      'globex',
      'DEMO-CORP',
      '1',
      '2',
      '3',
      '0',
      '-1',
      '1.0',
      '1e3',
      '0x1',
      '2147483648',
      '99999999999',
      '99999999999999999999',
      '9'.repeat(400),
      "' OR 1=1 --",
      '%',
      '_',
      '*',
      '..',
      '../',
      'NaN',
      'null',
      '[object Object]',
      'Ã©',
    ),
  },
);
/** The Authorization header: a real or forged token, no header, or a malformed header. */
export const authArb: fc.Arbitrary<Auth> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('player', 'player', 'reseller').map((name): Auth => ({ kind: 'jwt', name })),
  },
  { weight: 2, arbitrary: fc.constant<Auth>({ kind: 'none' }) },
  { weight: 5, arbitrary: fc.constantFrom(...JWT_NAMES).map((name): Auth => ({ kind: 'jwt', name })) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        headerGarbage,
        headerGarbage.map((g) => `Bearer ${g}`),
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'bearer x.y.z',
          'BEARER a.b.c',
          'Basic dXNlcjpwYXNz',
          'Bearer a b',
          'Bearer ..',
          'Bearer e30.e30.',
          'Bearer e30.e30.e30',
          'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.',
          'Token abc',
          'Bearer\tx',
          `Bearer ${'a'.repeat(3000)}`,
          'Bearer %00',
          'Bearer ÿÿÿ.ÿÿÿ.ÿÿÿ',
        ),
      )
      .map((value): Auth => ({ kind: 'header', value })),
  },
);
export const tenantHeadersArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant({}) },
  {
    weight: 4,
    arbitrary: fc.record(
      { 'x-app-path': headerGarbage, 'x-app-host': headerGarbage, 'x-app-company': headerGarbage },
      { requiredKeys: [] },
    ),
  },
);
