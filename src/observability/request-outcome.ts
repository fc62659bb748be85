// Every request carries its outcome (operation name, error codes) for the metrics recorded when it ends.
import type { RequestOutcome } from './metrics.ts';

declare module 'fastify' {
  interface FastifyRequest {
    outcome: RequestOutcome;
  }
}
