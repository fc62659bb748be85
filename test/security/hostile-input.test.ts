// Hostile input, property-based (fast-check): well over a thousand generated malformed requests over real HTTP
// against every REST route and every GraphQL root field (read from the built schema, so a new operation is
// covered without touching this file), plus transport-level abuse: bad JSON, wrong content types, oversized
// bodies, deep / wide / alias- and fragment-multiplied documents, batches, unknown operations, badly typed
// variables, forged and broken JWTs, garbage tenant headers, malformed URLs and malformed HTTP.
//
// Properties, for every answer:
// - never a 5xx, never a hang (each request has a deadline), never a stack trace or internals;
// - REST (and anything answered outside GraphQL): 2xx, or 4xx with exactly the documented body
//   { statusCode, error, code, message } (DESIGN.md "Errors"), statusCode equal to the HTTP status;
// - GraphQL: 2xx with data, or `errors` where every error has an extensions.code that is not
//   INTERNAL_SERVER_ERROR.
// After the run the server still answers a normal authenticated query correctly, and /healthz is 200.
//
// Every fc.assert has a fixed seed: a failure prints the seed and path that reproduce it, and the error message
// carries the exact request.
import { Buffer } from 'node:buffer';
import net from 'node:net';
import fc from 'fast-check';
import {
  getNamedType, getNullableType, isEnumType, isInputObjectType, isInterfaceType, isLeafType, isListType, isNonNullType, isObjectType,
  isScalarType, isUnionType, type GraphQLArgument, type GraphQLField, type GraphQLInputType, type GraphQLOutputType,
} from 'graphql';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInvitationToken } from '../../src/auth/tokens.ts';
import { getSchema } from '../../src/graphql/schema.ts';
import { bearer, DEMO_PASSWORD, startTestServer, TEST_JWT_SECRET, type TestServer } from '../helpers/app.ts';

// ---------------------------------------------------------------------------------------------------------------
// Run parameters

/** Requests in flight at once (each fast-check run sends this many concurrently). */
const POOL = 4;
/** A request that takes longer than this is a hang. */
const DEADLINE_MS = 15_000;
const MIN_REQUESTS = 1000;
const BASE_SEED = 20_260_611;
/** Runs per GraphQL root field (each run sends POOL requests). */
const FIELD_RUNS = 6;

// ---------------------------------------------------------------------------------------------------------------
// The server and the credentials the generators draw from

let s: TestServer;
const jwts: Record<string, string> = {};
let invitationJwt = '';
let ids: { player: number; demo: number; globex: number; globexAdmin: number; invitation: number };

const b64url = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const secretKey = (secret: string) => new TextEncoder().encode(secret);

async function sign(claims: Record<string, unknown>, opts: { secret?: string; alg?: string; sub?: string; iss?: string; exp?: number; nbf?: number } = {}) {
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: opts.alg ?? 'HS256', typ: 'JWT' }).setIssuedAt();
  if (opts.sub !== undefined) jwt = jwt.setSubject(opts.sub);
  if (opts.iss !== '') jwt = jwt.setIssuer(opts.iss ?? 'prode-gateway');
  jwt = jwt.setExpirationTime(opts.exp ?? now + 3600);
  if (opts.nbf !== undefined) jwt = jwt.setNotBefore(opts.nbf);
  return jwt.sign(secretKey(opts.secret ?? TEST_JWT_SECRET));
}

beforeAll(async () => {
  s = await startTestServer();
  jwts.player = await s.login('player1@demo.test', 'demo');
  jwts.reseller = await s.login('reseller@partners.test', 'partners');
  const p = s.t.db.prisma;
  const player = await p.user.findFirstOrThrow({ where: { email: 'player1@demo.test' } });
  const globex = await p.company.findFirstOrThrow({ where: { appCustomDomain: 'prode.globex.test' } });
  const globexAdmin = await p.user.findFirstOrThrow({ where: { email: 'admin@globex.test' } });
  const invitation = await p.invitation.findFirstOrThrow({ where: { companyId: player.companyId }, orderBy: { id: 'asc' } });
  ids = { player: player.id, demo: player.companyId, globex: globex.id, globexAdmin: globexAdmin.id, invitation: invitation.id };
  invitationJwt = await signInvitationToken(invitation.id, TEST_JWT_SECRET);

  const now = Math.floor(Date.now() / 1000);
  const mine = { cid: ids.demo, role: 'player', typ: 'access' };
  const [h, payload, sig] = jwts.player.split('.');
  const flip = (x: string) => x.slice(0, -2) + (x.at(-2) === 'A' ? 'B' : 'A') + x.at(-1);
  Object.assign(jwts, {
    algNone: `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`,
    algNoneKeptSignature: `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.${sig}`,
    algHS512: await sign(mine, { alg: 'HS512', sub: String(ids.player) }),
    tamperedSignature: `${h}.${payload}.${flip(sig)}`,
    tamperedPayload: `${h}.${b64url({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), role: 'manager', cid: ids.globex })}.${sig}`,
    truncatedSignature: `${h}.${payload}.${sig.slice(0, 10)}`,
    wrongSecret: await sign(mine, { secret: 'not-the-secret-but-long-enough-for-hs256-0123456789', sub: String(ids.player) }),
    expired: await sign(mine, { sub: String(ids.player), exp: now - 60 }),
    notYetValid: await sign(mine, { sub: String(ids.player), nbf: now + 3600 }),
    wrongIssuer: await sign(mine, { sub: String(ids.player), iss: 'someone-else' }),
    noIssuer: await sign(mine, { sub: String(ids.player), iss: '' }),
    // Signed with the service's own secret, but the claims name another tenant than the user's.
    otherTenant: await sign({ ...mine, cid: ids.globex }, { sub: String(ids.player) }),
    otherTenantAdmin: await sign({ cid: ids.demo, role: 'admin', typ: 'access' }, { sub: String(ids.globexAdmin) }),
    roleEscalation: await sign({ ...mine, role: 'manager' }, { sub: String(ids.player) }),
    invitationAsAccess: invitationJwt,
    noTyp: await sign({ cid: ids.demo, role: 'player' }, { sub: String(ids.player) }),
    cidString: await sign({ ...mine, cid: String(ids.demo) }, { sub: String(ids.player) }),
    subText: await sign(mine, { sub: 'player1' }),
    subNegative: await sign(mine, { sub: '-1' }),
    subHuge: await sign(mine, { sub: '99999999999999999999999' }),
    subBeyondInt32: await sign(mine, { sub: String(2 ** 31) }),
    subMaxSafe: await sign(mine, { sub: String(Number.MAX_SAFE_INTEGER) }),
    subMissing: await sign(mine),
    unknownUser: await sign(mine, { sub: '987654' }),
  });
});
afterAll(() => s?.close());

// ---------------------------------------------------------------------------------------------------------------
// Requests, answers, properties

interface Req {
  cat: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The answer is GraphQL's (or the transport's, for a /graphql request refused before GraphQL runs). */
  graphql?: boolean;
  /** Bytes written as they are to a socket, for what fetch refuses to send. */
  raw?: Buffer;
  /** Credential placeholder resolved at send time (the tokens exist only after beforeAll). */
  auth?: Auth;
}

interface Res {
  status: number;
  text: string;
  ms: number;
}

type Auth = { kind: 'none' } | { kind: 'jwt'; name: string } | { kind: 'header'; value: string };

const counts = new Map<string, number>();
let sent = 0;

const clip = (x: string, n = 300) => (x.length > n ? `${x.slice(0, n)}... (${x.length} chars)` : x);
function describeReq(r: Req): string {
  if (r.raw) return `raw bytes ${JSON.stringify(clip(r.raw.toString('latin1'), 400))}`;
  const body = r.body === undefined ? '' : ` body=${JSON.stringify(clip(typeof r.body === 'string' ? r.body : `<bytes ${Buffer.from(r.body).toString('hex').slice(0, 200)}>`))}`;
  // Tokens are named by kind (see beforeAll), not printed: they are minted afresh on every run.
  const headers = { ...(r.headers ?? {}), ...(r.auth?.kind === 'jwt' ? { authorization: `Bearer <${r.auth.name} token>` } : {}), ...(r.auth?.kind === 'header' ? { authorization: r.auth.value } : {}) };
  return `${r.method} ${clip(r.path, 200)} headers=${JSON.stringify(headers, (_k, v) => (typeof v === 'string' ? clip(v, 120) : v))}${body}`;
}

