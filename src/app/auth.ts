// Login: e-mail and password for an access token, throttled per address and e-mail (src/security/login-throttle.ts).
// A company that signs in with its own provider only refuses its people's passwords (src/app/login-strategy.ts).
import { needsRehash, type PasswordWork } from '../auth/passwords.ts';
import { companyFromHeaders, type TenantHeaders } from '../auth/request-auth.ts';
import { signAccessToken } from '../auth/tokens.ts';
import type { CompanyRow, UserRow } from '../db/rows.ts';
import { badInput, emailNotVerified, notFound, rateLimited, unauthenticated } from '../domain/errors.ts';
import { MAX_EMAIL_LENGTH } from '../domain/inputs.ts';
import type { LoginThrottle } from '../security/login-throttle.ts';
import { passwordAllowed, passwordRefused } from './login-strategy.ts';
import { passwordWorkFor } from './password-client.ts';
import type { RequestScope } from './scope.ts';

// One response for every credential failure, so the API does not tell which e-mails exist: the same message
// whether the e-mail is unknown, its password wrong, its company closed (a header naming a closed company is
// treated as naming none: below) or (without a tenant header) it exists in several companies; and each costs one
// scrypt at the current parameters, so they also take the same time.
const BAD_CREDENTIALS = 'e-mail or password is wrong';
// Without a tenant header the response also tells how to name the company, the same whether or not the e-mail is
// held by several companies (or exists at all).
const BAD_CREDENTIALS_NO_COMPANY =
  `${BAD_CREDENTIALS} (if your e-mail is in several companies, name yours with ` + `x-app-path or x-app-host)`;

/** True when the request names a company by x-app-path or x-app-host (or x-app-company). */
const companyNamed = (h: TenantHeaders) => Boolean(h.appCompany || h.appHost || h.appPath);

/** The company comes from the tenant headers; without them the e-mail must be unique across companies. */
export async function login(
  scope: RequestScope,
  input: { email: string; password: string; headers: TenantHeaders; client: { ip: string; throttle: LoginThrottle } },
): Promise<{ token: string; user: UserRow }> {
  const { email, password, headers, client } = input;
  const normalized = email.trim().toLowerCase();
  if (!normalized || password.length === 0)
    throw badInput('email and password are required', normalized ? 'password' : 'email');
  if (normalized.length > MAX_EMAIL_LENGTH)
    throw badInput(`email is longer than ${MAX_EMAIL_LENGTH} characters`, 'email');
  // Counted before anything is checked (src/security/login-throttle.ts): attempts in flight count too.
  const attempt = await client.throttle.attempt(client.ip, normalized, { login: normalized });
  if (attempt.retryAfterSeconds !== null) {
    throw rateLimited(`too many failed logins: try again in ${attempt.retryAfterSeconds} s`, attempt.retryAfterSeconds);
  }
  let named;
  try {
    named = await companyFromHeaders(scope.db, headers);
  } catch (err) {
    await attempt.cancelled(); // the database failed: no credential was checked
    throw err;
  }
  // A path or host is public (it is in the address people open), so saying that it names no company tells nothing
  // about accounts, and no password is checked. The attempt stays counted as a failure: probing names costs what
  // guessing passwords costs. A company code or id (x-app-company) is not public: it gets the credentials' response.
  if (named === null && !headers.appCompany) throw unknownCompany(headers);
  let user;
  let work: PasswordWork;
  try {
    ({ user, work } = await checkCredentials(scope, named, normalized, password, client.ip));
  } catch (err) {
    await attempt.cancelled(); // the database failed: no credential was checked
    throw err;
  }
  if (!user) throw unauthenticated(companyNamed(headers) ? BAD_CREDENTIALS : BAD_CREDENTIALS_NO_COMPANY);
  const company = await scope.loaders.company.load(user.companyId);
  // A company that signs in with its own provider only (loginStrategy 1) is told so only once the password proved
  // right: a wrong one gets the answer an unknown e-mail gets. The attempt stays counted as a failure.
  if (company && !passwordAllowed(company, user.role)) throw passwordRefused(scope.config.sso.publicUrl, company);
  await attempt.succeeded();
  if (company?.requiresEmailVerification && !user.emailVerified) {
    // Worded for every face: REST has no route that sends a new link.
    throw emailNotVerified(`confirm your e-mail first: open the link sent to ${user.email}`);
  }
  // A hash made with weaker parameters than today's is replaced now that the password is at hand; only if it
  // is still the one checked (a password change in between wins).
  if (needsRehash(user.passwordHash)) {
    const passwordHash = await work.hash(password);
    await scope.write((tx) =>
      tx.user.updateMany({ where: { id: user.id, passwordHash: user.passwordHash }, data: { passwordHash } }),
    );
  }
  const updated = await scope.write((tx) =>
    tx.user.update({ where: { id: user.id }, data: { loginCount: { increment: 1 }, lastActiveDate: scope.now } }),
  );
  const token = await signAccessToken(
    // The version read with the password it checked: a password change since then revokes this token too.
    { userId: user.id, companyId: user.companyId, role: user.role, tokenVersion: user.tokenVersion },
    scope.config.jwtSecret,
    scope.config.jwtTtlSeconds,
  );
  return { token, user: updated };
}

/** The header that named no open company, quoted (clipped: it is the caller's text). */
function unknownCompany(headers: TenantHeaders) {
  const [header, value] = headers.appHost ? ['x-app-host', headers.appHost] : ['x-app-path', headers.appPath ?? ''];
  return notFound(`company with ${header} ${JSON.stringify(value.trim().slice(0, 100))}`);
}

/**
 * The user these credentials open, or null; every null costs one scrypt derivation, like a wrong password. The
 * derivations queue in the lane of the company named (or of none) and the address.
 */
async function checkCredentials(
  scope: RequestScope,
  // null: a header naming no open company, which opens no account; undefined: no header.
  company: CompanyRow | null | undefined,
  email: string,
  password: string,
  ip: string,
): Promise<{ user: UserRow | null; work: PasswordWork }> {
  const users =
    company === null
      ? []
      : await scope.db.user.findMany({
          // A deleted company is closed: its users no longer log in.
          where: {
            email,
            deletedAt: null,
            company: { deletedAt: null },
            ...(company ? { companyId: company.id } : {}),
          },
          take: 2,
        });
  // Several companies keep this e-mail and none was named: no account is chosen.
  const user = users.length === 1 ? users[0] : undefined;
  // The lane comes from what the request named, never from the account found: a lane whose queue is full would
  // otherwise tell which e-mails have accounts (and in which company).
  const work = passwordWorkFor(company?.id, ip);
  if (!user?.passwordHash) return work.verifyNone(password).then(() => ({ user: null, work }));
  if (await work.verify(password, user.passwordHash)) return { user, work };
  // A hash older than today's cost checks faster than the dummy of an unknown e-mail: pay the difference, so
  // the time of a failure does not tell which e-mails have accounts (a success pays it by re-hashing).
  if (needsRehash(user.passwordHash)) await work.verifyNone(password);
  return { user: null, work };
}
