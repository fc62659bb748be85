// Tokens made by the tests themselves: access tokens and invitation links the server must accept, and JWTs it must
// refuse (another secret, expired, no `exp`, odd claims). In one place, so that a change of the token format is
// one change here and not a hunt through the suites.
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { signInvitationToken, type AccessClaims } from '../../src/auth/tokens.ts';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const ISSUER = 'prode-gateway';

const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface JwtOptions {
  /** Default: the test servers' secret. */
  secret?: string;
  /** Default: HS256, the only algorithm the server accepts. */
  alg?: string;
  sub?: string;
  /** Default: the service's issuer; null leaves the claim out. */
  iss?: string | null;
  /** Seconds since the epoch. Default: an hour from now; null leaves the claim out. */
  exp?: number | null;
  nbf?: number;
}

/** Any HMAC-signed JWT, with the claims given and the registered claims the options say. */
export function signJwt(claims: Record<string, unknown>, options: JwtOptions = {}): Promise<string> {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' }).setIssuedAt();
  if (options.sub !== undefined) jwt = jwt.setSubject(options.sub);
  if (options.iss !== null) jwt = jwt.setIssuer(options.iss ?? ISSUER);
  const exp = options.exp === undefined ? nowSeconds() + 3600 : options.exp;
  if (exp !== null) jwt = jwt.setExpirationTime(exp);
  if (options.nbf !== undefined) jwt = jwt.setNotBefore(options.nbf);
  return jwt.sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}

export interface AccessTokenOptions {
  secret?: string;
  /** Seconds from now until `exp`; negative for a token that has already expired. Default: an hour. */
  expiresIn?: number;
  /** No `exp` claim at all. */
  withoutExp?: boolean;
}

/**
 * An access token with the claims signAccessToken writes (sub, cid, role, ver, typ, iss, iat, exp), for any claims the
 * test likes: the claims need not match the user, and the options make tokens the server must refuse.
 */
export function forgeAccessToken(
  claims: Omit<AccessClaims, 'tokenVersion'> & { tokenVersion?: number },
  options: AccessTokenOptions = {},
): Promise<string> {
  const exp = options.withoutExp ? null : nowSeconds() + (options.expiresIn ?? 3600);
  // Without tokenVersion the `ver` claim is left out, as in tokens signed before it existed (version 0).
  const ver = claims.tokenVersion === undefined ? {} : { ver: claims.tokenVersion };
  return signJwt(
    { cid: claims.companyId, role: claims.role, ...ver, typ: 'access' },
    { sub: String(claims.userId), secret: options.secret, exp },
  );
}

/** An invitation link's token, as the service signs them (by default with the test servers' secret). */
export function forgeInvitationLink(
  invitationId: number,
  options: { secret?: string; expiresIn?: number } = {},
): Promise<string> {
  return signInvitationToken(invitationId, options.secret ?? TEST_JWT_SECRET, options.expiresIn);
}

/**
 * A one-time login code for the user, as GET /auth/sso/callback stores one (its hash), without a provider: for the
 * tests of what an exchange answers. The flow that issues real ones is test/http/sso.test.ts's.
 */
export async function mintLoginCode(
  prisma: { ssoLoginCode: { create(args: { data: Record<string, unknown> }): Promise<unknown> } },
  user: { id: number; companyId: number },
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await prisma.ssoLoginCode.create({
    data: {
      codeHash: createHash('sha256').update(code).digest('hex'),
      userId: user.id,
      companyId: user.companyId,
      expiresAt: new Date(Date.now() + 60_000),
    },
  });
  return code;
}
