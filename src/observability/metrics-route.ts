// GET /metrics in the Prometheus text format; behind a bearer token when METRICS_TOKEN is set.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../rest/errors.ts';
import type { Metrics } from './metrics.ts';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | null) {
  app.get('/metrics', { config: { rateLimit: false } }, async (request, reply) => {
    if (token && !sameSecret(request.headers.authorization ?? '', `Bearer ${token}`)) {
      return sendError(reply, 401, 'UNAUTHENTICATED', 'the metrics need the METRICS_TOKEN as a Bearer token');
    }
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