function resolveHeaders(r: Req): Record<string, string> {
  const headers = { ...(r.headers ?? {}) };
  const a = r.auth;
  if (a?.kind === 'jwt') headers.authorization = `Bearer ${jwts[a.name]}`;
  else if (a?.kind === 'header') headers.authorization = a.value;
  return headers;
}

async function send(r: Req): Promise<Res> {
  sent++;
  counts.set(r.cat, (counts.get(r.cat) ?? 0) + 1);
  const t0 = performance.now();
  if (r.raw) return sendRaw(r.raw, t0);
  try {
    const res = await fetch(`${s.url}${r.path}`, {
      method: r.method,
      headers: resolveHeaders(r),
      body: typeof r.body === 'string' || r.body === undefined ? r.body : new Uint8Array(r.body), // bytes as they are (invalid UTF-8)
      redirect: 'manual',
      signal: AbortSignal.timeout(DEADLINE_MS),
    });
    const text = Buffer.from(await res.arrayBuffer()).toString('utf8');
    return { status: res.status, text, ms: performance.now() - t0 };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    throw new Error(`no answer (${e.name}: ${e.message}${e.cause ? `; ${e.cause.code ?? ''} ${e.cause.message ?? ''}` : ''}) after ${Math.round(performance.now() - t0)} ms to ${describeReq(r)}`);
  }
}

/** Writes raw bytes, reads until the server closes, parses status and body (Content-Length or chunked). */
function sendRaw(bytes: Buffer, t0: number): Promise<Res> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(bytes));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${DEADLINE_MS} ms to raw bytes ${JSON.stringify(clip(bytes.toString('latin1')))}`));
    }, DEADLINE_MS);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined); // a reset after the answer is fine; no answer is caught below
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n/.exec(all);
      // The client half-closed right after its bytes: it is not waiting for an answer, and when the work behind a
      // well-formed request is asynchronous (PostgreSQL) the server drops the answer with the connection. A closed
      // connection without bytes is no 5xx; what must hold is that anything sent back is a documented answer and
      // that the server keeps serving (checked after the run).
      if (all === '') return resolve({ status: 0, text: '', ms: performance.now() - t0 });
      if (!m) return reject(new Error(`no HTTP answer to raw bytes ${JSON.stringify(clip(bytes.toString('latin1')))}: ${JSON.stringify(clip(all))}`));
      const split = all.indexOf('\r\n\r\n');
      const head = all.slice(0, split);
      let body = all.slice(split + 4);
      if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) body = dechunk(body);
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      if (length) body = body.slice(0, Number(length[1]));
      resolve({ status: Number(m[1]), text: Buffer.from(body, 'latin1').toString('utf8'), ms: performance.now() - t0 });
    });
  });
}

function dechunk(body: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', i);
    if (eol < 0) return out;
    const size = parseInt(body.slice(i, eol), 16);
    if (!size) return out;
    out += body.slice(eol + 2, eol + 2 + size);
    i = eol + 2 + size + 2;
  }
}

/** The codes a REST (or transport-level) error body may carry: DESIGN.md "Errors" and src/rest/routes.ts. */
const REST_CODES = new Set(['BAD_USER_INPUT', 'UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'RATE_LIMITED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'QUERY_TOO_COSTLY', 'RESPONSE_TOO_LARGE']);
// A stack frame ("at fn (/path/file.ts:12:5)"), a source position, or internals that only a crash would show.
const LEAK = /\n\s+at \S|\bat [\w$.<>[\] ]+ \([^)]*:\d+:\d+\)|\.(?:[cm]?[jt]s):\d+:\d+|"stacktrace"|node_modules|(?:\/[\w.-]+)+\/src\/[\w/.-]+|Invalid `prisma|PrismaClient\w*Error|SQLITE_|better-sqlite3/;

function fail(r: Req, res: Res, why: string): never {
  throw new Error(`${why}\n  request: ${describeReq(r)}\n  answer: ${res.status} (${Math.round(res.ms)} ms) ${clip(res.text, 600)}`);
}

function parse(r: Req, res: Res): unknown {
  try {
    return JSON.parse(res.text);
  } catch {
    return fail(r, res, 'the answer is not JSON');
  }
}

const isErrorBodyShape = (b: unknown): b is Record<string, unknown> =>
  typeof b === 'object' && b !== null && !Array.isArray(b) && 'statusCode' in b;

function checkErrorBody(r: Req, res: Res, body: unknown) {
  if (res.status < 400 || res.status >= 500) fail(r, res, `an error answer must be 4xx, got ${res.status}`);
  if (!isErrorBodyShape(body)) return fail(r, res, 'a non-2xx answer must be the documented error body');
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'code,error,message,statusCode') fail(r, res, `the error body must have exactly {statusCode, error, code, message}, has {${keys}}`);
  if (body.statusCode !== res.status) fail(r, res, `statusCode ${String(body.statusCode)} differs from the HTTP status ${res.status}`);
  if (typeof body.error !== 'string' || typeof body.message !== 'string' || typeof body.code !== 'string') fail(r, res, 'error, code and message must be strings');
  if (!REST_CODES.has(body.code as string)) fail(r, res, `undocumented error code ${String(body.code)}`);
}

function checkGraphqlBody(r: Req, res: Res, body: unknown) {
  if (typeof body !== 'object' || body === null) return fail(r, res, 'a GraphQL answer must be a JSON object');
  const b = body as { data?: unknown; errors?: unknown };
  if (b.errors !== undefined) {
    if (!Array.isArray(b.errors) || b.errors.length === 0) fail(r, res, '`errors` must be a non-empty array');
    for (const e of b.errors as Array<{ message?: unknown; extensions?: { code?: unknown } }>) {
      if (typeof e?.message !== 'string') fail(r, res, 'every GraphQL error needs a message');
      const code = e.extensions?.code;
      if (typeof code !== 'string') fail(r, res, 'every GraphQL error needs extensions.code');
      if (code === 'INTERNAL_SERVER_ERROR') fail(r, res, 'a client mistake was answered as INTERNAL_SERVER_ERROR');
    }
    return;
  }
  if (res.status < 200 || res.status >= 300) fail(r, res, `a GraphQL answer without errors must be 2xx, got ${res.status}`);
  if (typeof b.data !== 'object' || b.data === null) fail(r, res, 'a GraphQL answer without errors must carry data');
}

let slowest = { ms: 0, what: '' };

function check(r: Req, res: Res) {
  if (res.ms > slowest.ms) slowest = { ms: res.ms, what: clip(describeReq(r), 160) };
  if (res.status >= 500) fail(r, res, `5xx answer`);
  if (LEAK.test(res.text)) fail(r, res, 'the answer leaks a stack trace or internals');
  if (res.ms > DEADLINE_MS) fail(r, res, 'too slow');
  if (r.raw && res.status === 0) return; // closed without an answer to a half-closed raw client (see sendRaw)
  const body = parse(r, res);
  if (r.graphql) {
    if (Array.isArray(body)) fail(r, res, 'batched operations are off: a JSON array answer is not expected');
    // Refused before GraphQL ran (body parser, size, content type): the transport's error body.
    if (isErrorBodyShape(body)) return checkErrorBody(r, res, body);
    return checkGraphqlBody(r, res, body);
  }
  if (res.status >= 200 && res.status < 300) return;
  checkErrorBody(r, res, body);
}

