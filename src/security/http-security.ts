// Security headers, CORS and the general per-address rate limit, all from Config (README "Security and operations").
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { RateCounters } from '../db/rate-counters.ts';
import { sharedRequestStore } from './request-limit-store.ts';

// JSON responses never need to load anything; the HTML pages (Sandbox, Swagger UI) bring their own scripts and
// styles, so they are left without a CSP rather than given a loose one. /graphiql sets its own
// (src/graphql/explorer.ts), and Apollo's Sandbox page carries one in a meta tag.
const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

export async function registerSecurity(
  app: FastifyInstance,
  config: Config,
  db: Pick<Database, 'provider' | 'prisma'>,
) {
  await app.register(helmet, { global: true, contentSecurityPolicy: false, crossOriginEmbedderPolicy: false });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (/^application\/([\w.-]+\+)?json/.test(String(reply.getHeader('content-type') ?? '')))
      reply.header('content-security-policy', JSON_CSP);
    return payload;
  });

  const origins = config.http.corsOrigins;
  if (origins.length > 0) {
    await app.register(cors, {
      origin: origins[0] === '*' ? '*' : origins,
      methods: ['GET', 'POST', 'PATCH', 'OPTIONS'],
      allowedHeaders: [
        'authorization',
        'content-type',
        'x-app-path',
        'x-app-host',
        'x-app-company',
        'x-request-id',
        'apollo-require-preflight',
      ],
      exposedHeaders: [
        'x-request-id',
        'x-sql-statements',
        'x-query-cost',
        'x-objects',
        'retry-after',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
      ],
      maxAge: 600,
    });
  }

  if (config.rateLimit.max > 0) {
    await app.register(rateLimit, {
      global: true,
      max: config.rateLimit.max,
      timeWindow: config.rateLimit.windowMs,
      // On PostgreSQL every replica counts against one limit; on SQLite (one process) the plugin's memory does.
      // A request whose count cannot be read is let through: the database is away, and the request's own statements
      // respond to that with 503, where a failed count would respond with 500.
      ...(db.provider === 'postgresql'
        ? {
            store: sharedRequestStore(
              new RateCounters(db.prisma, (err) => app.log.warn({ err }, 'rate limits: cannot prune the counters')),
            ),
            skipOnError: true,
          }
        : {}),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        message:
          `rate limit of ${context.max} requests per ${Math.round(config.rateLimit.windowMs / 1000)} s ` +
          `exceeded: retry in ${context.after}`,
      }),
    });
  }
}
