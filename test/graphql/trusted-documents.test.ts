// Trusted documents (PERSISTED_OPERATIONS_ONLY=true) and automatic persisted queries, over a real server: only the
// manifest's operations run, by hash or exact text, over HTTP, the REST routes and WebSocket; without the mode,
// APQ registers a hash on first use (docs/trusted-documents.md).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import { MeDocument } from '../../src/graphql/generated/operations.ts';
import { buildManifest, sha256Hex } from '../../src/graphql/operations-manifest.ts';
import { TrustedDocuments } from '../../src/graphql/trusted-documents.ts';
import { bearer, DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/app.ts';
import { activeSubscriptions, liveClient, untilSubscribed, type LiveResult } from '../helpers/live.ts';

const manifest = buildManifest();
const listed = (name: string) => manifest.operations.find((op) => op.name === name)!;
const NOT_LISTED = '{ me { id email } }';

/** A raw POST /graphql: APQ requests carry extensions and may carry no query. */
async function post(url: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: any[] } };
}
const apq = (sha256Hash: string) => ({ persistedQuery: { version: 1, sha256Hash } });
const codeOf = (r: { body: { errors?: any[] } }) => r.body.errors?.[0]?.extensions?.code;

describe('PERSISTED_OPERATIONS_ONLY=true', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer({ env: { PERSISTED_OPERATIONS_ONLY: 'true' } });
    token = await s.loginAs('player'); // the Login operation, sent as its manifest text
  });
  afterAll(() => s?.close());

  it('runs a manifest operation sent as its exact text', async () => {
    const r = await s.gql(MeDocument, {}, bearer(token));
    expect(r.errors).toBeUndefined();
    expect(r.data.me.email).toBe('player1@demo.test');
  });

  it('runs a manifest operation sent by its hash alone (POST, and GET for caches)', async () => {
    const byPost = await post(s.url, { operationName: 'Me', extensions: apq(listed('Me').id) }, bearer(token));
    expect(byPost.status).toBe(200);
    expect(byPost.body.data.me.email).toBe('player1@demo.test');
    const params = new URLSearchParams({ operationName: 'Me', extensions: JSON.stringify(apq(listed('Me').id)) });
    const byGet = await fetch(`${s.url}/graphql?${params}`, {
      headers: { ...bearer(token), 'apollo-require-preflight': 'true' },
    });
    expect(byGet.status).toBe(200);
    expect(((await byGet.json()) as any).data.me.email).toBe('player1@demo.test');
  });

  it('refuses any other document before parsing it: 400 PERSISTED_QUERY_NOT_IN_LIST', async () => {
    for (const query of [NOT_LISTED, '{{{ not even graphql', `${listed('Me').body} `]) {
      const r = await post(s.url, { query }, bearer(token));
      expect(r.status, query).toBe(400);
      expect(codeOf(r), query).toBe('PERSISTED_QUERY_NOT_IN_LIST');
      expect(r.body.data).toBeUndefined();
    }
    const byGet = await fetch(`${s.url}/graphql?${new URLSearchParams({ query: NOT_LISTED })}`, {
      headers: { ...bearer(token), 'apollo-require-preflight': 'true' },
    });
    expect(byGet.status).toBe(400);
    expect(((await byGet.json()) as any).errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
  });

  it('refuses introspection, which is not a manifest operation', async () => {
    const r = await post(s.url, { query: '{ __schema { types { name } } }' });
    expect(r.status).toBe(400);
    expect(codeOf(r)).toBe('PERSISTED_QUERY_NOT_IN_LIST');
  });

  it('keeps no registration: an unknown hash stays PERSISTED_QUERY_NOT_FOUND after its text is sent', async () => {
    const hash = sha256Hex(NOT_LISTED);
    const first = await post(s.url, { extensions: apq(hash) }, bearer(token));
    expect([first.status, codeOf(first)]).toEqual([200, 'PERSISTED_QUERY_NOT_FOUND']);
    const register = await post(s.url, { query: NOT_LISTED, extensions: apq(hash) }, bearer(token));
    expect([register.status, codeOf(register)]).toEqual([400, 'PERSISTED_QUERY_NOT_IN_LIST']);
    const again = await post(s.url, { extensions: apq(hash) }, bearer(token));
    expect([again.status, codeOf(again)]).toEqual([200, 'PERSISTED_QUERY_NOT_FOUND']);
  });

  it('keeps the REST routes working: they run their own operations, which the manifest lists', async () => {
    const login = await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-path': 'demo' },
      body: JSON.stringify({ email: 'player1@demo.test', password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const mine = await fetch(`${s.url}/tournaments/me`, { headers: { ...bearer(token), 'x-app-path': 'demo' } });
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as unknown[]).length).toBeGreaterThan(0);
  });

  it('holds WebSocket subscriptions to the manifest too: by text or hash, and nothing else', async () => {
    const c = liveClient(s.url, { Authorization: `Bearer ${token}`, 'x-app-path': 'demo' });
    try {
      const before = await activeSubscriptions(s.url);
      c.subscribe(listed('NotificationReceived').body);
      const byHash: LiveResult[] = [];
      c.client.subscribe(
        { query: '', extensions: apq(listed('NotificationReceived').id) },
        {
          next: (r) => void byHash.push(r as LiveResult),
          error: (e) => void byHash.push({ errors: e as any }),
          complete: () => {},
        },
      );
      await untilSubscribed(s.url, before + 2);
      expect(byHash).toEqual([]);
      const other = c.subscribe('subscription { notificationReceived { missedEvents } }');
      await expect(other.ended).resolves.toMatchObject({
        error: [expect.objectContaining({ extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } })],
      });
      expect(await activeSubscriptions(s.url)).toBe(before + 2);
    } finally {
      await c.dispose();
    }
  });
});