/** One property run: POOL requests sent concurrently, every answer checked. */
async function hostile(name: string, arb: fc.Arbitrary<Req>, numRuns: number, seed: number) {
  await fc.assert(
    fc.asyncProperty(fc.array(arb, { minLength: POOL, maxLength: POOL }), async (reqs) => {
      const answers = await Promise.all(reqs.map(send));
      reqs.forEach((r, i) => check(r, answers[i]));
    }),
    {
      numRuns,
      seed,
      // The default report prints whole counterexamples (bodies of megabytes): print the failing request instead.
      reporter: (d) => {
        if (!d.failed) return;
        const why = d.errorInstance instanceof Error ? d.errorInstance.message : String(d.errorInstance);
        throw new Error(`[${name}] property failed after ${d.numRuns} runs (shrunk ${d.numShrinks} times); replay with { seed: ${d.seed}, path: "${d.counterexamplePath}", endOnFailure: true }\n${why}`);
      },
    },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Hostile values

/** Odd characters: NUL, bidi marks, BOM, lone surrogates, combining marks, emoji sequences, injection shapes. */
const ODD = [
  '\u0000', '\u0001', '\u001b', '\u007f', '\u0085', '\u00a0', '\u202e', '\u202d', '\u200f', '\u200e', '\u2066', '\u061c', '\u200b', '\u2028', '\u2029',
  '\ufeff', '\ufffe', '\uffff', '\ud800', '\udfff', '\udbff\udfff', '\u0301\u0301\u0301', 'e\u0301', '😀', '👩‍👩‍👧‍👦', '🏳️‍🌈', '\u{10ffff}', 'ﷺ', 'ß', 'İ', 'ǅ',
  '\n', '\r\n', '\t', '"', "'", '\\', '`', '${x}', '{{x}}', '<script>alert(1)</script>', "' OR '1'='1' --", '%00', '%', '../../etc/passwd',
  'NaN', '-NaN', 'Infinity', '-Infinity', '-0', '1e309', '0x1F', '0b1', '1_000', '١٢٣', '１２３', 'null', 'undefined', 'true', '__proto__', 'constructor',
  '', ' ', 'demo', 'GLOBEX', 'player1@demo.test', DEMO_PASSWORD,
];
const oddChar = fc.constantFrom(...ODD);
/** Lone surrogates replaced by U+FFFD, as a URL encoder must (fetch would throw on them). */
const wellFormed = (x: string) => x.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const shortString = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: fc.oneof(oddChar, loneSurrogate, fc.string({ minLength: 1, maxLength: 1 })), maxLength: 12 }),
  oddChar,
);
/** Up to 100,000 characters: one odd character or word repeated, or random text. */
const longString = fc.tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.oneof(oddChar.filter((c) => c.length > 0), fc.string({ minLength: 1, maxLength: 5 })))
  .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n));
const hostileString = fc.oneof({ weight: 8, arbitrary: shortString }, { weight: 1, arbitrary: longString });
const nanishString = fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e309', '-1e309', '0x10', '1.5', '1,5', '1e3', ' 1', '1 ', '+1', '-0', '00001', '１', '١', '2147483648', '99999999999999999999', '', 'one');
const extremeInt = fc.constantFrom(0, -1, 1, 2, 3, 5, 10, 100, 101, 1000, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 2 ** 32, 2 ** 53 - 1, -(2 ** 53), 2 ** 53 + 2, 1e21, -1e21, 1e308);
const hostileNumber = fc.oneof(extremeInt, fc.integer(), fc.double({ noNaN: true }), fc.constantFrom(1.5, -0.5, 0.1, 5e-324, -0));
/** Any JSON value, biased to the hostile. */
const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString, hostileNumber, fc.boolean(), fc.constant(null), nanishString,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'id', 'prototype')), tie('v'), { maxKeys: 4 }),
  ),
})).v;

// ---------------------------------------------------------------------------------------------------------------
// Credentials and tenant headers

const JWT_NAMES = [
  'player', 'reseller', 'algNone', 'algNoneKeptSignature', 'algHS512', 'tamperedSignature', 'tamperedPayload', 'truncatedSignature', 'wrongSecret',
  'expired', 'notYetValid', 'wrongIssuer', 'noIssuer', 'otherTenant', 'otherTenantAdmin', 'roleEscalation', 'invitationAsAccess', 'noTyp', 'cidString',
  'subText', 'subNegative', 'subHuge', 'subBeyondInt32', 'subMaxSafe', 'subMissing', 'unknownUser',
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
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 100, max: 3_000 }), fc.string({ unit: headerChar, minLength: 1, maxLength: 3 })).map(([n, u]) => u.repeat(n).slice(0, n)) },
  // Number-like: ids, and numbers past every integer type (x-app-company takes a company id).
  { weight: 2, arbitrary: fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: -5, max: 10 }), extremeInt).map(String) },
  { weight: 2, arbitrary: fc.constantFrom('demo', 'DEMO', ' demo ', 'partners', 'prode.globex.test', 'PRODE.GLOBEX.TEST', 'GLOBEX', 'globex', 'DEMO-CORP', '1', '2', '3', '0', '-1', '1.0', '1e3',
    '0x1', '2147483648', '99999999999', '99999999999999999999', '9'.repeat(400), "' OR 1=1 --", '%', '_', '*', '..', '../', 'NaN', 'null', '[object Object]', 'Ã©') },
);
/** The Authorization header: a real or forged token, no header, or a malformed header. */
const authArb: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('player', 'player', 'reseller').map((name): Auth => ({ kind: 'jwt', name })) },
  { weight: 2, arbitrary: fc.constant<Auth>({ kind: 'none' }) },
  { weight: 5, arbitrary: fc.constantFrom(...JWT_NAMES).map((name): Auth => ({ kind: 'jwt', name })) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      headerGarbage,
      headerGarbage.map((g) => `Bearer ${g}`),
      fc.constantFrom('Bearer', 'Bearer ', 'bearer x.y.z', 'BEARER a.b.c', 'Basic dXNlcjpwYXNz', 'Bearer a b', 'Bearer ..', 'Bearer e30.e30.', 'Bearer e30.e30.e30',
        'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.', 'Token abc', 'Bearer\tx', `Bearer ${'a'.repeat(3000)}`, 'Bearer %00', 'Bearer ÿÿÿ.ÿÿÿ.ÿÿÿ'),
    ).map((value): Auth => ({ kind: 'header', value })),
  },
);
const tenantHeadersArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant({}) },
  { weight: 4, arbitrary: fc.record({ 'x-app-path': headerGarbage, 'x-app-host': headerGarbage, 'x-app-company': headerGarbage }, { requiredKeys: [] }) },
);

// ---------------------------------------------------------------------------------------------------------------
// GraphQL: values typed after the argument (to reach the resolvers) or not (to exercise coercion and validation)

const schema = getSchema();
const rootFields = (['query', 'mutation'] as const).flatMap((op) => {
  const type = op === 'query' ? schema.getQueryType() : schema.getMutationType();
  return type ? Object.values(type.getFields()).map((field) => ({ op, field })) : [];
});

const plausibleString = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom('player1@demo.test', 'new.hire@demo.test', DEMO_PASSWORD, 'Ada Lovelace', 'demo', 'glo', 'https://example.com/x.png', 'javascript:alert(1)', 'data:image/png;base64,AAAA') },
  { weight: 1, arbitrary: fc.constant('<invitation-jwt>') }, // replaced by a valid invitation token at send time
);
const plausibleInt = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 40 }) }, { weight: 3, arbitrary: extremeInt }, { weight: 1, arbitrary: fc.integer() });

/** A JS value for an input type: mostly of the right shape (with hostile contents), sometimes of the wrong one. */
function valueFor(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  const wrong = depth > 3 ? hostileString : hostileJson;
  if (isNonNullType(type)) return fc.oneof({ weight: 12, arbitrary: valueFor(type.ofType, depth) }, { weight: 1, arbitrary: fc.constant(null) });
  const right = (() => {
    if (isListType(type)) {
      return fc.oneof(
        { weight: 6, arbitrary: fc.array(valueFor(type.ofType, depth + 1), { maxLength: 5 }) },
        // Huge lists: ids far over any page, enough to overflow an SQL IN (...) that is not chunked.
        { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1_000, max: 60_000 }), plausibleInt).map(([n, v]) => Array.from({ length: n }, (_, i) => (typeof v === 'number' ? v + i : v))) },
        { weight: 1, arbitrary: valueFor(type.ofType, depth + 1) }, // a single value where a list is expected (coerced to [v])
      );
    }
    if (isInputObjectType(type)) {
      const fields = Object.values(type.getFields());
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const f of fields) shape[f.name] = valueFor(f.type, depth + 1);
      const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name);
      return fc.tuple(
        fc.record(shape, { requiredKeys: required }),
        fc.option(fc.dictionary(fc.constantFrom('unknownField', '__proto__', 'id', 'constructor', 'companyId', 'role'), hostileJson, { maxKeys: 2 }), { nil: undefined, freq: 4 }),
      ).map(([v, extra]) => ({ ...v, ...(extra ?? {}) }));
    }
    if (isEnumType(type)) {
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...type.getValues().map((v) => v.name)) },
        { weight: 1, arbitrary: fc.constantFrom('manager', 'MANAGER', 'superuser', 'Admin', 'FINISHED', 'home ', 'null', '__typename') },
      );
    }
    if (isScalarType(type)) {
      switch (type.name) {
        case 'Int': return plausibleInt;
        case 'Float': return hostileNumber;
        case 'Boolean': return fc.boolean();
        case 'String':
        case 'ID': return plausibleString;
        default: return hostileJson; // DateTime, JSON, JSONObject
      }
    }
    return hostileJson;
  })();
  return fc.oneof({ weight: 5, arbitrary: right }, { weight: 1, arbitrary: wrong }, { weight: 1, arbitrary: nanishString });
}

