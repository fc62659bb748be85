import type { Config } from '../config.ts';
import type { AuthRowCache } from '../auth/auth-row-cache.ts';
import type { Database } from '../db/client.ts';
import { resolveRequestAuth, type RequestAuth, type TenantHeaders } from '../auth/request-auth.ts';
import type { RequestOutcome } from '../observability/metrics.ts';
import type { LoginThrottle } from '../security/login-throttle.ts';
import { RequestScope } from '../app/scope.ts';
import { Loaders, type CompanyRow, type UserRow } from '../loaders/registry.ts';
import { ObjectBudget } from './object-budget.ts';

export interface Context {
  config: Config;
  auth: RequestAuth;
  headers: TenantHeaders;
  loaders: Loaders;
  /** The request's clock: kickoff locks and prediction privacy compare against it. */
  now: Date;
  /**
   * The database's data-version token read before anything else of this request (null when the caches are
   * off or none could be given); the response cache keeps answers under it.
   */
  dataVersion: string | null;
  /** Set while the response cache stores this request's answer: its statements count towards the request's. */
  cacheWrite?: Promise<void>;
  client: ClientInfo;
  /** Objects resolved so far, against GRAPHQL_MAX_OBJECTS. */
  objects: ObjectBudget;
  /** What the operations in src/app take: caller, tenant, clock, store, loaders. */
  scope: RequestScope;
}

/** Who is on the other end of the connection, and the per-process state that limits them. */
export interface ClientInfo {
  ip: string;
  loginThrottle: LoginThrottle;
  /** Filled in as the request is answered; read by metrics. */
  outcome: RequestOutcome;
}

/** `authRows` given (the caches are on): the data version is read first and authentication reads through it. */
export async function createContext(db: Database, config: Config, headers: TenantHeaders, client: ClientInfo, authRows: AuthRowCache | null = null): Promise<Context> {
  const { prisma } = db;
  // Unreadable (the database is away): no caching; authentication then meets the outage and keeps it for the guards.
  const dataVersion = authRows ? await db.dataVersion().catch(() => null) : null;
  const auth = await resolveRequestAuth(prisma, headers, config.jwtSecret, authRows && dataVersion ? authRows.at(dataVersion) : undefined);
  const now = new Date();
  const objects = new ObjectBudget(config.graphql.maxObjects);
  const loaders = new Loaders(prisma, { tenantId: auth.tenant?.id ?? null, viewerId: auth.viewer?.id ?? null, now, batching: config.dataloaderBatching, budget: objects });
  if (auth.viewer) loaders.user.prime(auth.viewer.id, auth.viewer);
  if (auth.tenant) loaders.company.prime(auth.tenant.id, auth.tenant);
  if (auth.viewerCompany) loaders.company.prime(auth.viewerCompany.id, auth.viewerCompany);
  const scope = new RequestScope(prisma, auth, now, loaders, config);
  return { config, auth, headers, loaders, now, dataVersion, client, objects, scope };
}

/** The authenticated caller, or UNAUTHENTICATED. */
export const requireViewer = (ctx: Context): UserRow => ctx.scope.requireViewer();

/** The caller and the company the request acts on (checked against the caller's rights). */
export const requireTenant = (ctx: Context): { viewer: UserRow; tenant: CompanyRow } => ctx.scope.requireTenant();
