// A real server over loopback on a fresh, seeded database of the suite's provider (a copy of the seeded template).
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { FastifyInstance } from 'fastify';
import { print } from 'graphql';
import { LoginDocument } from '../../src/graphql/generated/operations.ts';
import { buildGateway } from '../../src/gateway/build.ts';
import { setPasswordHashCost } from '../../src/auth/passwords.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { engineFor } from '../../src/engine/index.ts';
import { seedDemo, DEMO_PASSWORD, type DemoIds } from '../../prisma/seed/demo-seed.ts';
import type { DatabaseTarget } from '../../src/db/adapters.ts';
import { freshDatabase, migratedDatabase, seededDatabase, templatePasswordHashCost, type TestDatabase } from './db.ts';
import { DEMO_USERS, type DemoUser } from './demo.ts';
import { TEST_JWT_SECRET } from './tokens.ts';

export { DEMO_PASSWORD, TEST_JWT_SECRET };

export interface TestServer {
  app: FastifyInstance;
  url: string;
  config: Config;
  t: TestDatabase;
  /** The ids of the demo rows (a server started with `seed: false` has none: reading them throws). */
  readonly demo: DemoIds;
  close(): Promise<void>;
  /**
   * A generated document (src/graphql/generated/operations.ts) types the response's data and checks the variables; a
   * plain string or DocumentNode returns `any` unless the caller names a type.
   */
  gql<TResult = any, TVariables = Record<string, unknown>>(
    query: string | TypedDocumentNode<TResult, TVariables>,
    variables?: NoInfer<TVariables>,
    headers?: Record<string, string>,
  ): Promise<GqlResult<TResult>>;
  /** The demo password unless another is given. */
  login(email: string, appPath?: string, password?: string): Promise<string>;
  /** Logs a demo account in with its company's tenant header (test/helpers/demo.ts). */
  loginAs(user: DemoUser): Promise<string>;
  /** Logs each demo account in, one after the other: their tokens by name. */
  loginAll<U extends DemoUser>(users: readonly U[]): Promise<Record<U, string>>;
  /**
   * The referee's whistle: moves the matches' kickoff a minute into the past (predictions made before stay), so
   * they may be given a result (none is taken before kickoff).
   */
  kickOff(...matchIds: number[]): Promise<void>;
}

export interface GqlResult<T> {
  status: number;
  headers: Headers;
  data: T;
  errors?: Array<{ message: string; extensions: { code: string; [k: string]: unknown }; path?: string[] }>;
  extensions?: { sqlStatements?: number };
}

/** A test of an engine part pins the full engine, whatever the run's ENGINE (src/engine/README.md). */
export const FULL_ENGINE = { ENGINE: 'full', ENGINE_OFF: '' };

export async function startTestServer(
  options: {
    seed?: boolean;
    env?: Record<string, string>;
    logStream?: { write(line: string): void };
    target?: DatabaseTarget;
  } = {},
): Promise<TestServer> {
  // Suites log in and call from one address far more often than a person would: the rate limits have their own
  // test (test/security/limits.test.ts) and are lifted here unless a test sets them. Passwords are hashed at the
  // lowest cost (N = 2^14) unless a test sets PASSWORD_HASH_COST: the default costs 128 MiB and ~0.3 s a login.
  const config = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: TEST_JWT_SECRET,
    SQL_STATS: 'true',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp',
    RATE_LIMIT_MAX: '0',
    LOGIN_RATE_LIMIT_MAX: '1000000',
    REGISTER_RATE_LIMIT_MAX: '1000000',
    SSO_START_RATE_LIMIT_MAX: '1000000',
    PASSWORD_HASH_COST: '14',
    // The engine of the test run (`ENGINE=plain npm test`), unless the test pins one.
    ...(process.env.ENGINE ? { ENGINE: process.env.ENGINE } : {}),
    ...(process.env.ENGINE_OFF ? { ENGINE_OFF: process.env.ENGINE_OFF } : {}),
    ...options.env,
  });
  const engine = engineFor(config).db;
  // As server.ts does at start, before the seed hashes the demo password.
  setPasswordHashCost(config.passwordHashCost);
  // A target of the test's own (left in place on close) is migrated and seeded here, as is a database for a server
  // whose password cost differs from the seeded template's (its demo password must be hashed at that cost); the
  // rest copy a template (test/helpers/template.ts).
  let t: TestDatabase;
  let demo: DemoIds | undefined;
  if (options.target || (options.seed !== false && config.passwordHashCost !== templatePasswordHashCost())) {
    t = options.target
      ? await migratedDatabase(options.target, undefined, engine)
      : await freshDatabase(undefined, engine);
    demo = options.seed === false ? undefined : (await seedDemo(t.db.prisma)).ids;
  } else if (options.seed === false) {
    t = await freshDatabase(undefined, engine);
  } else {
    const seeded = await seededDatabase(engine);
    t = seeded;
    demo = seeded.demo;
  }
  config.database = t.target;
  const app = await buildGateway({ config, db: t.db, logStream: options.logStream });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const gql: TestServer['gql'] = async (query, variables, headers = {}) => {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query: typeof query === 'string' ? query : print(query), variables }),
    });
    const body = (await res.json()) as Omit<GqlResult<never>, 'status' | 'headers'>;
    return { status: res.status, headers: res.headers, ...body } as GqlResult<never>;
  };
  const login: TestServer['login'] = async (email, appPath, password = DEMO_PASSWORD) => {
    const headers: Record<string, string> = appPath ? { 'x-app-path': appPath } : {};
    const r = await gql(LoginDocument, { email, password }, headers);
    if (!r.data?.login) throw new Error(`login ${email} failed: ${JSON.stringify(r.errors)}`);
    return r.data.login.token;
  };
  const loginAs: TestServer['loginAs'] = (user) => login(DEMO_USERS[user].email, DEMO_USERS[user].appPath);
  return {
    app,
    url,
    config,
    t,
    gql,
    login,
    loginAs,
    get demo() {
      if (!demo) throw new Error('this test server was started without the demo data (seed: false)');
      return demo;
    },
    async loginAll(users) {
      const tokens = {} as Record<(typeof users)[number], string>;
      for (const user of users) tokens[user] = await loginAs(user);
      return tokens;
    },
    async kickOff(...matchIds) {
      const date = new Date(Date.now() - 60_000);
      await t.db.prisma.match.updateMany({ where: { id: { in: matchIds } }, data: { date } });
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