/** A JS value printed as a GraphQL literal; strings in enum positions print as names when they are names. */
function literal(v: unknown, type?: GraphQLInputType): string {
  const named = type ? getNullableType(type) : undefined;
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isFinite(v) ? (Object.is(v, -0) ? '-0' : String(v)) : String(v); // NaN / Infinity: not literals
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') {
    if (named && isEnumType(named) && /^[_A-Za-z]\w*$/.test(v)) return v;
    return JSON.stringify(v); // JSON escapes are GraphQL escapes; a lone surrogate escape is a syntax error there
  }
  if (Array.isArray(v)) {
    const inner = named && isListType(named) ? named.ofType : undefined;
    return `[${v.map((x) => literal(x, inner)).join(', ')}]`;
  }
  const fields = named && isInputObjectType(named) ? named.getFields() : {};
  return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${/^[_A-Za-z]\w*$/.test(k) ? k : JSON.stringify(k)}: ${literal(x, fields[k]?.type)}`).join(', ')}}`;
}

/** A small selection of the return type: __typename and a few leaf fields, sometimes one nested object field. */
function selectionFor(type: GraphQLOutputType, depth = 0): fc.Arbitrary<string> {
  const named = getNamedType(type);
  if (isLeafType(named)) return fc.constant('');
  if (isUnionType(named) || !(isObjectType(named) || isInterfaceType(named))) return fc.constant('{ __typename }');
  const fields = Object.values(named.getFields()).filter((f) => f.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined));
  const leaves = fields.filter((f) => isLeafType(getNamedType(f.type))).map((f) => f.name);
  const objects = fields.filter((f) => !isLeafType(getNamedType(f.type)));
  const nested = depth < 2 && objects.length
    ? fc.option(fc.constantFrom(...objects).chain((f) => selectionFor(f.type, depth + 1).map((sel) => `${f.name} ${sel}`)), { nil: '' })
    : fc.constant('');
  return fc.tuple(fc.subarray(leaves, { maxLength: Math.min(4, leaves.length) }), nested).map(([ls, n]) => `{ __typename ${ls.join(' ')} ${n} }`);
}

const WRONG_VARIABLE_TYPES = ['String', 'Int', 'Float', 'Boolean', 'ID', '[Int!]!', '[String]', 'JSON', 'NoSuchType', 'Role', 'IdRef'];

/** Arguments of a field: each omitted, given inline, or given as a variable (declared right or wrong). */
function argumentsFor(args: readonly GraphQLArgument[]) {
  return fc.tuple(...args.map((a) => fc.tuple(
    fc.constantFrom<'omit' | 'inline' | 'variable' | 'wrongType' | 'undeclared'>('omit', 'inline', 'inline', 'variable', 'variable', 'variable', 'wrongType', 'undeclared'),
    valueFor(a.type),
    fc.constantFrom(...WRONG_VARIABLE_TYPES),
  ))).map((choices) => {
    const parts: string[] = [];
    const decls: string[] = [];
    const variables: Record<string, unknown> = {};
    choices.forEach(([how, value, wrongType], i) => {
      const a = args[i];
      if (how === 'omit') return;
      if (how === 'inline') return parts.push(`${a.name}: ${literal(value, a.type)}`);
      parts.push(`${a.name}: $${a.name}`);
      if (how !== 'undeclared') decls.push(`$${a.name}: ${how === 'wrongType' ? wrongType : String(a.type)}`);
      if (value !== undefined) variables[a.name] = value;
    });
    return { args: parts.length ? `(${parts.join(', ')})` : '', decls: decls.length ? `(${decls.join(', ')})` : '', variables };
  });
}

const withInvitationJwt = (text: string) => text.replaceAll('<invitation-jwt>', invitationJwt);

function fieldRequest(op: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): fc.Arbitrary<Req> {
  return fc.record({
    a: argumentsFor(field.args),
    sel: selectionFor(field.type),
    auth: authArb,
    tenant: tenantHeadersArb,
    alias: fc.option(fc.constantFrom('x', 'a1', '__x'), { freq: 5, nil: undefined }),
    // Queries also over GET (mutations over GET are the envelope test's).
    transport: op === 'query' ? fc.constantFrom('post', 'post', 'post', 'get') : fc.constant('post'),
  }).map(({ a, sel, auth, tenant, alias, transport }) => {
    const query = `${op} Fuzz${a.decls} { ${alias ? `${alias}: ` : ''}${field.name}${a.args} ${sel} }`;
    const payload = withInvitationJwt(JSON.stringify({ query, variables: a.variables, operationName: 'Fuzz' }));
    if (transport === 'get' && payload.length < 6_000) {
      const p = JSON.parse(payload) as { query: string; variables: unknown };
      const qs = new URLSearchParams({ query: p.query, variables: JSON.stringify(p.variables), operationName: 'Fuzz' });
      return { cat: `graphql ${op} ${field.name}`, method: 'GET', path: `/graphql?${qs}`, headers: { ...tenant, 'apollo-require-preflight': 'true' }, auth, graphql: true };
    }
    return { cat: `graphql ${op} ${field.name}`, method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json', ...tenant }, body: payload, auth, graphql: true };
  });
}

const gqlPost = (cat: string, query: string, extra: { variables?: unknown; operationName?: unknown } = {}, auth: Auth = { kind: 'jwt', name: 'player' }): Req => ({
  cat, method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, ...extra }), auth, graphql: true,
});

// ---------------------------------------------------------------------------------------------------------------
// GraphQL documents built to multiply work or break the parser and validator

const EXPENSIVE = [
  'ranking(tournamentId: 1) { total entries { position points user { name } } }',
  'myTournaments { id rounds { id matches { id predictions { id points } } } }',
  'companiesSearch(take: 100) { id name }',
  'company { id areas { id childrenAreas { id } } }',
  'me { id company { id } }',
];
const expensive = fc.constantFrom(...EXPENSIVE);

