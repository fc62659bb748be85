// Rate limits, body and time limits, the alias limit, security headers, CORS, batching, metrics and logs,
// each against a real server configured for the case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, DEMO_PASSWORD, startTestServer, TEST_JWT_SECRET, type TestServer } from '../helpers/app.ts';
import { forgeInvitationLink } from '../helpers/tokens.ts';

const json = { 'content-type': 'application/json' };
const loginBody = (email: string, password = DEMO_PASSWORD) => JSON.stringify({ email, password });

function expectErrorBody(body: unknown, statusCode: number, code: string) {
  expect(body).toEqual({ statusCode, error: expect.any(String), code, message: expect.any(String) });
}

describe('general rate limit (RATE_LIMIT_MAX)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000' } });
  });
  afterAll(() => s.close());

  it('returns 429 with the error body and retry-after past the limit; probes are never limited', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(`${s.url}/companies/search`)).status);
    expect(statuses.every((st) => st === 401)).toBe(true); // counted, though refused for want of a token
    const over = await fetch(`${s.url}/companies/search`);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expectErrorBody(await over.json(), 429, 'RATE_LIMITED');
    const gql = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(gql.status).toBe(429);
    expectErrorBody(await gql.json(), 429, 'RATE_LIMITED');
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${s.url}/metrics`)).status).toBe(200);
  });
});

describe('login rate limit (LOGIN_RATE_LIMIT_MAX), shared by REST and GraphQL', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { LOGIN_RATE_LIMIT_MAX: '3' } });
  });
  afterAll(() => s.close());

  it('after three failures refuses the e-mail, even with the right password, and not another e-mail', async () => {
    const email = 'player1@demo.test';
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${s.url}/auth/login`, {
        method: 'POST',
        headers: { ...json, 'x-app-path': 'demo' },
        body: loginBody(email, 'wrong-password'),
      });
      expect(r.status).toBe(401);
    }
    const third = await s.gql(
      'mutation { login(email: "player1@demo.test", password: "wrong") { token } }',
      {},
      { 'x-app-path': 'demo' },
    );
    expect(third.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');

    const fourth = await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { ...json, 'x-app-path': 'demo' },
      body: loginBody(email),
    });
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expectErrorBody(await fourth.json(), 429, 'RATE_LIMITED');
    const viaGraphql = await s.gql(
      `mutation { login(email: "${email.toUpperCase()}", password: "${DEMO_PASSWORD}") { token } }`,
      {},
      { 'x-app-path': 'demo' },
    );
    expect(viaGraphql.status).toBe(429);
    expect(Number(viaGraphql.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(viaGraphql.errors?.[0].extensions).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterSeconds: expect.any(Number),
    });
    expect(viaGraphql.data).toBeNull();

    expect(await s.login('player2@demo.test', 'demo')).toMatch(/^ey/);
  });

  it('counts failures only: successful logins never lock anyone out', async () => {
    for (let i = 0; i < 5; i++) expect(await s.login('player5@demo.test', 'demo')).toMatch(/^ey/);
  });

  it('refuses an e-mail longer than 254 characters before it costs anything', async () => {
    const r = await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: json,
      body: loginBody(`${'a'.repeat(300)}@demo.test`),
    });
    expect(r.status).toBe(400);
    expectErrorBody(await r.json(), 400, 'BAD_USER_INPUT');
  });
});

describe('body size, request time and alias limits', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { BODY_LIMIT_BYTES: '2048', GRAPHQL_MAX_ALIASES: '3' } });
  });
  afterAll(() => s.close());

  it('refuses a body over BODY_LIMIT_BYTES with 413 and the error body', async () => {
    const big = JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(4096) });
    const r = await fetch(`${s.url}/auth/login`, { method: 'POST', headers: json, body: big });
    expect(r.status).toBe(413);
    expectErrorBody(await r.json(), 413, 'PAYLOAD_TOO_LARGE');
    const g = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ query: `{ __typename } # ${'x'.repeat(4096)}` }),
    });
    expect(g.status).toBe(413);
  });

  it('refuses more than GRAPHQL_MAX_ALIASES aliases before running anything', async () => {
    const token = await s.login('player1@demo.test');
    const ok = await s.gql('{ a: me { id } b: me { id } c: me { id } }', {}, bearer(token));
    expect(ok.errors).toBeUndefined();
    const r = await s.gql('{ a: me { id } b: me { id } c: me { id } d: me { id } }', {}, bearer(token));
    expect(r.status).toBe(400);
    expect(r.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/more than 3 aliases/),
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(r.extensions?.sqlStatements ?? 0).toBeLessThanOrEqual(2); // the caller's lookup only: nothing resolved
  });

  it('refuses batched operations (a JSON array body)', async () => {
    const r = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]),
    });
    expect(r.status).toBe(400);
  });
});

