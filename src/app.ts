// The HTTP app: health probes now; GraphQL at /graphql, the REST shims and docs plug in as Fastify plugins.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';

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
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
  });

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

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