const abuseArb: fc.Arbitrary<Req> = fc.oneof(
  // Deep: a valid chain far past the depth limit.
  fc.integer({ min: 16, max: 3_000 }).map((d) => gqlPost('graphql deep', `{ company { areas { ${'childrenAreas { '.repeat(d)}id${' }'.repeat(d)} } } }`)),
  // Deep: syntactic nesting that only the parser sees (up to ~200k levels).
  fc.tuple(fc.integer({ min: 1_000, max: 200_000 }), fc.constantFrom('{ a ', '{', '[', '{a:', '(a:[')).map(([d, open]) => gqlPost('graphql deep', `{ me ${open.repeat(d)} }`)),
  fc.integer({ min: 1_000, max: 100_000 }).map((d) => gqlPost('graphql deep', `{ companiesSearch(search: ${'['.repeat(d)}"x"${']'.repeat(d)}) { id } }`)),
  // Deep variables (written as text: too deep for JSON.stringify here, not for the server's parser).
  fc.tuple(fc.integer({ min: 100, max: 50_000 }), fc.constantFrom('query($v: IdRef) { me { id } }', 'query($v: [Int!]) { ranking(tournamentId: 1, roundIds: $v) { total } }', 'mutation($v: UpdateInvitationInput!) { updateInvitation(id: 1, input: $v) { id } }'))
    .map(([d, query]): Req => ({ ...gqlPost('graphql deep', query), body: `{"query": ${JSON.stringify(query)}, "variables": {"v": ${'{"id":['.repeat(d)}1${']}'.repeat(d)}}}` })),
  // Wide: thousands of fields, repeated or aliased.
  fc.tuple(fc.integer({ min: 1_000, max: 30_000 }), fc.constantFrom('id', 'name', '__typename', 'email')).map(([n, f]) => gqlPost('graphql wide', `{ me { ${`${f} `.repeat(n)} } }`)),
  fc.integer({ min: 1_001, max: 20_000 }).map((n) => gqlPost('graphql wide', `{ me { ${Array.from({ length: n }, (_, i) => `f${i}: name`).join(' ')} } }`)),
  fc.integer({ min: 500, max: 10_000 }).map((n) => gqlPost('graphql wide', `{ ${Array.from({ length: n }, (_, i) => `f${i}: __typename`).join(' ')} }`)),
  // Aliases of an expensive field.
  fc.tuple(fc.oneof(fc.constant(500), fc.integer({ min: 31, max: 2_000 })), expensive).map(([n, f]) => gqlPost('graphql aliases', `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${f}`).join(' ')} }`)),
  // Fragment bombs: each level spreads the next one b times (b^levels expansions), and cycles.
  fc.tuple(fc.integer({ min: 2, max: 10 }), fc.integer({ min: 5, max: 40 }), expensive).map(([b, levels, f]) => gqlPost('graphql fragments',
    `{ ...F0 }\n${Array.from({ length: levels }, (_, i) => `fragment F${i} on Query { ${`...F${i + 1} `.repeat(b)} }`).join('\n')}\nfragment F${levels} on Query { ${f} }`)),
  fc.integer({ min: 2, max: 200 }).map((n) => gqlPost('graphql fragments',
    `{ me { ...F0 } }\n${Array.from({ length: n }, (_, i) => `fragment F${i} on User { id ...F${(i + 1) % n} }`).join('\n')}`)),
  // Many fragments whose fields must all be checked against each other (OverlappingFieldsCanBeMerged).
  fc.tuple(fc.integer({ min: 100, max: 2_000 }), fc.boolean()).map(([n, conflicting]) => gqlPost('graphql fragments',
    `{ ${Array.from({ length: n }, (_, i) => `...F${i}`).join(' ')} }\n${Array.from({ length: n }, (_, i) =>
      `fragment F${i} on Query { x: companiesSearch(take: ${conflicting ? i : 1}) { id } }`).join('\n')}`)),
  fc.integer({ min: 100, max: 3_000 }).map((n) => gqlPost('graphql fragments', `{ ${Array.from({ length: n }, (_, i) => `x: companiesSearch(take: ${i % 100}) { id }`).join(' ')} }`)),
  // Directives repeated, unknown directives, @skip/@include with odd values.
  fc.tuple(fc.integer({ min: 2, max: 20_000 }), fc.constantFrom('@skip(if: false)', '@include(if: true)', '@cutoff', '@nope', '@deprecated', '@skip(if: "no")', '@include(if: $x)')).map(([n, d]) =>
    gqlPost('graphql directives', `{ me ${d.repeat(n)} { id } }`)),
  // Many operations in one document, picking one (or none) by name.
  fc.tuple(fc.integer({ min: 2, max: 5_000 }), fc.option(fc.oneof(fc.string(), fc.integer(), fc.constant('Op0')), { nil: undefined })).map(([n, name]) =>
    gqlPost('graphql operations', Array.from({ length: n }, (_, i) => `query Op${i} { me { id } }`).join('\n'), { operationName: name })),
  // Introspection as deep as it goes.
  fc.integer({ min: 5, max: 60 }).map((d) => gqlPost('graphql deep', `{ __schema { types { fields { type { ${'ofType { '.repeat(d)}name${' }'.repeat(d)} } } } } }`)),
  // Long tokens: a 100k-character name, number, string or comment.
  fc.tuple(fc.integer({ min: 10_000, max: 100_000 }), fc.constantFrom('name', 'int', 'string', 'comment', 'block')).map(([n, kind]) => gqlPost('graphql wide', {
    name: `{ ${'a'.repeat(n)} }`,
    int: `{ companiesSearch(take: ${'9'.repeat(n)}) { id } }`,
    string: `{ companiesSearch(search: "${'\\u0000'.repeat(n / 6)}") { id } }`,
    comment: `{ me { id } } # ${'x'.repeat(n)}`,
    block: `{ companiesSearch(search: """${'\\"""'.repeat(n / 4)}""") { id } }`,
  }[kind]!)),
);

// Documents that walk the schema's cycles (match > predictions > user > predictions > match ...) or nest lists
// inside lists: small documents whose answers would grow with the product of the lists' sizes.
const CYCLE_STEPS = [
  ['predictions', 'user', 'predictions', 'match'],
  ['predictions', 'user', 'company', 'tournaments', 'rounds', 'matches'],
  ['predictions', 'user', 'posts', 'likes', 'user', 'predictions', 'match'],
  ['predictions', 'user', 'company', 'areas', 'childrenAreas'],
];
const LIST_CHAINS = [
  'companiesSearch(take: $take) { tournaments { rounds { matches { predictions { user { company { tournaments { rounds { matches { id } } } } } } } } } }',
  'myTournaments { rounds { matches { predictions { user { predictions { match { predictions { id } } } } } } } }',
  'company { tournaments { rounds { matches { predictions { user { posts { comments { likes { user { id } } } } } } } } } }',
  'myInternalRankings { members { id } tournament { rounds { matches { predictions { user { company { areas { childrenAreas { childrenAreas { id } } } } } } } } } }',
  'myTournaments { rounds { matches { predictions { user { company { managedCompanies { tournaments { rounds { id } } } } } } } } }',
];
const cycleArb: fc.Arbitrary<Req> = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom(...CYCLE_STEPS), fc.integer({ min: 1, max: 12 }), fc.constantFrom('id', 'points', 'homeTeamGoals', '__typename'))
    .map(([matchId, steps, length, leaf]) => {
      const path = Array.from({ length }, (_, i) => steps[i % steps.length]);
      return gqlPost('graphql cycles', `{ match(id: ${matchId}) { ${path.map((f) => `${f} { `).join('')}${leaf}${' }'.repeat(length)} } }`);
    }),
  fc.tuple(fc.constantFrom(...LIST_CHAINS), fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constant(100)), authArb)
    .map(([chain, take, auth]) => gqlPost('graphql list products', `query($take: Int) { ${chain} }`, { variables: { take } }, auth)),
);

/** Documents that are wrong: unknown fields and operations, bad syntax, odd operation kinds. */
const unknownArb: fc.Arbitrary<Req> = fc.oneof(
  fc.constantFrom(
    '{ nope }', 'query { me { nope } }', 'mutation { nope }', 'mutation { me { id } }', 'query { login(email: "a", password: "b") { token } }',
    'subscription { me { id } }', 'subscription S { myNotifications { id } }', 'subscription { nope }', 'fragment F on User { id }', '{ ...Missing }',
    '{ __type(name: "User") { name } }', '{ __typename }', '{ me }', '{ me { company } }', '{ me(id: 1) { id } }', 'query Q($x: Int) { me { id } }',
    'query { me { id } } query { me { id } }', 'query A { me { id } } query A { me { id } }', '{ me { id } } mutation M { deletePost(id: 1) }',
    'query { me { ... on Company { id } } }', '{', '}', '', ' ', '#', '{ me { id }', '"string"', '{ me { id } } }', 'query ($) { me { id } }',
    'extend type Query { x: Int }', 'type X { y: Int }', 'schema { query: Query }', 'directive @x on FIELD', '{ me @nope { id } }',
    'query @skip(if: true) { me { id } }', '{ me { id @skip } }', '{ ...on Query { me { id } } }', '{ post(id: 1) { ...on Post { ...on Post { id } } } }',
  ),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 100 }),
  fc.array(fc.constantFrom('{', '}', '(', ')', '[', ']', ':', '$', '@', '...', '!', '=', '|', '&', 'query', 'mutation', 'subscription', 'fragment', 'on', 'me', 'id', '"x"', '#', '\n', '1', 'true'), { maxLength: 40 })
    .map((toks) => toks.join(' ')),
).chain((query) => fc.tuple(authArb, fc.option(fc.oneof(fc.string(), fc.constant('Nope')), { nil: undefined }))
  .map(([auth, operationName]) => gqlPost('graphql unknown', query, { operationName }, auth)));