describe('request timeout (REQUEST_TIMEOUT_MS)', () => {
  let s: TestServer;
  beforeAll(async () => {
    // A login costs one scrypt (tens of ms): far over a 5 ms deadline.
    s = await startTestServer({ env: { REQUEST_TIMEOUT_MS: '5' } });
  });
  afterAll(() => s.close());

  it('returns 504 REQUEST_TIMEOUT with the error body, over REST and GraphQL, and keeps serving', async () => {
    const r = await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { ...json, 'x-app-path': 'demo' },
      body: loginBody('player1@demo.test'),
    });
    expect(r.status).toBe(504);
    expectErrorBody(await r.json(), 504, 'REQUEST_TIMEOUT');
    const g = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { ...json, 'x-app-path': 'demo' },
      body: JSON.stringify({
        query: `mutation { login(email: "player2@demo.test", password: "${DEMO_PASSWORD}") { token } }`,
      }),
    });
    expect(g.status).toBe(504);
    expectErrorBody(await g.json(), 504, 'REQUEST_TIMEOUT');
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });
});

describe('security headers and CORS', () => {
  let closed: TestServer;
  let open: TestServer;
  beforeAll(async () => {
    closed = await startTestServer({ seed: false });
    open = await startTestServer({
      seed: false,
      env: { CORS_ORIGINS: 'https://app.example.com,https://admin.example.com' },
    });
  });
  afterAll(async () => {
    await closed.close();
    await open.close();
  });

  it('sends helmet headers everywhere and a deny-all CSP on JSON', async () => {
    const r = await fetch(`${closed.url}/healthz`);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(r.headers.get('strict-transport-security')).toMatch(/max-age=/);
    expect(r.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const g = await fetch(`${closed.url}/graphql`, {
      method: 'POST',
      headers: { ...json, accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(g.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    expect(g.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(r.headers.get('x-powered-by')).toBeNull();
  });

  it('without CORS_ORIGINS returns no CORS headers; with it, only the listed origins', async () => {
    const preflight = (url: string, origin: string) =>
      fetch(`${url}/graphql`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,authorization',
        },
      });
    expect(
      (await preflight(closed.url, 'https://app.example.com')).headers.get('access-control-allow-origin'),
    ).toBeNull();
    const allowed = await preflight(open.url, 'https://app.example.com');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    const other = await preflight(open.url, 'https://evil.example.net');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('metrics and logs', () => {
  const lines: string[] = [];
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      env: { LOG_LEVEL: 'info', METRICS_TOKEN: 'metrics-token-0123456789' },
      logStream: { write: (line) => void lines.push(line) },
    });
  });
  afterAll(() => s.close());

  it(
    'counts requests per route, operations, SQL statements and errors by code at /metrics, behind ' + 'METRICS_TOKEN',
    async () => {
      const token = await s.login('player1@demo.test');
      await s.gql('query Me { me { id } }', {}, bearer(token));
      await fetch(`${s.url}/posts/999999`, { headers: { ...bearer(token), 'x-app-company': '1' } });
      await fetch(`${s.url}/nowhere`);

      expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
      const r = await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-0123456789' } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/text\/plain/);
      const text = await r.text();
      expect(text).toMatch(/prode_http_requests_total\{method="POST",route="\/graphql",status="200"\} [1-9]/);
      expect(text).toMatch(/prode_http_requests_total\{method="GET",route="unmatched",status="404"\} 1/);
      expect(text).toMatch(/prode_http_request_duration_seconds_bucket\{le="0.005",method="POST",route="\/graphql"\}/);
      expect(text).toMatch(/prode_graphql_operations_total\{operation="me",outcome="ok"\} 1/);
      expect(text).toMatch(/prode_graphql_operations_total\{operation="login",outcome="ok"\} 1/);
      expect(text).toMatch(/prode_errors_total\{code="FORBIDDEN"\} 1/); // a player may not use x-app-company
      expect(text).toMatch(/prode_errors_total\{code="NOT_FOUND"\} 1/);
      expect(text).toMatch(/prode_sql_statements_total\{route="\/graphql"\} [1-9]/);
      expect(text).toMatch(/prode_process_resident_memory_bytes \d+/);
    },
  );

  it('writes one JSON line per event with the request id the client saw, and never a credential', async () => {
    const invitationJwt = await forgeInvitationLink(s.demo.invitations['new.hire1@demo.test']);
    const viaPath = await fetch(`${s.url}/invitations/jwt/${invitationJwt}`, { headers: { 'x-app-path': 'demo' } });
    expect(viaPath.status).toBe(200);
    const requestId = viaPath.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    const token = await s.loginAs('admin');
    await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { ...json, 'x-app-path': 'demo' },
      body: loginBody('player3@demo.test', 'Wrong-password-2026!'),
    });
    await fetch(`${s.url}/companies/search`, {
      headers: { authorization: 'Bearer not.a.jwt', cookie: 'session=cookie-secret' },
    });

    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.some((e) => e.reqId === requestId)).toBe(true);
    const hashes = (await s.t.db.prisma.user.findMany({ select: { passwordHash: true }, take: 50 }))
      .map((u) => u.passwordHash)
      .filter(Boolean) as string[];
    const all = lines.join('\n');
    for (const secret of [
      DEMO_PASSWORD,
      'Wrong-password-2026!',
      token,
      invitationJwt,
      TEST_JWT_SECRET,
      'not.a.jwt',
      'cookie-secret',
      ...hashes,
    ]) {
      expect(all.includes(secret), `log lines contain ${secret.slice(0, 12)}...`).toBe(false);
    }
    expect(all).toContain('/invitations/jwt/[redacted]');
  });
});
