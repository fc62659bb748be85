// GET /metrics in the Prometheus text format; behind a bearer token when METRICS_TOKEN is set.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../http/error-body.ts';
import type { Metrics } from './metrics.ts';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** Without a token, production serves the metrics to loopback only (a scraper beside the process, a sidecar). */
export function registerMetricsRoute(
  app: FastifyInstance,
  metrics: Metrics,
  token: string | null,
  production: boolean,
) {
  app.get('/metrics', { config: { rateLimit: false } }, async (request, reply) => {
    if (token && !sameSecret(request.headers.authorization ?? '', `Bearer ${token}`)) {
      return sendError(reply, 401, 'UNAUTHENTICATED', 'the metrics need the METRICS_TOKEN as a Bearer token');
    }
    if (!token && production && !LOOPBACK.test(request.socket.remoteAddress ?? '')) {
      return sendError(reply, 403, 'FORBIDDEN', 'without METRICS_TOKEN the metrics are served to loopback only');
    }
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
