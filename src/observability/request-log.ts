// One log line per request, written when the response has gone out: what was asked (route, GraphQL operation and
// root fields), for whom (tenant, user id), how it ended (status, error codes) and what it cost (duration, SQL
// statements). Never tokens, passwords or e-mail addresses: the path is redacted and the query string dropped.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { redactUrl } from './redact.ts';
import './request-outcome.ts';

// Probes and scrapes arrive every few seconds from machines: logged at debug so they do not drown the rest.
const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

export function registerRequestLog(app: FastifyInstance, traceIdOf?: (request: FastifyRequest) => string | undefined) {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : route && QUIET_ROUTES.has(route) ? 'debug' : 'info';
    // LOG_LEVEL=error (the benchmarks): nothing to build. The logger is pino's (logger.ts), Fastify's type omits it.
    if (!(request.log as unknown as Logger).isLevelEnabled(level)) return;
    const o = request.outcome;
    request.log[level](
      {
        method: request.method,
        url: redactUrl(request.url.split('?')[0]),
        route: route ?? null,
        status,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        operation: o?.operationName ?? undefined,
        rootFields: o?.rootFields,
        tenantId: o?.tenantId,
        tenantPath: o?.tenantPath ?? undefined,
        userId: o?.userId,
        errorCodes: o?.errorCodes.length ? o.errorCodes : undefined,
        sqlStatements: request.sqlStats?.statements ?? 0,
        queuedMs: o?.queuedMs,
        traceId: traceIdOf?.(request),
      },
      'request',
    );
  });
}
