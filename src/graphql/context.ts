// The GraphQL context: the request's scope (src/http/request-scope.ts builds it, for GraphQL and the REST routes
// alike) and what only GraphQL execution needs besides it.
import type { RequestScope } from '../app/scope.ts';
import type { TenantHeaders } from '../auth/request-auth.ts';
import type { TableVersions } from '../engine/cache/table-versions.ts';
import type { OpenedRequest } from '../http/request-scope.ts';
import type { RequestOutcome } from '../observability/request-outcome.ts';
import type { LoginThrottle } from '../security/login-throttle.ts';
import type { SubscriptionChannel } from './subscriptions/channel.ts';

export interface Context {
  /** What the operations in src/app take: caller, tenant, clock, database, loaders, object budget, configuration. */
  scope: RequestScope;
  /** Transport facts the scope is built from, not part of it: the tenant headers (login reads the company they
   * name), and the table versions read before it (see OpenedRequest; the response cache holds responses under them). */
  headers: TenantHeaders;
  tableVersions: TableVersions | null;
  /**
   * Set by the response cache on a miss: its last lookup, run just before the query executes, after any wait for an
   * execution slot (withLastCacheLookup). The cached data to respond with instead, or null to execute.
   */
  lastCacheLookup?: () => Promise<Record<string, unknown> | null>;
  /**
   * Set by the response cache on a miss: while the query waits for an execution slot, looks its key up again each
   * time a response under it is cached (by an identical request), until `turn` settles. A claim of the cached data,
   * which the slots call only if they respond with it (src/graphql/execution-slots.ts).
   */
  cacheWhileWaiting?: (turn: Promise<void>) => Promise<(() => Record<string, unknown>) | undefined>;
  client: ClientInfo;
  /** Subscriptions over WebSocket only: the live feed, and a fresh scope per event (subscriptions/server.ts). */
  subscription?: SubscriptionChannel;
}

/** Who is on the other end of the connection, and the per-process state that limits them. */
export interface ClientInfo {
  ip: string;
  /** Failed logins, and wrong passwords given to changePassword and deleteMyAccount (src/app/password-client.ts). */
  loginThrottle: LoginThrottle;
  /** Password-reset and verification requests per address and e-mail (src/app/accounts.ts). */
  resetThrottle: LoginThrottle;
  /** Sign-ups (every one counts) and failed invitation accepts, per address and e-mail or link. */
  registerThrottle: LoginThrottle;
  /** Failed uses of a reset or verification link, per address. */
  tokenThrottle: LoginThrottle;
  /** Single sign-on starts per address, every one counted (src/app/sso.ts). */
  ssoStartThrottle: LoginThrottle;
  /** Filled in as the request is served; read by metrics. */
  outcome: RequestOutcome;
}

/** The client and the throttle an operation counts against (src/app/password-client.ts). */
export const loginClient = (ctx: Context) => ({ ip: ctx.client.ip, throttle: ctx.client.loginThrottle });
export const resetClient = (ctx: Context) => ({ ip: ctx.client.ip, throttle: ctx.client.resetThrottle });
export const registerClient = (ctx: Context) => ({ ip: ctx.client.ip, throttle: ctx.client.registerThrottle });
export const tokenClient = (ctx: Context) => ({ ip: ctx.client.ip, throttle: ctx.client.tokenThrottle });

export function contextOf({ scope, tableVersions, headers }: OpenedRequest, client: ClientInfo): Context {
  // Whom the request is served for, for its log line (ids and the public app path only).
  client.outcome.tenantId = scope.auth.tenant?.id;
  client.outcome.tenantPath = scope.auth.tenant?.appPath;
  client.outcome.userId = scope.auth.viewer?.id;
  return { scope, headers, tableVersions, client };
}
