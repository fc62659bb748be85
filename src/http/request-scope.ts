// The one place a request's scope is built, whichever face serves it: GraphQL (src/gateway/graphql-route.ts) and
// the REST routes (src/rest/routes.ts) call openRequestScope with the tenant headers they honour.
import type { FastifyRequest } from 'fastify';
import { AUTH_ROW_TABLES, type AuthRowCache } from '../engine/cache/auth-row-cache.ts';
import type { TableVersions } from '../engine/cache/table-versions.ts';
import { resolveRequestAuth, type RequestAuth, type TenantHeaders } from '../auth/request-auth.ts';
import { ObjectBudget } from '../app/object-budget.ts';
import { RequestScope, type ScopeParts } from '../app/scope.ts';
import type { RescoreRunner } from '../app/rescore-runner.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { Loaders } from '../loaders/registry.ts';
import type { MailDelivery } from '../mail/delivery.ts';
import type { LiveBus } from '../live/bus.ts';

/** What every request's scope is built from: the database, the configuration and (with the caches on) auth rows. */
export interface ScopeSources {
  db: Database;
  config: Config;
  authRows: AuthRowCache | null;
  mail: MailDelivery;
  /** Where operations announce what they changed, once it committed (src/live/bus.ts). */
  live: LiveBus;
  /** Runs the rescoring jobs a result queued (src/app/rescore-runner.ts). */
  rescoring: RescoreRunner;
}

export interface OpenedRequest {
  scope: RequestScope;
  auth: RequestAuth;
  /**
   * Every table's version, read before anything else of this request (null when the caches are off or none
   * could be given); the response cache holds responses under the versions of the tables they read.
   */
  tableVersions: TableVersions | null;
  /** The tenant headers the scope was built from (login reads the company they name). */
  headers: TenantHeaders;
}

/** Authenticates the caller, picks the tenant, and makes the request's clock, loaders and object budget. */
export async function openRequestScope(sources: ScopeSources, headers: TenantHeaders): Promise<OpenedRequest> {
  const { db, config, authRows } = sources;
  // Unreadable (the database is away): no caching; authentication then meets the outage and keeps it for the guards.
  const tableVersions = authRows ? await db.tableVersions().catch(() => null) : null;
  // Labelled with our rollbacks too: on SQLite a row read while one of our transactions had written it is
  // uncommitted, and the rollback brings the versions back to the label it was cached under.
  const rows =
    authRows && tableVersions
      ? authRows.at(`${tableVersions.of(AUTH_ROW_TABLES)}|${tableVersions.rollbacks}`)
      : undefined;
  const auth = await resolveRequestAuth(db.prisma, headers, config.jwtSecret, rows);
  return scopeFor(sources, { auth, tableVersions, headers });
}

/**
 * A new scope for a caller already authenticated: a fresh clock, loaders and object budget. A subscription takes
 * one per event, so nothing read for an earlier event is shown as current.
 */
export function scopeFor(
  {
    db,
    config,
    mail,
    live,
    rescoring,
  }: Pick<ScopeSources, 'db' | 'config'> & Pick<ScopeParts, 'mail' | 'live' | 'rescoring'>,
  { auth, tableVersions, headers }: Omit<OpenedRequest, 'scope'>,
  now = new Date(),
): OpenedRequest {
  const objects = new ObjectBudget(config.graphql.maxObjects);
  const loaders = new Loaders(db.prisma, {
    tenantId: auth.tenant?.id ?? null,
    viewerId: auth.viewer?.id ?? null,
    now,
    batching: config.dataloaderBatching,
    budget: objects,
  });
  if (auth.viewer) loaders.user.prime(auth.viewer.id, auth.viewer);
  if (auth.tenant) loaders.company.prime(auth.tenant.id, auth.tenant);
  if (auth.viewerCompany) loaders.company.prime(auth.viewerCompany.id, auth.viewerCompany);
  const scope = new RequestScope({ db: db.prisma, auth, now, loaders, objects, config, mail, live, rescoring });
  return { scope, auth, tableVersions, headers };
}

const header = (request: FastifyRequest, name: string) => {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export type TenantFrom = 'company' | 'path-or-host';

/**
 * The headers that name the caller and the tenant. GraphQL honours all three tenant headers; the REST post routes
 * take the tenant from x-app-company only, the other routes from x-app-path / x-app-host (spec sections 4 and 5).
 */
export function tenantHeaders(request: FastifyRequest, only?: TenantFrom): TenantHeaders {
  const authorization = header(request, 'authorization');
  const appCompany = only === 'path-or-host' ? undefined : header(request, 'x-app-company');
  if (only === 'company') return { authorization, appCompany };
  return { authorization, appHost: header(request, 'x-app-host'), appPath: header(request, 'x-app-path'), appCompany };
}
