import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { resolveRequestAuth, type RequestAuth, type TenantHeaders } from '../auth/request-auth.ts';
import { unauthenticated } from './errors.ts';
import type { RequestOutcome } from '../observability/metrics.ts';
import type { LoginThrottle } from '../security/login-throttle.ts';
import { Loaders, type CompanyRow, type UserRow } from './loaders/registry.ts';

export interface Context {
  prisma: Db;
  config: Config;
  auth: RequestAuth;
  headers: TenantHeaders;
  loaders: Loaders;
  /** The request's clock: kickoff locks and prediction privacy compare against it. */
  now: Date;
  client: ClientInfo;
}

/** Who is on the other end of the connection, and the per-process state that limits them. */
export interface ClientInfo {
  ip: string;
  loginThrottle: LoginThrottle;
  /** Filled in as the request is answered; read by metrics. */
  outcome: RequestOutcome;
}

export async function createContext(prisma: Db, config: Config, headers: TenantHeaders, client: ClientInfo): Promise<Context> {
  const auth = await resolveRequestAuth(prisma, headers, config.jwtSecret);
  const now = new Date();
  const loaders = new Loaders(prisma, { tenantId: auth.tenant?.id ?? null, viewerId: auth.viewer?.id ?? null, now, batching: config.dataloaderBatching });
  if (auth.viewer) loaders.user.prime(auth.viewer.id, auth.viewer);
  if (auth.tenant) loaders.company.prime(auth.tenant.id, auth.tenant);
  if (auth.viewerCompany) loaders.company.prime(auth.viewerCompany.id, auth.viewerCompany);
  return { prisma, config, auth, headers, loaders, now, client };
}

/** The authenticated caller, or UNAUTHENTICATED. */
export function requireViewer(ctx: Context): UserRow {
  if (ctx.auth.viewerError) throw ctx.auth.viewerError;
  if (!ctx.auth.viewer) throw unauthenticated();
  return ctx.auth.viewer;
}

/** The caller and the company the request acts on (checked against the caller's rights). */
export function requireTenant(ctx: Context): { viewer: UserRow; tenant: CompanyRow } {
  const viewer = requireViewer(ctx);
  if (ctx.auth.tenantError) throw ctx.auth.tenantError;
  if (!ctx.auth.tenant) throw unauthenticated();
  return { viewer, tenant: ctx.auth.tenant };
}
