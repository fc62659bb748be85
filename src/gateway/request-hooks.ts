// What every request goes through whatever its route: its span, its SQL statement counter and outcome, its log
// line and metrics, and the headers every response carries.
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.ts';
import { runWithSqlStats, type SqlStats } from '../db/sql-stats.ts';
import type { Engine } from '../engine/index.ts';
import { getSchema } from '../graphql/schema.ts';
import { hidesStatementCount } from '../http/account-privacy.ts';
import type { Metrics } from '../observability/metrics.ts';
import { registerRequestLog } from '../observability/request-log.ts';
import { newOutcome } from '../observability/request-outcome.ts';
import {
  registerHttpSpans,
  traceIdOf,
  traceRootResolvers,
  traceSqlStatements,
  type Tracing,
} from '../observability/tracing.ts';

declare module 'fastify' {
  interface FastifyRequest {
    sqlStats: SqlStats;
  }
}

/**
 * Registered first, so the request's span is the context of every later hook, the handler and its SQL statements.
 */
export function registerTracing(app: FastifyInstance, tracing: Tracing, db: Database, engine: Engine): void {
  registerHttpSpans(app, tracing.tracer);
  traceSqlStatements(tracing.tracer, db.provider);
  traceRootResolvers(getSchema(engine.leanResolvers), tracing.tracer);
}

/**
 * The request's statement counter and outcome, `connection: close` while draining, the log line and metrics. The
 * tables its statements name are collected only for the response cache (`tablesRead`), which caches a response under
 * them.
 */
export function registerRequestHooks(
  app: FastifyInstance,
  metrics: Metrics,
  tracing: Tracing | null,
  tablesRead: boolean,
): void {
  app.decorateRequest('sqlStats', null as unknown as SqlStats);
  app.decorateRequest('outcome', null as unknown as ReturnType<typeof newOutcome>);
  // Every statement Prisma sends while serving this request is counted in this request's SQL stats.
  app.addHook('onRequest', (request, _reply, done) => {
    request.sqlStats = { statements: 0, ...(tablesRead ? { tables: new Set<string>() } : {}) };
    request.outcome = newOutcome();
    runWithSqlStats(request.sqlStats, done);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (app.lifecycle.draining) reply.header('connection', 'close');
    return payload;
  });
  registerRequestLog(app, tracing ? traceIdOf : undefined);
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest({
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
      statements: request.sqlStats?.statements ?? 0,
      outcome: request.outcome ?? newOutcome(),
    });
  });
}

/** `x-request-id` on every response; with SQL_STATS, the statements, cost and objects the request took. */
export function registerResponseHeaders(app: FastifyInstance, sqlStats: boolean): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (sqlStats) {
      const { cost, objects, rootFields } = request.outcome ?? {};
      if (!hidesStatementCount(rootFields)) reply.header('x-sql-statements', String(request.sqlStats?.statements ?? 0));
      if (cost !== undefined) reply.header('x-query-cost', String(Math.round(Math.min(cost, Number.MAX_SAFE_INTEGER))));
      if (objects !== undefined) reply.header('x-objects', String(objects));
    }
  });
}
