// Single sign-on: Google (a platform-wide client) and each company's own OpenID Connect provider. A sign-in starts
// at GET /auth/sso/start (a pending row: state, nonce, PKCE verifier, browser cookie), comes back to
// GET /auth/sso/callback (every check, then the person found, linked or created), and ends in the app with a
// one-time code that exchangeLoginCode turns into the token login gives, once, within 60 seconds. Tokens never
// travel in addresses. The routes are src/http/sso-routes.ts; the OpenID Connect client is src/auth/oidc.ts.
import { createHash, randomBytes } from 'node:crypto';
import { companyFromHeaders } from '../auth/request-auth.ts';
import {
  authorizationUrl,
  checkDiscovery,
  logProviderFailure,
  newSignInSecrets,
  OidcError,
  redeemCode,
  type VerifiedPerson,
} from '../auth/oidc.ts';
import { signAccessToken } from '../auth/tokens.ts';
import { issuerProblem, type OidcClientConfig } from '../config.ts';
import { companyByCode } from '../db/company-code.ts';
import type { Db } from '../db/client.ts';
import type { CompanyRow, UserRow } from '../db/rows.ts';
import { Prisma } from '../db/sql.ts';
import { col, Model, query, rowsOf, table } from '../db/typed-sql.ts';
import { stringArray } from '../domain/defaults.ts';
import { badInput, DomainError, notFound } from '../domain/errors.ts';
import {
  checkSsoSettings,
  COMPANY_PROVIDER_ONLY,
  isSafeRedirect,
  SSO_PROVIDERS,
  type SsoProvider,
  type SsoSettingsInput,
} from '../domain/sso.ts';
import { recordAudit } from './audit.ts';
import { administered, holds } from './company-admin.ts';
import { countAttempt, counted, type ThrottledClient } from './password-client.ts';
import type { RequestScope } from './scope.ts';
import { admitPerson, SsoRefusal } from './sso-people.ts';

export { SsoRefusal } from './sso-people.ts';

/** A sign-in must come back from the provider within this. */
export const SIGN_IN_TTL_MS = 10 * 60_000;
/** A login code is exchanged within this. */
export const LOGIN_CODE_TTL_MS = 60_000;
export const CALLBACK_PATH = '/auth/sso/callback';
/** Every start counts against one subject: the start throttle's per-subject budget is the address's. */
const SSO_START_SUBJECT = 'sso:start';
/** The gateway's own page a sign-in ends on when APP_URL is the gateway. */
export const DONE_PATH = '/auth/sso/done';
/** The gateway's GraphQL explorer (src/graphql/explorer.ts), which exchanges a code itself. */
export const EXPLORER_PATH = '/graphiql';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const random = () => randomBytes(32).toString('base64url');

/** Where the person goes next, and (at start) the cookie that binds the sign-in to their browser. */
export interface SsoStep {
  location: string;
  browserSecret?: string;
}

/** The company a sign-in names, by app path or code; open companies only. */
export async function companyNamed(db: Db, name: string): Promise<CompanyRow | null> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) return null;
  return (await companyFromHeaders(db, { appPath: trimmed })) ?? companyByCode(db, trimmed, { activeOnly: true });
}

/** The provider of a sign-in into `company`, or the refusal that names why there is none. */
async function providerFor(
  scope: RequestScope,
  company: CompanyRow,
  provider: SsoProvider,
  redirect: string,
): Promise<OidcClientConfig & { emailDomains: string[] }> {
  const refuse = (code: string) => new SsoRefusal(code, redirect);
  if (provider === 'google') {
    if (company.loginStrategy === COMPANY_PROVIDER_ONLY) throw refuse('company_provider_only');
    if (company.disableGoogleLogin) throw refuse('google_disabled');
    const google = scope.config.sso.google;
    if (!google) throw refuse('google_unavailable');
    return { ...google, emailDomains: [] };
  }
  const own = await scope.db.companySso.findUnique({ where: { companyId: company.id } });
  if (!own) throw refuse('no_company_provider');
  const { issuer, clientId, clientSecret } = own;
  return { issuer, clientId, clientSecret, emailDomains: stringArray(own.emailDomains) };
}

const redirectUri = (scope: RequestScope) => `${scope.config.sso.publicUrl}${CALLBACK_PATH}`;