/** The envelope: variables and operationName of the wrong JSON type, odd extensions, odd keys. */
const envelopeArb: fc.Arbitrary<Req> = fc.tuple(
  fc.constantFrom('{ me { id } }', 'query Q($id: Int!) { post(id: $id) { id } }', 'query Q($t: Int, $s: String) { companiesSearch(take: $t, search: $s) { id } }',
    'mutation M($i: UpsertPredictionInput!) { upsertPrediction(input: $i) { id } }', 'query Q($ids: [Int!]) { ranking(tournamentId: 1, roundIds: $ids) { total } }'),
  fc.record({
    variables: fc.oneof(hostileJson, fc.dictionary(fc.constantFrom('id', 't', 's', 'i', 'ids', 'x', '__proto__'), hostileJson, { maxKeys: 4 })),
    operationName: fc.oneof(hostileJson, fc.constantFrom('Q', 'M', 'q', 'Nope')),
    extensions: fc.oneof(hostileJson, fc.constant({ persistedQuery: { version: 1, sha256Hash: 'deadbeef' } }), fc.constant({ persistedQuery: { version: 2 } })),
    query: fc.oneof(fc.constant(undefined), hostileJson),
    id: hostileJson,
  }, { requiredKeys: [] }),
  fc.boolean(),
  authArb,
).map(([query, env, keepQuery, auth]) => {
  const body = { ...(keepQuery ? { query } : {}), ...env };
  return { cat: 'graphql envelope', method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), auth, graphql: true };
});

/** List variables with many entries of one (often wrong) kind: every bad entry is an error to report. */
const listVariablesArb: fc.Arbitrary<Req> = fc.tuple(
  fc.constantFrom(
    'query Q($v: [Int!]) { ranking(tournamentId: 1, roundIds: $v) { total } }',
    'mutation M($v: [Int!]) { markNotificationsRead(ids: $v) }',
    'mutation M($v: [Int!]!) { setDreamFinalPicks(settingId: 1, teamIds: $v) { id } }',
  ),
  fc.integer({ min: 1, max: 5_000 }),
  fc.oneof(plausibleInt, nanishString, hostileJson),
  authArb,
).map(([query, n, entry, auth]) => gqlPost('graphql envelope', query, { variables: { v: Array.from({ length: n }, () => entry) } }, auth));

/** GET /graphql: queries and mutations, with and without the CSRF-prevention header. */
const getArb: fc.Arbitrary<Req> = fc.tuple(
  fc.constantFrom('{ me { id } }', 'mutation { deletePost(id: 1) }', 'mutation { login(email: "a", password: "b") { token } }', '', '{', 'subscription { me { id } }'),
  fc.boolean(),
  authArb,
).map(([query, preflight, auth]): Req => ({
  cat: 'graphql envelope', method: 'GET', path: query ? `/graphql?${new URLSearchParams({ query })}` : '/graphql',
  headers: preflight ? { 'apollo-require-preflight': '1' } : ({} as Record<string, string>), auth, graphql: true,
}));

// ---------------------------------------------------------------------------------------------------------------
// Bodies, content types, sizes

const MiB = 1024 * 1024;
const badJsonText = fc.oneof(
  fc.constantFrom('', ' ', '{', '}', '[', '{"query":', '{"query": "{ me { id } }"', "{'query': '{ me { id } }'}", '{query: "{ me { id } }"}', 'null', 'true', '0', '-1', '"x"',
    '[]', '{}', '[{}]', '{"query": NaN}', '{"query": "{ me { id } }", "variables": {"x": Infinity}}', '{"a":1,}', '{"a":1}{"b":2}', '{"a":1} trailing', '\ufeff{"query":"{ me { id } }"}',
    '{"__proto__": {"isAdmin": true}, "query": "{ me { id } }"}', '{"constructor": {"prototype": {"x": 1}}, "query": "{ me { id } }"}',
    '{"query": "{ me { id } }", "query": "{ company { id } }"}', '{"email": "a", "email": "b", "password": "c"}', '{"email":"\\ud800","password":"\\udfff"}',
    '{"email": "player1@demo.test", "password": "x", "__proto__": {"email": "x"}}', '{"name": "\\u0000", "areaLevel1": {"id": 1e400}}', '{"id": 1e400}',
    '{"name": "a", "company": {"id": "1"}}', '{"name": "a", "areaLevel2": {"id": 2147483648}}', '{"role": "manager"}', '{"role": null}', '{"company": null}',
    '{"x": 1}', '{"email": ["a"], "password": {"b": 1}}', '\u0000', '\u202e{}', '{"a": "\u0000"}'),
  fc.string({ maxLength: 100 }),
  fc.integer({ min: 1_000, max: 200_000 }).map((d) => `${'['.repeat(d)}${']'.repeat(d)}`), // deep JSON
  fc.integer({ min: 1_000, max: 100_000 }).map((d) => `{"query": "{ me { id } }", "variables": ${'{"a":'.repeat(d)}1${'}'.repeat(d)}}`),
  fc.integer({ min: 1_000, max: 50_000 }).map((n) => `{${Array.from({ length: n }, (_, i) => `"k${i}": ${i}`).join(',')}}`), // many keys
);
const invalidUtf8 = fc.oneof(
  fc.constantFrom([0xff], [0xfe, 0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80], [0x00]).map((b) => Buffer.from(b)),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b)),
).map((bad) => Buffer.concat([Buffer.from('{"query": "{ me { id } }", "email": "'), bad, Buffer.from('", "name": "x"}')]));
const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/JSON', 'APPLICATION/JSON',
  'application/json, text/plain', 'application/json;', 'application/json; x="', 'text/plain', 'text/plain; charset=utf-8', 'application/graphql', 'application/graphql-response+json',
  'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'multipart/form-data', 'application/xml', 'text/html', 'application/octet-stream',
  'application/vnd.api+json', 'application/problem+json', '*/*', 'json', ';', ' ', 'application/json\t; charset=utf-8', 'x/y; charset=utf-8', 'application/jsonx',
];
const BODY_ROUTES = [
  { method: 'POST', path: '/graphql', graphql: true },
  { method: 'POST', path: '/auth/login' },
  { method: 'PATCH', path: '/invitations/1' },
  { method: 'PATCH', path: '/invitations/2' },
];
const bodyArb: fc.Arbitrary<Req> = fc.record({
  route: fc.constantFrom(...BODY_ROUTES),
  contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined, freq: 8 }),
  body: fc.oneof(
    { weight: 5, arbitrary: badJsonText },
    { weight: 3, arbitrary: hostileJson.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 2, arbitrary: invalidUtf8 },
    { weight: 1, arbitrary: fc.constant('{"query": "{ me { id } }"}') },
    // Over 1 MiB: declared, or streamed without a length.
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: MiB + 1, max: 3 * MiB }), fc.constantFrom('json', 'raw')).map(([n, kind]) =>
      kind === 'json' ? `{"query": "{ me { id } }", "pad": "${'x'.repeat(n)}"}` : 'y'.repeat(n)) },
  ),
  auth: authArb,
  tenant: tenantHeadersArb,
}).map(({ route, contentType, body, auth, tenant }) => ({
  cat: 'bodies and content types', method: route.method, path: route.path, graphql: route.graphql,
  headers: { ...tenant, ...(contentType === undefined ? {} : { 'content-type': contentType }) }, body, auth,
}));

/** A JSON array body: batched operations. */
const batchArb: fc.Arbitrary<Req> = fc.tuple(
  fc.array(fc.oneof(fc.constant({ query: '{ me { id } }' }), fc.constantFrom(...EXPENSIVE).map((f) => ({ query: `{ ${f} }` })), hostileJson), { minLength: 0, maxLength: 200 }),
  authArb,
).map(([ops, auth]) => ({ cat: 'graphql batched', method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ops), auth, graphql: true }));

// ---------------------------------------------------------------------------------------------------------------
// REST routes

/** Fastify's maxParamLength in src/app.ts: longer parameters are the malformed-URL test's. */
const MAX_PARAM = 2048;
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
const segment = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 12 }).map(String) },
  { weight: 2, arbitrary: fc.constantFrom('0', '-1', '1.5', '1e3', '0x1', '01', '2147483647', '2147483648', '4294967296', '9999999999', '99999999999', '9'.repeat(300), ' 1', '1 ', '+1', 'NaN', 'null', 'undefined', 'true', '[1]', '{"id":1}', '__proto__', '١', '１', '%', '%25', '.', '..', '...') },
  { weight: 3, arbitrary: hostileString },
).map((x) => encodeSegment(x, MAX_PARAM));

