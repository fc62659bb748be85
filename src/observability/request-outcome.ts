// Every request carries its outcome (operation name, error codes) for the metrics recorded when it ends.

/** What a request ended as, filled in by whichever layer responded (GraphQL plugin, REST error replies). */
export interface RequestOutcome {
  errorCodes: string[];
  /** The GraphQL operation's estimated cost (src/graphql/cost.ts), when one was computed. */
  cost?: number;
  /** Objects the GraphQL execution resolved (src/graphql/count-objects.ts). */
  objects?: number;
  /** Milliseconds the operation waited for an execution slot (src/graphql/execution-slots.ts), when it waited. */
  queuedMs?: number;
  /** Responded to without its work (the deadline's 504) or left by the client: queued work for it is not started. */
  abandoned?: 'timeout' | 'aborted';
  /** The GraphQL operation's name (the stored one for a REST route) and its root fields, for the request log. */
  operationName?: string | null;
  rootFields?: string[];
  /** The tenant and the user the request was served for, as authentication resolved them. */
  tenantId?: number;
  tenantPath?: string | null;
  userId?: number;
}

export const newOutcome = (): RequestOutcome => ({ errorCodes: [] });

declare module 'fastify' {
  interface FastifyRequest {
    outcome: RequestOutcome;
  }
}