describe('automatic persisted queries (the default mode)', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer();
    token = await s.loginAs('player');
  });
  afterAll(() => s?.close());

  it('a hash is unknown until its text is sent once with it; then the hash alone runs it', async () => {
    const query = '{ me { id email } }';
    const hash = sha256Hex(query);
    const first = await post(s.url, { extensions: apq(hash) }, bearer(token));
    expect([first.status, codeOf(first)]).toEqual([200, 'PERSISTED_QUERY_NOT_FOUND']);
    const register = await post(s.url, { query, extensions: apq(hash) }, bearer(token));
    expect(register.body.data.me.email).toBe('player1@demo.test');
    const byHash = await post(s.url, { extensions: apq(hash) }, bearer(token));
    expect(byHash.status).toBe(200);
    expect(byHash.body.data.me.email).toBe('player1@demo.test');
  });

  it('refuses a hash that is not the text’s (no one can bind another text to a known hash)', async () => {
    const r = await post(s.url, { query: NOT_LISTED, extensions: apq(listed('Me').id) });
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0].message).toMatch(/provided sha does not match query/);
  });

  it('runs documents outside the manifest, as any GraphQL server', async () => {
    const r = await s.gql(NOT_LISTED, {}, bearer(token));
    expect(r.errors).toBeUndefined();
    expect(r.data.me.email).toBe('player1@demo.test');
  });
});

describe('TrustedDocuments.load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'prode-manifest-'));

  it('stops the server at start when the manifest is missing', () => {
    expect(() => TrustedDocuments.load(join(dir, 'missing.json'))).toThrow(ConfigError);
    expect(() => TrustedDocuments.load(join(dir, 'missing.json'))).toThrow(/npm run operations:manifest/);
  });

  it('stops the server at start when an id is not the hash of its body (a hand-edited manifest)', () => {
    const file = join(dir, 'tampered.json');
    const me = listed('Me');
    const op = { ...me, body: print(MeDocument).replace('email', 'email role') };
    writeFileSync(file, JSON.stringify({ ...manifest, operations: [op] }));
    expect(() => TrustedDocuments.load(file)).toThrow(/Me has an id that is not the SHA-256 of its body/);
  });

  it('loads the committed manifest with every operation', () => {
    expect(TrustedDocuments.load().size).toBe(manifest.operations.length);
  });
});