/**
 * Starts a sign-in: checks what the address asks, stores the pending sign-in and returns the provider's
 * authorization URL with the cookie secret. A refusal with a safe path goes back to the app with ?error=.
 */
export async function startSsoSignIn(
  scope: RequestScope,
  client: ThrottledClient,
  args: { company?: string; provider?: string; redirect?: string },
): Promise<SsoStep> {
  const redirect = args.redirect ?? '/';
  if (!isSafeRedirect(redirect)) {
    throw new SsoRefusal('invalid_redirect', null, 'redirect must be a path of the app starting with one "/"');
  }
  // Every start counts, whatever its outcome: each may store a pending sign-in and ask a provider.
  return countAttempt(client, SSO_START_SUBJECT, 'sign-ins started from this address')
    .then(() => start(scope, args.company ?? '', args.provider ?? '', redirect))
    .catch((err) => appRefusal(err, redirect));
}

async function start(scope: RequestScope, name: string, provider: string, redirect: string): Promise<SsoStep> {
  if (!(SSO_PROVIDERS as readonly string[]).includes(provider)) throw new SsoRefusal('invalid_provider', redirect);
  const company = await companyNamed(scope.db, name);
  if (!company) throw new SsoRefusal('unknown_company', redirect);
  const chosen = await providerFor(scope, company, provider as SsoProvider, redirect);
  const secrets = newSignInSecrets();
  const browserSecret = random();
  const location = await authorizationUrl(chosen, scope.config.env, { redirectUri: redirectUri(scope), ...secrets });
  await scope.write(async (tx) => {
    // Expired sign-ins and codes go with the next sign-in: both tables stay as small as the sign-ins in flight.
    await tx.ssoSignIn.deleteMany({ where: { expiresAt: { lt: scope.now } } });
    await tx.ssoLoginCode.deleteMany({ where: { expiresAt: { lt: scope.now } } });
    await tx.ssoSignIn.create({
      data: {
        stateHash: sha256(secrets.state),
        nonce: secrets.nonce,
        codeVerifier: secrets.codeVerifier,
        provider,
        issuer: chosen.issuer,
        companyId: company.id,
        redirect,
        browserHash: sha256(browserSecret),
        expiresAt: new Date(scope.now.getTime() + SIGN_IN_TTL_MS),
      },
    });
  });
  return { location: location.href, browserSecret };
}

/** A provider failure or a refusal of the rules as an SsoRefusal the route turns into a redirect or a page. */
function appRefusal(err: unknown, redirect: string | null): never {
  if (err instanceof SsoRefusal) throw err;
  if (err instanceof OidcError) {
    logProviderFailure(err, {});
    throw new SsoRefusal(
      // An endpoint the provider may not name (insecure) is its answer refused, not the provider away.
      err.reason === 'unreachable' ? 'provider_unavailable' : 'sign_in_rejected',
      redirect,
      err.message,
    );
  }
  if (err instanceof DomainError && err.extensions.code === 'RATE_LIMITED') {
    throw new SsoRefusal('rate_limited', redirect, err.message);
  }
  throw err;
}

/**
 * The provider's answer: the pending sign-in is taken (once), the browser's cookie, state, PKCE and the ID token
 * are checked, the person is found, linked or created, and the app is sent a one-time code.
 */
export async function finishSsoSignIn(
  scope: RequestScope,
  client: ThrottledClient,
  args: { query: URLSearchParams; browserSecret: string | undefined },
): Promise<SsoStep> {
  const state = args.query.get('state');
  if (!state || state.length > 200) throw new SsoRefusal('invalid_state', null, 'the answer names no sign-in');
  const attempt = await countAttempt(client, 'sso:callback', 'failed sign-ins from this address').catch((err) =>
    appRefusal(err, null),
  );
  try {
    const step = await finish(scope, state, args);
    await attempt.cancelled();
    return step;
  } catch (err) {
    // A refusal (of the rules or the provider's answer) stays counted as a failure; anything else (the database
    // away) guessed nothing and is given back.
    if (!(err instanceof SsoRefusal || err instanceof OidcError || err instanceof DomainError))
      await attempt.cancelled();
    return appRefusal(err, err instanceof SsoRefusal ? err.redirect : null);
  }
}

