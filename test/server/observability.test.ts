// The log line every request leaves, and OpenTelemetry spans exported to a real OTLP/HTTP receiver.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { suiteProvider, templateCopy } from '../helpers/db.ts';
import { liveClient, untilSubscribed } from '../helpers/live.ts';
import { DEMO_PASSWORD as PASSWORD } from '../helpers/app.ts';
import { ROOT, startService, type Service } from '../helpers/process.ts';

const EMAIL = 'player1@demo.test';
const RECORDER = join(ROOT, 'test/fixtures/observability/record-imports.mjs');

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'prode-observe-'));
  dirs.push(dir);
  return dir;
}
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  for (const drop of drops) await drop();
});

/** A seeded database of the suite's kind, a data dir, and a file the import recorder writes to. */
async function serviceEnv(extra: Record<string, string | undefined>) {
  const { target, drop } = await templateCopy('seeded');
  drops.push(drop);
  const dir = tempDir();
  const imports = join(dir, 'imports.txt');
  const env = {
    DATA_DIR: dir,
    DATABASE_URL: target.provider === 'postgresql' ? target.url : `file:${target.file}`,
    SEED_ON_EMPTY: 'true',
    LOG_LEVEL: 'info',
    SHUTDOWN_DELAY_MS: '0',
    NODE_OPTIONS: `--import=${RECORDER}`,
    RECORD_IMPORTS_TO: imports,
    ...extra,
  };
  return { env, imports: () => readFileSync(imports, { encoding: 'utf8', flag: 'a+' }) };
}

async function gql(service: Service, query: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-path': 'demo', ...headers },
    body: JSON.stringify({ query }),
  });
  return {
    res,
    body: (await res.json()) as { data?: unknown; errors?: Array<{ message: string; extensions: { code: string } }> },
  };
}

