// A deadline for the whole request, responded to with 504 REQUEST_TIMEOUT with the usual error body.
// Fastify's own `handlerTimeout` (5.12) clears its timer when the request stream closes, which for a POST
// happens as soon as the body is read, so it never fires for GraphQL or PATCH: hence this hook. Work under way is
// not cancelled (Prisma takes no signal): a write may still complete after the response, so the response is 504
// (outcome unknown), not 503 (safe to retry), and docs/rest.md says so. A query still queued for an execution
// slot is not started (src/graphql/execution-slots.ts).
import type { FastifyInstance } from 'fastify';
import { sendError } from '../http/error-body.ts';
import '../observability/request-outcome.ts';

declare module 'fastify' {
  interface FastifyRequest {
    deadline?: NodeJS.Timeout;
  }
}

export function registerRequestDeadline(app: FastifyInstance, ms: number) {
  // The client closed the connection before the response was written (Fastify's onRequestAbort does not fire once a
  // POST's body has been read): a query still queued for it is not started.
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished && request.outcome) request.outcome.abandoned ??= 'aborted';
    });
    done();
  });
  if (ms <= 0) return;
  app.addHook('onRequest', (request, reply, done) => {
    request.deadline = setTimeout(() => {
      if (reply.sent) return;
      // A query still waiting for an execution slot is then not run (src/graphql/execution-slots.ts).
      if (request.outcome) request.outcome.abandoned = 'timeout';
      request.log.warn({ route: request.routeOptions.url, ms }, 'request timed out');
      void sendError(
        reply,
        504,
        'REQUEST_TIMEOUT',
        `the request took longer than ${ms} ms: its outcome is unknown (a write may still complete)`,
      );
    }, ms);
    done();
  });
  const clear = async (request: { deadline?: NodeJS.Timeout }) => clearTimeout(request.deadline);
  app.addHook('onResponse', clear);
  app.addHook('onRequestAbort', clear);
}