async function finish(
  scope: RequestScope,
  state: string,
  args: { query: URLSearchParams; browserSecret: string | undefined },
): Promise<SsoStep> {
  const stateHash = sha256(state);
  const pending = await scope.db.ssoSignIn.findUnique({ where: { stateHash } });
  // Taken by one statement: of two answers with one state, one goes on.
  const taken = pending && (await scope.db.ssoSignIn.deleteMany({ where: { stateHash } })).count === 1;
  if (!pending || !taken || pending.expiresAt <= scope.now) {
    throw new SsoRefusal('invalid_state', null, 'this sign-in is unknown, expired or already used: start again');
  }
  const redirect = pending.redirect;
  if (!args.browserSecret || sha256(args.browserSecret) !== pending.browserHash) {
    throw new SsoRefusal('browser_mismatch', redirect);
  }
  if (args.query.get('error')) throw new SsoRefusal('provider_refused', redirect);
  const company = await scope.db.company.findFirst({ where: { id: pending.companyId, deletedAt: null } });
  if (!company) throw new SsoRefusal('unknown_company', redirect);
  const provider = pending.provider as SsoProvider;
  const chosen = await providerFor(scope, company, provider, redirect);
  // The company changed its provider while the person was away: the answer is not from the one asked.
  if (chosen.issuer !== pending.issuer) throw new SsoRefusal('sign_in_rejected', redirect);
  const callbackUrl = new URL(`${redirectUri(scope)}?${args.query.toString()}`);
  const person = await redeemCode(chosen, scope.config.env, callbackUrl, {
    state,
    nonce: pending.nonce,
    codeVerifier: pending.codeVerifier,
  }).catch((err) => appRefusal(err, redirect));
  const user = await admitPerson(scope, { company, provider, person, emailDomains: chosen.emailDomains, redirect });
  const code = await issueLoginCode(scope, user);
  return { location: codeDestination(scope, redirect, { code }) };
}

/**
 * Where the app receives `params` at `redirect`: APP_URL, or the gateway's own page when APP_URL is the gateway.
 * A sign-in started from the gateway's explorer (redirect /graphiql, where it is served) ends there, whatever APP_URL.
 */
export function codeDestination(scope: RequestScope, redirect: string, params: Record<string, string>): string {
  const { sso, mail } = scope.config;
  if (sso.explorer && redirect === EXPLORER_PATH) {
    const url = new URL(`${sso.publicUrl}${EXPLORER_PATH}`);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.href;
  }
  const url = sso.appUrlIsGateway ? new URL(`${sso.publicUrl}${DONE_PATH}`) : new URL(`${mail.appUrl}${redirect}`);
  if (sso.appUrlIsGateway) url.searchParams.set('redirect', redirect);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}

async function issueLoginCode(scope: RequestScope, user: UserRow): Promise<string> {
  const code = random();
  await scope.write((tx) =>
    tx.ssoLoginCode.create({
      data: {
        codeHash: sha256(code),
        userId: user.id,
        companyId: user.companyId,
        expiresAt: new Date(scope.now.getTime() + LOGIN_CODE_TTL_MS),
      },
    }),
  );
  return code;
}

/** Deletes the code's row and returns it, in one statement: of two exchanges of one code, one gets the row. */
const consumeCode = query({ userId: 'number', companyId: 'number', expiresAt: 'date' }, (codeHash: string) => {
  const c = (column: 'codeHash' | 'userId' | 'companyId' | 'expiresAt') => col(Model.SsoLoginCode, column);
  return Prisma.sql`
    DELETE FROM ${table(Model.SsoLoginCode)} WHERE ${c('codeHash')} = ${codeHash}
    RETURNING ${c('userId')} AS "userId", ${c('companyId')} AS "companyId", ${c('expiresAt')} AS "expiresAt"`;
});

/**
 * Public: the token login gives, for a code a sign-in handed the app; once, within 60 seconds. Codes that open
 * nothing count against the token throttle, per address.
 */