async function login(service: Service, email = EMAIL): Promise<string> {
  const res = await fetch(`${service.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-path': 'demo' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

type Line = Record<string, unknown>;
const jsonLines = (output: string): Line[] =>
  output
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Line);

describe(`the request log (${suiteProvider})`, () => {
  it('one JSON line per request: operation, root fields, tenant, user, status, codes, SQL; no secret', async () => {
    const { env, imports } = await serviceEnv({});
    const service = await startService(env);
    let output: string;
    try {
      const token = await login(service);
      const auth = { authorization: `Bearer ${token}` };
      const ok = await gql(service, 'query Mine { me { id } myTournaments { id } }', auth);
      expect(ok.body.errors).toBeUndefined();
      const failed = await gql(
        service,
        `mutation BadLogin { login(email: "${EMAIL}", password: "not-the-password") { token } }`,
      );
      expect(failed.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
      const rest = await fetch(`${service.url}/invitations/jwt/${token}`, { headers: { 'x-app-path': 'demo' } });
      expect(rest.status).toBe(404);
      // A query string is not logged: this one is refused (unknown parameter) and its value must not show.
      const queried = await fetch(`${service.url}/tournaments/me?secret=query-secret`, { headers: auth });
      expect(queried.status).toBe(400);
      const ids = [ok.res, failed.res, rest].map((r) => r.headers.get('x-request-id'));
      // A subscription: a line when it starts, one when it ends.
      const live = liveClient(service.url, { Authorization: `Bearer ${token}`, 'x-app-path': 'demo' });
      live.subscribe('subscription Alerts { notificationReceived { missedEvents } }');
      await untilSubscribed(service.url, 1);
      await live.dispose();
      await new Promise((r) => setTimeout(r, 300));
      expect(await service.stop()).toBe(0);
      output = service.output();
      const lines = jsonLines(output);
      const [mine, bad, invitation] = ids.map((id) => {
        const forRequest = lines.filter((l) => l.reqId === id);
        expect(forRequest, `lines of request ${id}`).toHaveLength(1);
        return forRequest[0];
      });
      const me = (ok.body.data as { me: { id: number } }).me.id;
      expect(mine).toMatchObject({
        msg: 'request',
        level: 30,
        method: 'POST',
        url: '/graphql',
        route: '/graphql',
        status: 200,
        operation: 'Mine',
        rootFields: ['me', 'myTournaments'],
        tenantPath: 'demo',
        userId: me,
      });
      expect(mine.tenantId).toEqual(expect.any(Number));
      expect(mine.ms).toEqual(expect.any(Number));
      expect(mine.sqlStatements).toBeGreaterThan(0);
      expect(mine.errorCodes).toBeUndefined();
      expect(bad).toMatchObject({ operation: 'BadLogin', rootFields: ['login'], errorCodes: ['UNAUTHENTICATED'] });
      expect(invitation).toMatchObject({
        method: 'GET',
        url: '/invitations/jwt/[redacted]',
        route: '/invitations/jwt/:jwt',
        status: 404,
        operation: 'RestInvitationByJwt',
        rootFields: ['invitationByJwt'],
        errorCodes: ['NOT_FOUND'],
      });
      const subscription = {
        operation: 'Alerts',
        rootFields: ['notificationReceived'],
        tenantPath: 'demo',
        userId: me,
      };
      expect(lines.filter((l) => l.msg === 'subscription')).toEqual([
        expect.objectContaining({ ...subscription, event: 'subscribe' }),
        expect.objectContaining({ ...subscription, event: 'complete', ms: expect.any(Number) }),
      ]);
      // Fastify's own pair of lines is gone; start-up spoke JSON too (every line parsed above).
      expect(output).not.toMatch(/incoming request|request completed/);
      expect(lines.find((l) => l.msg === 'prode gateway ready')).toMatchObject({ tracing: 'off' });
      for (const secret of [token, PASSWORD, 'not-the-password', EMAIL, 'query-secret'])
        expect(output, 'a secret in the log').not.toContain(secret);
      // No tracing asked for: the SDK was never imported (the API alone is).
      expect(imports()).not.toMatch(/sdk-trace|exporter|context-async-hooks/);
      expect(imports()).toMatch(/@opentelemetry\/api/);
    } finally {
      await service.stop();
    }
  });
});

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: number | string } }>;
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: OtlpExport['resourceSpans'][number]['scopeSpans'][number]['spans'][number]['attributes'] extends infer A
      ? { attributes: A }
      : never;
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

/** An OTLP/HTTP receiver on loopback: keeps the JSON bodies POSTed to /v1/traces and their headers. */
async function otlpReceiver() {
  const exports: Array<{ body: OtlpExport; headers: IncomingHttpHeaders }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        exports.push({ body: JSON.parse(body) as OtlpExport, headers: req.headers });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, exports, close: () => new Promise((r) => server.close(r)) };
}

const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

describe(`OpenTelemetry tracing (${suiteProvider})`, () => {
  it('exports HTTP, operation, resolver and SQL spans of a request, parented in the caller’s trace', async () => {
    const receiver = await otlpReceiver();
    const { env, imports } = await serviceEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=collector%20key',
      // Each request runs: the response cache would serve the second one unrun.
      RESPONSE_CACHE_MB: '0',
    });
    const service = await startService(env);
    const traceId = 'a1'.repeat(16);
    const callerSpan = 'b2'.repeat(8);
    try {
      const auth = { authorization: `Bearer ${await login(service)}` };
      // Twice: the second run is graphql-jit's compiled operation, whose resolvers must be traced as well.
      const responses = [];
      for (const i of [1, 2]) {
        const traceparent = `00-${traceId.slice(0, 30)}0${i}-${callerSpan}-01`;
        const { res, body } = await gql(service, 'query Feed { me { id } myTournaments { id } }', {
          ...auth,
          traceparent,
        });
        expect(body.errors).toBeUndefined();
        responses.push(res);
      }
      // A refusal whose message names an e-mail address (already registered): its spans must not carry it.
      const admin = { authorization: `Bearer ${await login(service, 'admin@demo.test')}` };
      const refused = await gql(
        service,
        `mutation Invite { createInvitation(input: { email: "${EMAIL}" }) { token } }`,
        admin,
      );
      expect(refused.body.errors?.[0].message).toContain(EMAIL);
      // Stopping exports the spans still batched.
      expect(await service.stop()).toBe(0);
      expect(imports()).toMatch(/sdk-trace/);
      expect(receiver.exports.length).toBeGreaterThan(0);
      expect(receiver.exports[0].headers['x-collector-key']).toBe('collector key');
      const resource = receiver.exports[0].body.resourceSpans[0].resource.attributes;
      expect(resource.find((a) => a.key === 'service.name')?.value.stringValue).toBe('prode-gateway');
      const spans = receiver.exports.flatMap((e) =>
        e.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)),
      );
      for (const i of [1, 2]) {
        const inTrace = spans.filter((s) => s.traceId === `${traceId.slice(0, 30)}0${i}`);
        const http = inTrace.find((s) => s.name === 'POST /graphql');
        expect(http, `request ${i}: HTTP span`).toBeDefined();
        expect(http!.kind).toBe(2); // server
        expect(http!.parentSpanId).toBe(callerSpan);
        expect(attr(http!, 'http.response.status_code')).toBe(200);
        expect(http!.spanId).not.toBe(responses[i - 1].headers.get('x-request-id'));
        const operation = inTrace.find((s) => s.name === 'query Feed');
        expect(operation?.parentSpanId, `request ${i}: operation span`).toBe(http!.spanId);
        expect(attr(operation!, 'graphql.operation.name')).toBe('Feed');
        expect(attr(operation!, 'graphql.operation.type')).toBe('query');
        const resolvers = inTrace.filter((s) => s.name.startsWith('Query.'));
        expect(resolvers.map((s) => [s.name, s.parentSpanId]).sort()).toEqual([
          ['Query.me', operation!.spanId],
          ['Query.myTournaments', operation!.spanId],
        ]);
        const statements = inTrace.filter((s) => attr(s, 'db.system.name') === suiteProvider);
        expect(statements.length, `request ${i}: SQL spans`).toBeGreaterThan(0);
        expect(statements.every((s) => s.kind === 3)).toBe(true); // client
        const parents = [http!, operation!, ...resolvers].map((s) => s.spanId);
        expect(statements.every((s) => parents.includes(s.parentSpanId!))).toBe(true);
        // myTournaments reads the tournaments itself: its statement is its child.
        const myTournaments = resolvers.find((s) => s.name === 'Query.myTournaments')!;
        expect(statements.some((s) => s.parentSpanId === myTournaments.spanId)).toBe(true);
        expect(statements.map((s) => attr(s, 'db.query.text')).join('\n')).toMatch(/SELECT/i);
      }
      const invite = spans.find((s) => s.name === 'Mutation.createInvitation');
      expect(attr(invite!, 'error.type')).toBe('CONFLICT');
      const exported = JSON.stringify(receiver.exports.map((e) => e.body));
      for (const secret of [EMAIL, 'admin@demo.test', PASSWORD, auth.authorization.slice(7)])
        expect(exported, 'a secret in the exported spans').not.toContain(secret);
      // The request log carries the trace id, to go from a line to its trace.
      const line = jsonLines(service.output()).find((l) => l.msg === 'request' && l.operation === 'Feed');
      expect(line?.traceId).toBe(`${traceId.slice(0, 30)}01`);
    } finally {
      await service.stop();
      await receiver.close();
    }
  });
});
