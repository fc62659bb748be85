// What a subscription's context carries over WebSocket: the live feed, and how the caller and the scope are read
// again for each event. The context (src/graphql/context.ts) and the stream both name it; it imports neither.
import type { RequestAuth } from '../../auth/request-auth.ts';
import type { LiveBus } from '../../live/bus.ts';
import { badInput } from '../../domain/errors.ts';

/** Set on the context of operations that arrive over WebSocket (server.ts). */
export interface SubscriptionChannel {
  bus: LiveBus;
  /**
   * Before each event: re-reads the caller now and then (REAUTH_MS, the token's expiry, a revocation). Makes no
   * scope. False: the caller may no longer subscribe (the event's response says why, and the subscription ends).
   * A boolean at once when no read is due (most events), so an event makes no promise here.
   */
  refresh(): boolean | Promise<boolean>;
  /** The caller as last read: whom a shared response may be handed to (executions.ts). */
  caller(): Readonly<RequestAuth>;
  /**
   * Gives the context a fresh scope (clock, loaders, object budget) made from the caller as last read, for an
   * execution of this subscription's own; a copy of a shared execution needs none.
   */
  open(): void;
  /** When the caller's token expires (ms since the epoch; Infinity without one). */
  expiresAt: number;
  /** Lets go of what the last event read (its loaders' rows) while the subscription waits for the next. */
  release(): void;
  /** The caller's user id when the subscription began (absent or null: none), whose revoked sessions end it. */
  userId?: number | null;
  /** Makes the next refresh read the caller again, however recently it was read. */
  reauthenticate?(): void;
  /** The connection (its identity only) and the client address it came from: each has a budget per event. */
  socket: object;
  address: string;
  /** The document, operation and variables as sent: identical subscriptions share an execution (executions.ts). */
  request: string;
  /**
   * The document selects nothing of the caller's own (documents.ts): its execution is shared by the identical
   * subscriptions of every caller of the same visibility (visibilityKey), across addresses. Absent: false.
   */
  acrossCallers?: boolean;
}

/** The channel of an operation that came over WebSocket; over HTTP a subscription is refused as bad input. */
export function subscriptionChannelOf(ctx: { subscription?: SubscriptionChannel }): SubscriptionChannel {
  if (!ctx.subscription)
    throw badInput('subscriptions are served over WebSocket (graphql-transport-ws) at /graphql, not over HTTP');
  return ctx.subscription;
}
