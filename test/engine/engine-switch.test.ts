// ENGINE and ENGINE_OFF (src/engine/index.ts): the settings refused with the parts named, the decisions they give,
// and a server without the engine responding as the full one does, every read computed again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { engineFor } from '../../src/engine/index.ts';
import { bearer, FULL_ENGINE, startTestServer, type TestServer } from '../helpers/app.ts';

const config = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp', ...env }, () => {});

describe('ENGINE and ENGINE_OFF', () => {
  it('refuses an unknown engine or part, naming what is allowed', () => {
    expect(() => config({ ENGINE: 'fast' })).toThrow(ConfigError);
    expect(() => config({ ENGINE: 'fast' })).toThrow(/ENGINE must be one of full, plain/);
    expect(() => config({ ENGINE_OFF: 'jit,cache' })).toThrow(ConfigError);
    expect(() => config({ ENGINE_OFF: 'jit,cache' })).toThrow(/jit, shared-subtrees, .*runtime; got "cache"/);
  });

  it('plain turns every part off; full every one but those named and those an older setting turns off', () => {
    const plain = engineFor(config({ ENGINE: 'plain', ENGINE_OFF: 'jit' }));
    expect(plain).toMatchObject({ mode: 'plain', off: [] });
    for (const on of [
      plain.jit,
      plain.sharedSubtrees,
      plain.sharedJson,
      plain.leanResolvers,
      plain.sqlLoaders,
      plain.rowReader,
    ])
      expect(on).toBe(false);
    expect(plain.db).toEqual({ sqlLoaders: false, rowReader: false, tableVersions: false, preparedStatements: false });
    expect(plain.responseCache).toBe(false);

    const full = engineFor(config({}));
    expect(full).toMatchObject({ mode: 'full', off: [], jit: true, sharedSubtrees: true, responseCache: true });
    expect(full.db).toEqual({ sqlLoaders: true, rowReader: true, tableVersions: true, preparedStatements: true });
    // The row reader only sends the loaders' SQL: without it, it has nothing to read.
    expect(engineFor(config({ ENGINE_OFF: 'sql-loaders' })).db).toMatchObject({ sqlLoaders: false, rowReader: false });
    expect(engineFor(config({ ENGINE_OFF: 'row-reader' })).db).toMatchObject({ sqlLoaders: true, rowReader: false });

    // The cache trusts the table versions; the shared-subtree executor runs inside the jit executor.
    const noVersions = engineFor(config({ ENGINE_OFF: ' table-versions , jit' }));
    expect(noVersions).toMatchObject({ off: ['table-versions', 'jit'], responseCache: false, sharedSubtrees: false });
    expect(noVersions.leanResolvers).toBe(true);
    expect(engineFor(config({ GRAPHQL_JIT: 'false' })).jit).toBe(false);
    expect(engineFor(config({ RESPONSE_CACHE_MB: '0' })).responseCache).toBe(false);
    expect(engineFor(config({ DB_PREPARED_STATEMENTS: 'false' })).db.preparedStatements).toBe(false);
  });
});

describe('a server with ENGINE=plain', () => {
  let plain: TestServer;
  let full: TestServer;
  beforeAll(async () => {
    plain = await startTestServer({ env: { ENGINE: 'plain' } });
    full = await startTestServer({ env: { ...FULL_ENGINE, RESPONSE_CACHE_MB: '0' } });
  });
  afterAll(async () => {
    await plain?.close();
    await full?.close();
  });

  it('responds to a query and a REST route as the full engine does, and computes every response again', async () => {
    const id = plain.demo.posts.demo[0];
    const query = `{ post(id: ${id}) { id text likesCount likedByMe comments { id text } } }`;
    const [p, f] = [await plain.loginAs('player'), await full.loginAs('player')];
    const first = await plain.gql(query, {}, bearer(p));
    const again = await plain.gql(query, {}, bearer(p));
    expect(first.errors).toBeUndefined();
    expect(first.data).toEqual((await full.gql(query, {}, bearer(f))).data);
    // No response cache: the repeated read costs what the first did.
    expect(first.extensions!.sqlStatements).toBeGreaterThan(3);
    expect(again.extensions!.sqlStatements).toBe(first.extensions!.sqlStatements);
    expect(again.data).toEqual(first.data);

    const rest = async (s: TestServer, token: string) => {
      const res = await fetch(`${s.url}/tournaments/me`, { headers: bearer(token) });
      return { status: res.status, body: await res.text() };
    };
    const fromPlain = await rest(plain, p);
    expect(fromPlain.status).toBe(200);
    expect(fromPlain.body).toBe((await rest(full, f)).body);
  });
});