const queryValue = fc.oneof(nanishString, extremeInt.map(String), fc.integer({ min: -5, max: 120 }).map(String), hostileString.map((x) => x.slice(0, 1_000)), fc.constant(''));
const searchQuery = fc.array(fc.tuple(fc.constantFrom('skip', 'take', 'search', 'search', 'skip[]', 'take[0]', 'search[a]', '__proto__', 'constructor', 'Take', 'x', ''), queryValue), { maxLength: 5 })
  .map((pairs) => {
    const qs = new URLSearchParams();
    for (const [k, v] of pairs) qs.append(k, wellFormed(v));
    const text = qs.toString().slice(0, 6_000).replace(/%[0-9A-F]?$/, ''); // the request line stays under 16 KiB
    return text ? `?${text}` : '';
  });

const jwtSegment = fc.oneof(
  { weight: 2, arbitrary: fc.constant('<invitation-jwt>') },
  { weight: 2, arbitrary: fc.constantFrom(...JWT_NAMES).map((n) => `<jwt:${n}>`) },
  { weight: 4, arbitrary: segment },
  { weight: 1, arbitrary: fc.integer({ min: 1_500, max: MAX_PARAM }).map((n) => 'a'.repeat(n)) }, // up to Fastify's maxParamLength
);

const restArb: fc.Arbitrary<Req> = fc.record({
  route: fc.constantFrom('post', 'comments', 'invitationJwt', 'patchInvitation', 'companies', 'tournaments', 'login'),
  seg: segment,
  jwtSeg: jwtSegment,
  qs: searchQuery,
  auth: authArb,
  tenant: tenantHeadersArb,
  patch: fc.oneof(
    fc.record({
      externalId: fc.oneof(plausibleString, hostileJson), name: fc.oneof(plausibleString, hostileJson), email: fc.oneof(plausibleString, hostileJson),
      role: fc.oneof(fc.constantFrom('player', 'admin', 'reseller', 'manager', 'MANAGER', 'root'), hostileJson),
      company: fc.oneof(fc.record({ id: fc.oneof(plausibleInt, hostileJson) }), hostileJson), areaLevel1: fc.oneof(fc.record({ id: fc.oneof(plausibleInt, hostileJson) }), hostileJson),
      areaLevel2: fc.oneof(fc.record({ id: plausibleInt }), hostileJson), areaLevel3: fc.oneof(fc.record({ id: plausibleInt }), hostileJson),
      extra: hostileJson,
    }, { requiredKeys: [] }),
    hostileJson,
  ),
  login: fc.oneof(
    fc.record({ email: fc.oneof(plausibleString, hostileJson), password: fc.oneof(plausibleString, hostileJson) }),
    fc.record({ email: fc.oneof(plausibleString, hostileJson), password: fc.oneof(plausibleString, hostileJson), extra: hostileJson }, { requiredKeys: [] }),
    hostileJson,
  ),
}).map(({ route, seg, jwtSeg, qs, auth, tenant, patch, login }): Req => {
  const cat = `rest ${route}`;
  const json = { 'content-type': 'application/json' };
  switch (route) {
    case 'post': return { cat, method: 'GET', path: `/posts/${seg}`, headers: tenant, auth };
    case 'comments': return { cat, method: 'GET', path: `/posts/${seg}/comments`, headers: tenant, auth };
    case 'invitationJwt': return { cat, method: 'GET', path: `/invitations/jwt/${jwtSeg}`, headers: tenant, auth };
    case 'patchInvitation': return { cat, method: 'PATCH', path: `/invitations/${seg}`, headers: { ...json, ...tenant }, body: JSON.stringify(patch) ?? 'null', auth };
    case 'companies': return { cat, method: 'GET', path: `/companies/search${qs}`, headers: tenant, auth };
    case 'tournaments': return { cat, method: 'GET', path: `/tournaments/me${qs.length < 50 ? qs : ''}`, headers: tenant, auth };
    case 'login': return { cat, method: 'POST', path: '/auth/login', headers: { ...json, ...tenant }, body: withInvitationJwt(JSON.stringify(login) ?? 'null'), auth };
  }
});

/** Placeholders in paths resolved once the tokens exist. */
function resolvePath(r: Req): Req {
  if (!r.path.includes('%3C') && !r.path.includes('<')) return r;
  const path = r.path.replace(/<invitation-jwt>/g, invitationJwt).replace(/<jwt:(\w+)>/g, (_m, n: string) => jwts[n]);
  return { ...r, path };
}

// ---------------------------------------------------------------------------------------------------------------
// Malformed URLs and malformed HTTP

const ROUTE_PATHS = ['/posts/1', '/posts/1/comments', '/invitations/jwt/x', '/invitations/1', '/companies/search', '/tournaments/me', '/auth/login', '/graphql', '/healthz'];
const urlArb: fc.Arbitrary<Req> = fc.oneof(
  // Percent-escapes that do not decode: bad hex, truncated, overlong, surrogates, out of range.
  fc.tuple(fc.constantFrom('/posts/', '/posts/1/comments?x=', '/invitations/jwt/', '/invitations/', '/companies/search?search=', '/tournaments/me?'),
    fc.constantFrom('%ZZ', '%', '%4', '%E0%A4', '%C0%AF', '%ED%A0%80', '%F4%90%80%80', '%FF', '%00', '%2F', '%5C', '%22', '%0D%0A', '%u0041', '%%32%35'))
    .map(([p, bad]) => ({ cat: 'malformed urls', method: p.startsWith('/invitations/') && !p.includes('jwt') ? 'PATCH' : 'GET', path: `${p}${bad}`, headers: { 'content-type': 'application/json' }, body: p.startsWith('/invitations/') && !p.includes('jwt') ? '{"name":"x"}' : undefined })),
  // Paths near the routes: trailing slashes, doubled slashes, case, matrix parameters, unknown routes and methods.
  fc.tuple(fc.constantFrom(...ROUTE_PATHS), fc.constantFrom('/', '//', '/x', ';x=1', '?', '#x', '/..', '/.', '/%2e%2e', '.json', '?__proto__[x]=1', '?a=1&a=2'), fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'))
    .map(([p, suffix, method]) => ({ cat: 'malformed urls', method, path: `${p}${suffix}`, graphql: p === '/graphql' && !/^\/[a-z/%.]/.test(suffix) ? true : undefined })),
  // Path parameters longer than Fastify's maxParamLength.
  fc.tuple(fc.constantFrom('/posts/:p', '/posts/:p/comments', '/invitations/jwt/:p'), fc.integer({ min: MAX_PARAM + 1, max: 10_000 }))
    .map(([p, n]) => ({ cat: 'malformed urls', method: 'GET', path: p.replace(':p', '1'.repeat(n)) })),
  // Far too long: past the 16 KiB header limit (the request line counts).
  fc.tuple(fc.constantFrom('/companies/search?search=', '/posts/', '/invitations/jwt/', '/graphql?query='), fc.integer({ min: 17_000, max: 100_000 }))
    .map(([p, n]) => ({ cat: 'malformed urls', method: 'GET', path: `${p}${'a'.repeat(n)}`, graphql: p === '/graphql?query=' })),
  fc.tuple(fc.constantFrom('x-app-path', 'x-app-host', 'x-app-company', 'authorization', 'x-junk'), fc.integer({ min: 17_000, max: 60_000 }))
    .map(([h, n]) => ({ cat: 'malformed urls', method: 'GET', path: '/tournaments/me', headers: { [h]: 'a'.repeat(n) } })),
).map((r) => ({ ...r, auth: { kind: 'jwt', name: 'player' } as Auth }));

/** Header values as bytes, which fetch would refuse: controls, NUL, raw UTF-8 (emoji, RTL marks, surrogates). */
const headerBytes = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => Buffer.from(b.filter((x) => x !== 0x0a && x !== 0x0d))),
  fc.constantFrom('\u0000', '\u0001', '\u007f', '\u202e', '\u200f', '\ufeff', '😀', 'é', '\ud800', 'demo\u0000', 'a\tb').map((x) => Buffer.from(x, 'utf8')),
  fc.constantFrom([0xed, 0xa0, 0x80], [0xff, 0xfe], [0xc0, 0xaf]).map((b) => Buffer.from(b)),
);
const rawArb: fc.Arbitrary<Req> = fc.oneof(
  fc.tuple(fc.constantFrom('/posts/1', '/posts/1/comments', '/tournaments/me', '/companies/search', '/invitations/jwt/x', '/graphql?query=%7B__typename%7D', '/healthz'),
    fc.constantFrom('x-app-path', 'x-app-host', 'x-app-company', 'authorization', 'content-type', 'x-junk'), headerBytes)
    .map(([path, name, value]) => Buffer.concat([Buffer.from(`GET ${path} HTTP/1.1\r\nHost: localhost\r\napollo-require-preflight: 1\r\n${name}: `, 'latin1'), value, Buffer.from('\r\nConnection: close\r\n\r\n')])),
  fc.constantFrom(
    'GARBAGE\r\n\r\n', 'GET\r\n\r\n', 'GET /posts/1\r\n\r\n', 'GET /posts/1 HTTP/9.9\r\nHost: x\r\n\r\n', 'get /posts/1 HTTP/1.1\r\nHost: x\r\n\r\n',
    'FOO /posts/1 HTTP/1.1\r\nHost: x\r\n\r\n', 'GET  /posts/1  HTTP/1.1\r\nHost: x\r\n\r\n', 'GET http://evil.test/posts/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    'GET /posts/1 HTTP/1.1\nHost: x\n\n', 'GET /posts/1 HTTP/1.1\r\nHost: x\r\n folded: header\r\n\r\n', 'GET /posts/1 HTTP/1.1\r\nHost x\r\n\r\n',
    'GET /posts/1 HTTP/1.1\r\n: empty-name\r\n\r\n', 'GET /posts/1 HTTP/1.1\r\nHo st: x\r\n\r\n',
    'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n0\r\n\r\n',
    'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\nContent-Type: application/json\r\n\r\n{}',
    'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\nContent-Type: application/json\r\n\r\n',
    'POST /auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    'POST /auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\nContent-Type: application/json\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\nConnection: close\r\n\r\nabcd',
    'POST /graphql HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    'GET /posts/%ZZ"\\ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'GET /invitations/jwt/%ZZ"},"x":{" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    'GET /posts/\u00ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'GET /posts/1\u0000 HTTP/1.1\r\nHost: x\r\n\r\n', 'GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    `GET /posts/1 HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3_000 }, (_, i) => `x-h${i}: 1`).join('\r\n')}\r\n\r\n`,
  ).map((x) => Buffer.from(x, 'latin1')),
).map((raw): Req => ({ cat: 'malformed http', method: 'RAW', path: '', raw, graphql: /^\w+ \/graphql[ ?]/.test(raw.toString('latin1')) }));

