// Hostile input, property-based (fast-check): generated malformed requests over real HTTP against every REST route
// and every GraphQL root field, and transport-level abuse, split by concern into the test files of this folder.
//
// Properties, for every response:
// - never a 5xx, never a hang (each request has a deadline), never a stack trace or internals;
// - REST (and anything served outside GraphQL): 2xx, or 4xx with exactly the documented body
//   { statusCode, error, code, message } (docs/design.md "Errors"), statusCode equal to the HTTP status;
// - GraphQL: 2xx with data, or `errors` where every error has an extensions.code that is not
//   INTERNAL_SERVER_ERROR.
// After its run each file's server still responds to a normal authenticated query correctly, and /healthz is 200.
//
// Every fc.assert has a fixed seed: a failure prints the seed and path that reproduce it, and the error message
// carries the exact request.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { DEFAULT_USER_JSON } from '../../../src/domain/defaults.ts';
import { hashPassword } from '../../../src/auth/passwords.ts';
import { bearer, DEMO_PASSWORD } from '../../helpers/app.ts';
import { clip, counts, DEADLINE_MS, describeReq, send, stats, type Req, type Res } from './requests.ts';
import { target } from './server.ts';

/** Requests in flight at once (each fast-check run sends this many concurrently). */
export const POOL = 4;
/** Seeds are BASE_SEED plus a number of the property's own, the same wherever the property runs. */
export const BASE_SEED = 20_260_611;

/** The codes a REST (or transport-level) error body may carry: docs/design.md "Errors" and src/rest/routes.ts. */
const REST_CODES = new Set([
  'BAD_USER_INPUT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'METHOD_NOT_ALLOWED',
  'QUERY_TOO_COSTLY',
  'RESPONSE_TOO_LARGE',
]);
// A stack frame ("at fn (/path/file.ts:12:5)"), a source position, or internals that only a crash would show.
const LEAK = new RegExp(
  [
    String.raw`\n\s+at \S`,
    String.raw`\bat [\w$.<>[\] ]+ \([^)]*:\d+:\d+\)`,
    String.raw`\.(?:[cm]?[jt]s):\d+:\d+`,
    '"stacktrace"',
    'node_modules',
    String.raw`(?:\/[\w.-]+)+\/src\/[\w/.-]+`,
    'Invalid `prisma',
    String.raw`PrismaClient\w*Error`,
    'SQLITE_',
    'better-sqlite3',
  ].join('|'),
);

function fail(r: Req, res: Res, why: string): never {
  throw new Error(
    `${why}\n  request: ${describeReq(r)}\n  response: ${res.status} (${Math.round(res.ms)} ms) ${clip(res.text, 600)}`,
  );
}

function parse(r: Req, res: Res): unknown {
  try {
    return JSON.parse(res.text);
  } catch {
    return fail(r, res, 'the response is not JSON');
  }
}

const isErrorBodyShape = (b: unknown): b is Record<string, unknown> =>
  typeof b === 'object' && b !== null && !Array.isArray(b) && 'statusCode' in b;

function checkErrorBody(r: Req, res: Res, body: unknown) {
  if (res.status < 400 || res.status >= 500) fail(r, res, `an error response must be 4xx, got ${res.status}`);
  if (!isErrorBodyShape(body)) return fail(r, res, 'a non-2xx response must be the documented error body');
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'code,error,message,statusCode')
    fail(r, res, `the error body must have exactly {statusCode, error, code, message}, has {${keys}}`);
  if (body.statusCode !== res.status)
    fail(r, res, `statusCode ${String(body.statusCode)} differs from the HTTP status ${res.status}`);
  if (typeof body.error !== 'string' || typeof body.message !== 'string' || typeof body.code !== 'string')
    fail(r, res, 'error, code and message must be strings');
  if (!REST_CODES.has(body.code as string)) fail(r, res, `undocumented error code ${String(body.code)}`);
}

