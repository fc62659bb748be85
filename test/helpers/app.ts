// A real server over loopback on a fresh, seeded database of the suite's provider.
import type { FastifyInstance } from 'fastify';
import { print, type DocumentNode } from 'graphql';
import { LoginDocument } from '../../src/graphql/generated/operations.ts';
import { buildApp } from '../../src/app.ts';
import { setPasswordHashCost } from '../../src/auth/passwords.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { seedDemo, DEMO_PASSWORD } from '../../prisma/seed/demo-seed.ts';
import type { DatabaseTarget } from '../../src/db/adapters.ts';
import { freshDatabase, migratedDatabase, type TestDatabase } from './db.ts';

export { DEMO_PASSWORD };
export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface TestServer {
  app: FastifyInstance;
  url: string;
  config: Config;
  t: TestDatabase;
  close(): Promise<void>;
  gql<T = any>(query: string | DocumentNode, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GqlResult<T>>;
  login(email: string, appPath?: string): Promise<string>;
}

export interface GqlResult<T> {
  status: number;
  headers: Headers;
  data: T;
  errors?: Array<{ message: string; extensions: { code: string; [k: string]: unknown }; path?: string[] }>;
  extensions?: { sqlStatements?: number };
}

export async function startTestServer(
  options: { seed?: boolean; env?: Record<string, string>; logStream?: { write(line: string): void }; target?: DatabaseTarget } = {},
): Promise<TestServer> {
  // A target of the test's own (left in place on close) or a fresh database of the suite's provider.
  const t = options.target ? await migratedDatabase(options.target) : await freshDatabase();
  // Suites log in and call from one address far more often than a person would: the rate limits have their own
  // test (test/security/limits.test.ts) and are lifted here unless a test sets them. Passwords are hashed at the
  // lowest cost (N = 2^14) unless a test sets PASSWORD_HASH_COST: the default costs 128 MiB and ~0.3 s a login.
  const config = loadConfig({
    NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, SQL_STATS: 'true', LOG_LEVEL: 'silent', DATA_DIR: '/tmp',
    RATE_LIMIT_MAX: '0', LOGIN_RATE_LIMIT_MAX: '1000000', PASSWORD_HASH_COST: '14', ...options.env,
  });
  config.database = t.target;
  // As server.ts does at start, before the seed hashes the demo password.
  setPasswordHashCost(config.passwordHashCost);
  if (options.seed !== false) await seedDemo(t.db.prisma);
  const app = await buildApp({ config, db: t.db, logStream: options.logStream });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const gql: TestServer['gql'] = async (query, variables, headers = {}) => {
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query: typeof query === 'string' ? query : print(query), variables }) });
    const body = (await res.json()) as Omit<GqlResult<never>, 'status' | 'headers'>;
    return { status: res.status, headers: res.headers, ...body } as GqlResult<any>;
  };
  return {
    app, url, config, t, gql,
    async login(email, appPath) {
      const headers: Record<string, string> = appPath ? { 'x-app-path': appPath } : {};
      const r = await gql<{ login: { token: string } }>(LoginDocument, { email, password: DEMO_PASSWORD }, headers);
      if (!r.data?.login) throw new Error(`login ${email} failed: ${JSON.stringify(r.errors)}`);
      return r.data.login.token;
    },
    async close() {
      // As server.ts does after its grace period: hostile tests leave half-open sockets behind.
      const grace = setTimeout(() => app.server.closeAllConnections(), 1000);
      await app.close();
      clearTimeout(grace);
      await t.drop();
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
