// Access tokens and invitation tokens: HS256 JWTs signed with the service's secret (jose).
import { errors, jwtVerify, SignJWT } from 'jose';

const ISSUER = 'prode-gateway';
const ACCESS = 'access';
const INVITATION = 'invitation';

export interface AccessClaims {
  userId: number;
  companyId: number;
  role: string;
  /**
   * The user's token version when it was signed (claim `ver`): a token of another version than the user's is
   * revoked (src/app/sessions.ts). Tokens signed before the claim existed carry none and count as version 0.
   */
  tokenVersion: number;
}

/**
 * The HMAC key of each secret, imported once: given the raw bytes, jose imports them through WebCrypto on every
 * call, a trip through the thread pool on each request's token (about a third of a verification's time). A process
 * holds one secret, tests a few: the map stays tiny.
 */
const keys = new Map<string, Promise<CryptoKey>>();
const key = (secret: string): Promise<CryptoKey> => {
  let imported = keys.get(secret);
  if (!imported) {
    imported = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    // A failed import (an empty secret) is not kept: the error stays the caller's, as it was with the raw bytes.
    imported.catch(() => keys.delete(secret));
    keys.set(secret, imported);
  }
  return imported;
};

export async function signAccessToken(claims: AccessClaims, secret: string, ttlSeconds: number): Promise<string> {
  return new SignJWT({ cid: claims.companyId, role: claims.role, ver: claims.tokenVersion, typ: ACCESS })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(await key(secret));
}

export class TokenError extends Error {}

/** Ids are PostgreSQL int4 columns: a claim outside their range names no row, and must not reach a query. */
const isRowId = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 2 ** 31 - 1;

/** A token version is an int4 column too, never negative. */
const isVersion = (n: unknown): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 2 ** 31 - 1;

/**
 * Verifies signature (HS256 only: "alg: none" and others are refused), issuer, expiry and claim types. An access
 * token must carry its expiry: one without `exp` would never end, so it is refused.
 */
export async function verifyAccessToken(token: string, secret: string): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, await key(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      requiredClaims: ['exp'],
    });
    const userId = Number(payload.sub);
    const tokenVersion = payload.ver === undefined ? 0 : payload.ver; // absent: signed before versions existed
    if (
      payload.typ !== ACCESS ||
      !isRowId(userId) ||
      !isRowId(payload.cid) ||
      typeof payload.role !== 'string' ||
      !isVersion(tokenVersion)
    ) {
      throw new TokenError('token claims are malformed');
    }
    return { userId, companyId: payload.cid, role: payload.role, tokenVersion };
  } catch (err) {
    if (err instanceof TokenError) throw err;
    if (err instanceof errors.JWTExpired) throw new TokenError('token has expired');
    throw new TokenError('token is invalid');
  }
}

export async function signInvitationToken(
  invitationId: number,
  secret: string,
  ttlSeconds = 30 * 24 * 3600,
): Promise<string> {
  return new SignJWT({ typ: INVITATION })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(invitationId))
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(await key(secret));
}

/**
 * Returns the invitation id, or null for a bad, expired or foreign token (all reported as not found). Unlike
 * access tokens, `exp` is not required here: the invitation row's own expiresAt, revokedAt and acceptedAt are
 * checked on every use (invitation.resolver.ts), and the links this service signs always carry one anyway.
 */
export async function verifyInvitationToken(token: string, secret: string): Promise<number | null> {
  try {
    const { payload } = await jwtVerify(token, await key(secret), { algorithms: ['HS256'], issuer: ISSUER });
    const id = Number(payload.sub);
    return payload.typ === INVITATION && isRowId(id) ? id : null;
  } catch {
    return null;
  }
}
