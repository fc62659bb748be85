// The HTTP app: health probes now; GraphQL at /graphql, the REST shims and docs plug in as Fastify plugins.
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { TenantHeaders } from './auth/request-auth.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { runWithSqlStats, type SqlStats } from './db/sql-stats.ts';
import { createApollo } from './graphql/apollo.ts';
import { createContext } from './graphql/context.ts';
import { registerDocs } from './rest/docs.ts';
import { registerErrorHandlers, registerRestRoutes } from './rest/routes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    sqlStats: SqlStats;
  }
}

const header = (request: FastifyRequest, name: string) => {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export function tenantHeaders(request: FastifyRequest): TenantHeaders {
  return {
    authorization: header(request, 'authorization'),
    appHost: header(request, 'x-app-host'),
    appPath: header(request, 'x-app-path'),
    appCompany: header(request, 'x-app-company'),
  };
}

export interface AppDeps {
  config: Config;
  db: Database;
}

const READY_TIMEOUT_MS = 2000;

export function loggerOptions(config: Pick<Config, 'logLevel' | 'env'>) {
  return {
    level: config.logLevel,
    // Credentials never reach a log line.
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
  };
}

export async function buildApp({ config, db }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config),
    bodyLimit: 1024 * 1024,
    // Invitation tokens travel in the path (GET /invitations/jwt/:jwt) and are longer than the default 100.
    routerOptions: { maxParamLength: 2048 },
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
  });

  // Every statement Prisma sends while serving this request is counted in this request's store.
  app.decorateRequest('sqlStats', null as unknown as SqlStats);
  app.addHook('onRequest', (request, _reply, done) => {
    request.sqlStats = { statements: 0 };
    runWithSqlStats(request.sqlStats, done);
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (config.sqlStats) reply.header('x-sql-statements', String(request.sqlStats?.statements ?? 0));
  });

  const apollo = createApollo(config, app.log, [fastifyApolloDrainPlugin(app)]);
  await apollo.start();
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    handler: fastifyApolloHandler(apollo, {
      context: async (request) => createContext(db.prisma, config, tenantHeaders(request)),
    }),
  });
  registerRestRoutes(app, { apollo, db, config });
  registerDocs(app);
  registerErrorHandlers(app);

  // Liveness: the process answers. Never touches the database, so a slow store does not get us restarted.
  app.get('/healthz', async () => ({ status: 'ok' }));

  // Readiness: the database answers a trivial query within a short deadline.
  app.get('/readyz', async (_request, reply) => {
    try {
      await withTimeout(db.ping(), READY_TIMEOUT_MS);
      return { status: 'ready', database: db.provider };
    } catch (err) {
      reply.code(503);
      return { status: 'unavailable', database: db.provider, message: firstLine(err) };
    }
  });

  return app;
}

export function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n').find((l) => l.trim())?.trim() ?? 'unknown error';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