export async function exchangeLoginCode(
  scope: RequestScope,
  client: ThrottledClient,
  code: string,
): Promise<{ token: string; user: UserRow }> {
  return counted(client, 'loginCode', 'invalid codes from this address', 'given back', async () => {
    const invalid = () => notFound('login code (it is invalid, expired or already used)');
    const raw = code.trim();
    if (!raw || raw.length > 200) throw invalid();
    const [row] = await rowsOf(scope.db, consumeCode, sha256(raw));
    if (!row || row.expiresAt <= scope.now) throw invalid();
    const user = await scope.db.user.findFirst({
      where: { id: row.userId, companyId: row.companyId, deletedAt: null, company: { deletedAt: null } },
    });
    if (!user) throw invalid();
    const updated = await scope.write((tx) =>
      tx.user.update({ where: { id: user.id }, data: { loginCount: { increment: 1 }, lastActiveDate: scope.now } }),
    );
    const token = await signAccessToken(
      { userId: user.id, companyId: user.companyId, role: user.role, tokenVersion: user.tokenVersion },
      scope.config.jwtSecret,
      scope.config.jwtTtlSeconds,
    );
    return { token, user: updated };
  });
}

export type { VerifiedPerson };

/** What a company's provider shows to those who administer the company: never the secret. */
export interface CompanySsoView {
  issuer: string;
  clientId: string;
  emailDomains: string[];
}

const viewOf = (row: { issuer: string; clientId: string; emailDomains: unknown }): CompanySsoView => ({
  issuer: row.issuer,
  clientId: row.clientId,
  emailDomains: stringArray(row.emailDomains),
});

/** Company.sso: the provider, for the company's admins, its reseller and managers; null to others and when unset. */
export async function companySso(scope: RequestScope, company: CompanyRow): Promise<CompanySsoView | null> {
  const acting = scope.acting;
  if (!acting || !holds(acting.viewer, company, 'admin')) return null;
  const row = await scope.db.companySso.findUnique({ where: { companyId: company.id } });
  return row ? viewOf(row) : null;
}

/** The company, when the caller is one of its admins, its reseller or a manager; else NOT_FOUND. */
async function administeredForSso(scope: RequestScope, companyId: number) {
  const { viewer } = scope.requireRole('admin', "only admins, resellers and managers change a company's sign-in");
  const company = await administered(scope, viewer, companyId);
  if (!holds(viewer, company, 'admin')) throw notFound('company', companyId);
  return { viewer, company };
}

/**
 * Sets the company's own provider. The issuer must publish a discovery document naming itself (checked now, with
 * a short timeout); http only on loopback and outside production.
 */
export async function updateCompanySso(
  scope: RequestScope,
  companyId: number,
  input: SsoSettingsInput,
): Promise<CompanyRow> {
  const { viewer, company } = await administeredForSso(scope, companyId);
  const settings = checkSsoSettings(input);
  const problem = issuerProblem(settings.issuer, scope.config.env);
  if (problem) throw badInput(`issuer ${problem}`, 'issuer');
  try {
    await checkDiscovery(settings.issuer, scope.config.env);
  } catch (err) {
    if (!(err instanceof OidcError)) throw err;
    // What failed stays in the server's log: the text could echo what an internal host answered.
    logProviderFailure(err, { companyId: company.id, issuer: settings.issuer });
    throw badInput('issuer: no usable OpenID Connect discovery document could be fetched from it', 'issuer');
  }
  const { clientSecret, ...shown } = settings;
  await scope.write(async (tx) => {
    const before = await tx.companySso.findUnique({ where: { companyId: company.id } });
    const data = { ...shown, clientSecret, emailDomains: settings.emailDomains };
    await tx.companySso.upsert({
      where: { companyId: company.id },
      create: { companyId: company.id, ...data },
      update: data,
    });
    await recordAudit(tx, scope.now, {
      kind: 'COMPANY_SETTINGS_CHANGED',
      companyId: company.id,
      actorId: viewer.id,
      // The secret is never recorded; that it changed is.
      before: { sso: before ? viewOf(before) : null },
      after: { sso: { ...shown, clientSecretChanged: before?.clientSecret !== clientSecret } },
    });
  });
  return company;
}

/** Removes the company's own provider; its people's identities stay for when one is set again. */
export async function deleteCompanySso(scope: RequestScope, companyId: number): Promise<boolean> {
  const { viewer, company } = await administeredForSso(scope, companyId);
  return scope.write(async (tx) => {
    const before = await tx.companySso.findUnique({ where: { companyId: company.id } });
    if (!before) return false;
    await tx.companySso.delete({ where: { companyId: company.id } });
    await recordAudit(tx, scope.now, {
      kind: 'COMPANY_SETTINGS_CHANGED',
      companyId: company.id,
      actorId: viewer.id,
      before: { sso: viewOf(before) },
      after: { sso: null },
    });
    return true;
  });
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const ssoSql = { consumeCode };
