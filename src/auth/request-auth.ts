// Who is calling and on which tenant. Resolved once per request; a failure is kept and thrown by the guard
// that needs it, so public operations (login, invitation lookup) still work with a stale header.
//
// Who may act on which company (the whole rule; docs/security.md has it as a table):
// - no header: the caller's own company;
// - x-app-host (Company.appCustomDomain) or x-app-path (Company.appPath): that company; a caller of another
//   company may use it only as a manager or as the reseller that manages it, else FORBIDDEN;
// - x-app-company (id, or code without regard to case): honoured only for managers and for resellers managing
//   that company; anyone else gets FORBIDDEN.
import { loaderRowsOf, type Db } from '../db/client.ts';
import { companyByCode } from '../db/company-code.ts';
import { forbidden, notFound, unauthenticated } from '../domain/errors.ts';
import type { CompanyRow, UserRow } from '../db/rows.ts';
import { uncachedRows, type RowReader } from '../engine/cache/auth-row-cache.ts';
import { TokenError, verifyAccessToken } from './tokens.ts';

export interface TenantHeaders {
  authorization?: string;
  appHost?: string;
  appPath?: string;
  appCompany?: string;
}

export interface RequestAuth {
  viewer: UserRow | null;
  viewerCompany: CompanyRow | null;
  tenant: CompanyRow | null;
  /** The error a guard throws when it needs what could not be established. */
  viewerError: Error | null;
  tenantError: Error | null;
}

/** True when `user` may act on `company` although it is not their own. */
export function canActOnBehalf(user: UserRow, company: CompanyRow): boolean {
  return user.role === 'manager' || (user.role === 'reseller' && company.resellerCompanyId === user.companyId);
}

async function authenticate(
  prisma: Db,
  authorization: string | undefined,
  secret: string,
  read: RowReader,
): Promise<UserRow | null> {
  if (authorization === undefined || authorization === '') return null;
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (!match) throw unauthenticated('the Authorization header must be "Bearer <token>"');
  let claims;
  try {
    claims = await verifyAccessToken(match[1], secret);
  } catch (err) {
    throw unauthenticated(err instanceof TokenError ? err.message : 'token is invalid');
  }
  // A deleted company is closed: its users' tokens stop working at once, like a deleted user's (one statement).
  const user = await read(`user-active:${claims.userId}`, () => loaderRowsOf(prisma).activeUser(claims.userId));
  if (!user || user.companyId !== claims.companyId) throw unauthenticated('the token user no longer exists');
  // The row's version moves on a password change or reset, a deactivation, a deletion, a role change and
  // logoutEverywhere (src/app/sessions.ts); the cached row is read again after any write to users, on every replica.
  if (claims.tokenVersion !== user.tokenVersion) {
    throw unauthenticated(
      'the token was revoked (a password change, a sign-out everywhere or a new role): sign in again',
    );
  }
  return user;
}

/** The company named by the tenant headers: undefined without headers, null when none matches. */
export async function companyFromHeaders(
  prisma: Db,
  h: TenantHeaders,
  read: RowReader = uncachedRows,
): Promise<CompanyRow | null | undefined> {
  if (h.appCompany) {
    const value = h.appCompany.trim();
    if (/^\d+$/.test(value)) {
      const id = Number(value);
      // Past the id column's range no company can match (and Prisma refuses the value).
      return id >= 1 && id <= 2 ** 31 - 1
        ? read(`company-active:${id}`, () => loaderRowsOf(prisma).activeCompanyBy('id', id))
        : null;
    }
    // Codes match without regard to case, as x-app-path and x-app-host do (src/db/company-code.ts).
    const folded = value.replace(/[A-Z]/g, (c) => c.toLowerCase());
    return read(`company-code:${folded}`, () => companyByCode(prisma, value, { activeOnly: true }));
  }
  if (h.appHost) {
    const host = h.appHost.trim().toLowerCase();
    return read(`company-host:${host}`, () => loaderRowsOf(prisma).activeCompanyBy('appCustomDomain', host));
  }
  if (h.appPath) {
    const path = h.appPath.trim().toLowerCase();
    return read(`company-path:${path}`, () => loaderRowsOf(prisma).activeCompanyBy('appPath', path));
  }
  return undefined; // no tenant header
}

export async function resolveRequestAuth(
  prisma: Db,
  headers: TenantHeaders,
  secret: string,
  read: RowReader = uncachedRows,
): Promise<RequestAuth> {
  const auth: RequestAuth = { viewer: null, viewerCompany: null, tenant: null, viewerError: null, tenantError: null };
  // The token's user and the company the headers name are read at once: one round trip to the database, not two.
  const [user, company] = await Promise.allSettled([
    authenticate(prisma, headers.authorization, secret, read),
    companyFromHeaders(prisma, headers, read),
  ]);
  if (user.status === 'fulfilled') auth.viewer = user.value;
  else auth.viewerError = user.reason as Error;
  const viewer = auth.viewer;
  try {
    if (company.status === 'rejected') throw company.reason;
    const named = company.value;
    if (named === undefined) {
      if (viewer)
        auth.tenant = auth.viewerCompany = await read(`company:${viewer.companyId}`, () =>
          loaderRowsOf(prisma).companyById(viewer.companyId),
        );
      return auth;
    }
    if (headers.appCompany) {
      if (!viewer) throw auth.viewerError ?? unauthenticated('x-app-company needs a Bearer token');
      if (viewer.role !== 'manager' && viewer.role !== 'reseller')
        throw forbidden('x-app-company is honoured only for resellers and managers');
      if (!named) throw notFound('company', headers.appCompany);
      if (named.id !== viewer.companyId && !canActOnBehalf(viewer, named))
        throw forbidden('x-app-company names a company this reseller does not manage');
    } else {
      if (!named) throw notFound('company for the x-app-host / x-app-path header');
      // Without a credential the header only says where to log in (login reads it itself): it must not open a
      // company's data to an anonymous caller (e.g. nested under a public invitation link).
      if (!viewer) return auth;
      if (named.id !== viewer.companyId && !canActOnBehalf(viewer, named)) {
        throw forbidden('the credential does not belong to the company named by x-app-host / x-app-path');
      }
    }
    auth.tenant = named;
  } catch (err) {
    auth.tenantError = err as Error;
  }
  return auth;
}