// ---------------------------------------------------------------------------------------------------------------
// The run

describe('hostile input: no 5xx, documented error bodies, coded GraphQL errors, no stack traces', () => {
  it('covers every REST route of the spec and every GraphQL root field of the schema', () => {
    expect(rootFields.length).toBeGreaterThanOrEqual(30);
    const names = rootFields.map((f) => f.field.name);
    for (const n of ['post', 'postComments', 'invitationByJwt', 'companiesSearch', 'myTournaments', 'updateInvitation', 'login', 'ranking']) expect(names).toContain(n);
  });

  it('REST routes: malformed paths, queries, bodies, credentials and tenant headers', async () => {
    await hostile('rest', restArb.map(resolvePath), 125, BASE_SEED + 1);
    for (const route of ['post', 'comments', 'invitationJwt', 'patchInvitation', 'companies', 'tournaments', 'login']) expect(counts.get(`rest ${route}`) ?? 0, route).toBeGreaterThan(0);
  });

  describe('GraphQL: every root Query and Mutation field with arguments of wrong types, extreme numbers and odd strings', () => {
    for (const [i, { op, field }] of rootFields.entries()) {
      it(`${op} ${field.name}`, async () => {
        await hostile(`${op} ${field.name}`, fieldRequest(op, field), FIELD_RUNS, BASE_SEED + 100 + i);
      });
    }
  });

  it('GraphQL: unknown fields and operations, and envelopes with badly typed variables', async () => {
    await hostile('unknown', unknownArb, 15, BASE_SEED + 2);
    await hostile('envelope', fc.oneof({ weight: 4, arbitrary: envelopeArb }, { weight: 1, arbitrary: getArb }, { weight: 1, arbitrary: listVariablesArb }), 20, BASE_SEED + 3);
  });

  it('GraphQL: deep, wide, alias- and fragment-multiplied documents', async () => {
    await hostile('abuse', abuseArb, 25, BASE_SEED + 4);
  });

  it('GraphQL: cycles and lists inside lists are refused before they run, fast', async () => {
    const sentOf = () => (counts.get('graphql cycles') ?? 0) + (counts.get('graphql list products') ?? 0);
    const before = sentOf();
    await hostile('cycles and lists', cycleArb, 25, BASE_SEED + 10);
    expect(sentOf() - before).toBe(25 * POOL);
  });

  it('a NUL character in any text input is BAD_USER_INPUT, in literals, variables and REST bodies, on every store', async () => {
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
    const rest = await fetch(`${s.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-app-path': 'demo' }, body: JSON.stringify({ email: nul, password: nul }) });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({ statusCode: 400, code: 'BAD_USER_INPUT' });
    const search = await fetch(`${s.url}/companies/search?search=a%00b`, { headers: bearer(jwts.player) });
    expect(search.status).toBe(400);
  });

  it('GraphQL: batched operations (a JSON array body)', async () => {
    await hostile('batch', batchArb, 5, BASE_SEED + 5);
  });

  it('bodies: bad JSON, invalid UTF-8, wrong content types, over 1 MiB', async () => {
    await hostile('bodies', bodyArb, 30, BASE_SEED + 6);
  });

  it('credentials: forged, tampered, expired, foreign-tenant and garbage JWTs on every route', async () => {
    const routes = ['/posts/1', '/posts/1/comments', '/tournaments/me', '/companies/search', `/invitations/jwt/<invitation-jwt>`];
    const arb = fc.tuple(fc.constantFrom(...JWT_NAMES).map((name): Auth => ({ kind: 'jwt', name })), fc.constantFrom(...routes, '/graphql'), tenantHeadersArb)
      .map(([auth, path, tenant]): Req => path === '/graphql'
        ? { ...gqlPost('jwt', '{ me { id email company { id } } company { id } myTournaments { id } }', {}, auth), headers: { 'content-type': 'application/json', ...tenant } }
        : resolvePath({ cat: 'jwt', method: 'GET', path, headers: tenant, auth }));
    await hostile('jwt', arb, 15, BASE_SEED + 7);
  });

  it('a token signed with the service secret but naming another tenant grants nothing', async () => {
    for (const name of ['otherTenant', 'otherTenantAdmin']) {
      const r = await s.gql('{ me { id } }', {}, bearer(jwts[name]));
      expect(r.errors?.[0].extensions.code, name).toBe('UNAUTHENTICATED');
    }
    // The role claim is not believed: player1 stays a player.
    const escalated = await s.gql('{ company { id } }', {}, { ...bearer(jwts.roleEscalation), 'x-app-company': 'GLOBEX' });
    expect(escalated.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const tampered = await s.gql('{ me { id } }', {}, bearer(jwts.tamperedPayload));
    expect(tampered.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('malformed URLs: undecodable escapes, near-miss paths, unknown methods, over-long request lines and headers', async () => {
    await hostile('urls', urlArb, 15, BASE_SEED + 8);
  });

  it('malformed HTTP: control bytes and raw UTF-8 in headers, broken request lines, conflicting lengths', async () => {
    await hostile('raw', rawArb, 10, BASE_SEED + 9);
  });

  it(`sent at least ${MIN_REQUESTS} hostile requests`, () => {
    console.info(`hostile input: ${sent} requests, slowest ${Math.round(slowest.ms)} ms (${slowest.what})\n${[...counts].map(([c, n]) => `  ${c}: ${n}`).join('\n')}`);
    expect(sent).toBeGreaterThanOrEqual(MIN_REQUESTS);
  });

  it('still serves: a normal authenticated query answers correctly, and /healthz is 200', async () => {
    const me = await s.gql('{ me { email company { name } } }', {}, bearer(jwts.player));
    expect(me.status).toBe(200);
    expect(me.errors).toBeUndefined();
    expect(me.data.me).toEqual({ email: 'player1@demo.test', company: { name: expect.any(String) } });
    const rest = await fetch(`${s.url}/tournaments/me`, { headers: bearer(jwts.player) });
    expect(rest.status).toBe(200);
    expect(Array.isArray(await rest.json())).toBe(true);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });
});
