// The OpenID Connect client (openid-client): discovery, the authorization URL with state, nonce and PKCE, and the
// code grant whose ID token is checked (signature against the issuer's JWKS, issuer, audience, expiry, nonce). No
// GraphQL here: failures are OidcError, which src/app/sso.ts maps to what the person is told.
import * as oidc from 'openid-client';
import { issuerProblem, type Config, type OidcClientConfig } from '../config.ts';
import { ProviderFetchRefused, providerFetch } from './oidc-fetch.ts';

/** Why a provider could not be used: unreachable (down, slow, no discovery) or its answer failed a check. */
export class OidcError extends Error {
  constructor(
    readonly reason: 'unreachable' | 'rejected' | 'insecure',
    message: string,
  ) {
    super(message);
  }
}

/** A provider answers discovery and token requests within this, or the sign-in fails (it never hangs a request). */
const TIMEOUT_SECONDS = 5;
/** Discovered configurations are kept this long per issuer and client, at most MAX_CONFIGURATIONS of them. */
const CONFIGURATION_TTL_MS = 5 * 60_000;
/** A failed discovery is kept this long: a failing issuer is not asked again on every start. */
const FAILED_DISCOVERY_TTL_MS = 30_000;
const MAX_CONFIGURATIONS = 200;

/** Least recently used first (a hit moves its entry last), so a busy tenant's entry is not pushed out. */
const configurations = new Map<string, { until: number; config: Promise<oidc.Configuration> }>();

const isLoopbackHttp = (issuer: string) => new URL(issuer).protocol === 'http:';

/** Where a provider's failure is told in full: the server's log (the person and the admin get a short word). */
let failureLog: (detail: object, message: string) => void = () => {};
export const logProviderFailuresTo = (log: (detail: object, message: string) => void) => {
  failureLog = log;
};
export const logProviderFailure = (err: OidcError, context: object) =>
  failureLog({ ...context, reason: err.reason, detail: err.message }, 'OpenID Connect provider failed');

/**
 * The provider's configuration, discovered (or reused for a few minutes). The JWKS is fetched with the first ID
 * token to check and again when a token names an unknown key (rotation) and the cached set is a minute old.
 */
export function configurationOf(provider: OidcClientConfig, env: Config['env']): Promise<oidc.Configuration> {
  const problem = issuerProblem(provider.issuer, env);
  if (problem) return Promise.reject(new OidcError('insecure', `the issuer ${problem}`));
  const key = JSON.stringify([provider.issuer, provider.clientId, provider.clientSecret, env]);
  const now = Date.now();
  const cached = configurations.get(key);
  configurations.delete(key);
  if (cached && now < cached.until) {
    configurations.set(key, cached);
    return cached.config;
  }
  if (configurations.size >= MAX_CONFIGURATIONS) configurations.delete(configurations.keys().next().value!);
  const entry = { until: now + CONFIGURATION_TTL_MS, config: discover(provider, env) };
  configurations.set(key, entry);
  entry.config.catch(() => {
    entry.until = Date.now() + FAILED_DISCOVERY_TTL_MS;
  });
  return entry.config;
}

async function discover(provider: OidcClientConfig, env: Config['env']): Promise<oidc.Configuration> {
  // allowInsecureRequests lets http through openid-client: only for an issuer issuerProblem held to loopback, and
  // providerFetch refuses every http endpoint its discovery names elsewhere than loopback.
  const execute = [oidc.enableNonRepudiationChecks];
  if (isLoopbackHttp(provider.issuer)) execute.push(oidc.allowInsecureRequests);
  try {
    return await oidc.discovery(
      new URL(provider.issuer),
      provider.clientId,
      { client_secret: provider.clientSecret },
      oidc.ClientSecretPost(provider.clientSecret),
      { execute, timeout: TIMEOUT_SECONDS, [oidc.customFetch]: providerFetch(env) },
    );
  } catch (err) {
    throw new OidcError('unreachable', `discovery of ${provider.issuer} failed: ${describe(err)}`);
  }
}

/**
 * Checks that `issuer` publishes a discovery document naming itself (when a company saves its provider). Asked
 * afresh and not cached: an admin's checks neither push other companies' configurations out nor see an old failure.
 */
export async function checkDiscovery(issuer: string, env: Config['env']): Promise<void> {
  const problem = issuerProblem(issuer, env);
  if (problem) throw new OidcError('insecure', `the issuer ${problem}`);
  await discover({ issuer, clientId: 'discovery-check', clientSecret: 'discovery-check' }, env);
}

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** A fresh state, nonce and PKCE verifier for one sign-in. */
export const newSignInSecrets = () => ({
  state: oidc.randomState(),
  nonce: oidc.randomNonce(),
  codeVerifier: oidc.randomPKCECodeVerifier(),
});

export async function authorizationUrl(
  provider: OidcClientConfig,
  env: Config['env'],
  request: AuthorizationRequest,
): Promise<URL> {
  const config = await configurationOf(provider, env);
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: request.redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    state: request.state,
    nonce: request.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
    code_challenge_method: 'S256',
  });
}

/** What a checked ID token says of the person. */
export interface VerifiedPerson {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/**
 * Redeems the code of the provider's answer (`callbackUrl`: built from the gateway's configured base URL and the
 * query it received) and checks state, PKCE, the ID token's signature, issuer, audience, expiry and nonce.
 */
export async function redeemCode(
  provider: OidcClientConfig,
  env: Config['env'],
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<VerifiedPerson> {
  const config = await configurationOf(provider, env);
  let claims: oidc.IDToken | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      pkceCodeVerifier: checks.codeVerifier,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (err) {
    const reason = refusedFetch(err) ? 'insecure' : isNetworkError(err) ? 'unreachable' : 'rejected';
    throw new OidcError(reason, describe(err));
  }
  if (!claims) throw new OidcError('rejected', 'the provider returned no ID token');
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null;
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: email || null,
    // Only a boolean true: the library does not check this claim, and an absent one proves nothing.
    emailVerified: claims.email_verified === true,
    name: typeof claims.name === 'string' ? claims.name : null,
  };
}

const refusedFetch = (err: unknown): boolean =>
  err instanceof ProviderFetchRefused || (err instanceof Error && err.cause !== undefined && refusedFetch(err.cause));

// A system error of the connection (ECONNREFUSED, ENOTFOUND, ...), a timeout, or a request providerFetch refused.
const isNetworkError = (err: unknown): boolean =>
  err instanceof Error &&
  (err.name === 'TimeoutError' ||
    err.name === 'AbortError' ||
    /^E[A-Z]+$/.test(String((err as { code?: unknown }).code)) ||
    (err.cause !== undefined && isNetworkError(err.cause)));

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? ` (${err.cause.message})` : '';
  return `${err.message}${cause}`.slice(0, 300);
}