function checkGraphqlBody(r: Req, res: Res, body: unknown) {
  if (typeof body !== 'object' || body === null) return fail(r, res, 'a GraphQL response must be a JSON object');
  const b = body as { data?: unknown; errors?: unknown };
  if (b.errors !== undefined) {
    if (!Array.isArray(b.errors) || b.errors.length === 0) fail(r, res, '`errors` must be a non-empty array');
    for (const e of b.errors as Array<{ message?: unknown; extensions?: { code?: unknown } }>) {
      if (typeof e?.message !== 'string') fail(r, res, 'every GraphQL error needs a message');
      const code = e.extensions?.code;
      if (typeof code !== 'string') fail(r, res, 'every GraphQL error needs extensions.code');
      if (code === 'INTERNAL_SERVER_ERROR') fail(r, res, 'a client mistake got INTERNAL_SERVER_ERROR');
    }
    return;
  }
  if (res.status < 200 || res.status >= 300)
    fail(r, res, `a GraphQL response without errors must be 2xx, got ${res.status}`);
  if (typeof b.data !== 'object' || b.data === null) fail(r, res, 'a GraphQL response without errors must carry data');
}

const slowest = { ms: 0, what: '' };

function check(r: Req, res: Res) {
  if (res.ms > slowest.ms) Object.assign(slowest, { ms: res.ms, what: clip(describeReq(r), 160) });
  if (res.status >= 500) fail(r, res, `5xx response`);
  if (LEAK.test(res.text)) fail(r, res, 'the response leaks a stack trace or internals');
  if (res.ms > DEADLINE_MS) fail(r, res, 'too slow');
  if (r.raw && res.status === 0) return; // closed without a response to a half-closed raw client (see sendRaw)
  const body = parse(r, res);
  if (r.graphql) {
    if (Array.isArray(body)) fail(r, res, 'batched operations are off: a JSON array response is not expected');
    // Refused before GraphQL ran (body parser, size, content type): the transport's error body.
    if (isErrorBodyShape(body)) return checkErrorBody(r, res, body);
    return checkGraphqlBody(r, res, body);
  }
  if (res.status >= 200 && res.status < 300) return;
  checkErrorBody(r, res, body);
}

/** One property run: POOL requests sent concurrently, every response checked. */
export async function hostile(name: string, arb: fc.Arbitrary<Req>, numRuns: number, seed: number) {
  await fc.assert(
    fc.asyncProperty(fc.array(arb, { minLength: POOL, maxLength: POOL }), async (reqs) => {
      const responses = await Promise.all(reqs.map(send));
      reqs.forEach((r, i) => check(r, responses[i]));
    }),
    {
      numRuns,
      seed,
      // The default report prints whole counterexamples (bodies of megabytes): print the failing request instead.
      reporter: (d) => {
        if (!d.failed) return;
        const why = d.errorInstance instanceof Error ? d.errorInstance.message : String(d.errorInstance);
        throw new Error(
          `[${name}] property failed after ${d.numRuns} runs (shrunk ${d.numShrinks} times); replay with { seed: ` +
            `${d.seed}, path: "${d.counterexamplePath}", endOnFailure: true }\n${why}`,
        );
      },
    },
  );
}

/**
 * The closing checks of a file, after its properties ran: it sent at least the number of hostile requests it
 * promises (so that lowering a run count is a visible decision), and its server still serves.
 */
export function closingChecks(minRequests: number): void {
  it(`sent at least ${minRequests} hostile requests`, () => {
    const byCategory = [...counts].map(([c, n]) => `  ${c}: ${n}`).join('\n');
    console.info(
      `hostile input: ${stats.sent} requests, slowest ${Math.round(slowest.ms)} ms (${slowest.what})\n${byCategory}`,
    );
    expect(stats.sent).toBeGreaterThanOrEqual(minRequests);
  });

  it('still serves: a normal authenticated query is served correctly, and /healthz is 200', async () => {
    const { s } = target;
    // A person who joins now: the hostile requests, some of them with the reseller's real token, may have renamed,
    // deactivated or deleted the demo accounts (legitimately: the reseller administers Demo Corp's people).
    const p = s.t.db.prisma;
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const email = `still-serves-${Date.now()}@demo.test`;
    await p.user.create({
      data: {
        ...DEFAULT_USER_JSON,
        companyId: s.demo.companies.DEMO,
        name: 'Still Serves',
        email,
        passwordHash,
        externalId: email,
        loginProviderId: email,
      },
    });
    const token = await s.login(email);
    const me = await s.gql('{ me { email company { name } } }', {}, bearer(token));
    expect(me.status).toBe(200);
    expect(me.errors).toBeUndefined();
    expect(me.data.me).toEqual({ email, company: { name: expect.any(String) } });
    const rest = await fetch(`${s.url}/tournaments/me`, { headers: bearer(token) });
    expect(rest.status).toBe(200);
    expect(Array.isArray(await rest.json())).toBe(true);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });
}
