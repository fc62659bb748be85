// Sign-up: a person creates their own account in a company that has not closed it (disableRegister), within its
// password policy and size; where the company requires it (requiresEmailVerification), the account logs in only
// once the link mailed to its address has been opened.
import { consumeAccountToken, findAccountToken, issueAccountToken } from '../auth/account-tokens.ts';
import { hashPassword, passwordPolicyViolation, type PasswordPolicyName } from '../auth/passwords.ts';
import { companyFromHeaders, type TenantHeaders } from '../auth/request-auth.ts';
import { signAccessToken } from '../auth/tokens.ts';
import type { Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { CompanyRow, UserRow } from '../db/rows.ts';
import { areaRuleField, AreaRuleError, checkAreaPlacement } from '../domain/areas.ts';
import { DEFAULT_USER_JSON, featureSettings } from '../domain/defaults.ts';
import { badInput, conflict, forbidden, notFound, rateLimited } from '../domain/errors.ts';
import { checkPersonName, emailInput } from '../domain/inputs.ts';
import { queueEmail } from '../mail/outbox.ts';
import { quoted, unlinked } from '../mail/user-text.ts';
import type { LoginThrottle } from '../security/login-throttle.ts';
import type { RequestScope } from './scope.ts';

/** How long a verification link works. */
export const EMAIL_VERIFICATION_TTL_MS = 48 * 3600_000;
const MAX_NAME_LENGTH = 200;

export const emailVerificationLink = (appUrl: string, token: string) =>
  `${appUrl}/verify-email?token=${encodeURIComponent(token)}`;

export interface RegisterInput {
  name: string;
  email: string;
  password: string;
  areaLevel1Id?: number | null;
  areaLevel2Id?: number | null;
  areaLevel3Id?: number | null;
}

/** The account, and a token unless the company waits for the e-mail to be verified. */
export interface Registered {
  user: UserRow;
  token: string | null;
  emailVerificationRequired: boolean;
}

async function signUpCompany(scope: RequestScope, headers: TenantHeaders): Promise<CompanyRow> {
  if (!headers.appPath && !headers.appHost) {
    throw badInput('name the company to sign up to with the x-app-path or x-app-host header', 'x-app-path');
  }
  // x-app-company is honoured for resellers and managers only: an anonymous sign-up names its company by path or host.
  const company = await companyFromHeaders(scope.db, { appPath: headers.appPath, appHost: headers.appHost });
  if (!company) throw notFound('company (x-app-path / x-app-host)');
  if (company.disableRegister) throw forbidden(`sign-up is closed in ${company.name}: ask an admin for an invitation`);
  return company;
}

/** Public: creates a player account in the company the tenant headers name. */
export async function register(scope: RequestScope, input: RegisterInput, headers: TenantHeaders): Promise<Registered> {
  const company = await signUpCompany(scope, headers);
  const name = input.name.trim();
  checkPersonName(name);
  if (!name || name.length > MAX_NAME_LENGTH)
    throw badInput(`name must have 1 to ${MAX_NAME_LENGTH} characters`, 'name');
  const email = emailInput(input.email);
  const problem = passwordPolicyViolation(input.password, company.passwordPolicy as PasswordPolicyName);
  if (problem) throw badInput(problem, 'password');
  const placement = {
    areaLevel1Id: input.areaLevel1Id ?? null,
    areaLevel2Id: input.areaLevel2Id ?? null,
    areaLevel3Id: input.areaLevel3Id ?? null,
  };
  const placed = placement.areaLevel1Id ?? placement.areaLevel2Id ?? placement.areaLevel3Id;
  if (placed != null && !featureSettings(company.featureSettings).areas.selfAssignOnSignUp) {
    throw forbidden(`${company.name} places people in areas itself (featureSettings.areas.selfAssignOnSignUp)`);
  }
  try {
    await checkAreaPlacement(scope.db, company.id, placement);
  } catch (err) {
    if (err instanceof AreaRuleError) throw badInput(err.message, areaRuleField(err));
    throw err;
  }
  // Before the costly hash: a taken address is refused at once (the write checks again, in its transaction).
  if (await scope.db.user.findFirst({ where: { companyId: company.id, email }, select: { id: true } })) {
    throw conflict(`${email} already has an account in ${company.name}: log in, or reset the password`);
  }
  const passwordHash = await hashPassword(input.password);
  const verify = company.requiresEmailVerification;

  const created = await scope
    .write(async (tx) => {
      const users = await tx.user.count({ where: { companyId: company.id, deletedAt: null } });
      if (!company.allowExceedMaxUsers && users >= company.maxUsersAmount) {
        throw forbidden(`${company.name} has reached its maximum of ${company.maxUsersAmount} users`);
      }
      if (await tx.user.findFirst({ where: { companyId: company.id, email }, select: { id: true } })) {
        throw conflict(`${email} already has an account in ${company.name}: log in, or reset the password`);
      }
      const user = await tx.user.create({
        data: {
          ...DEFAULT_USER_JSON,
          ...placement,
          companyId: company.id,
          name,
          email,
          passwordHash,
          emailVerified: false,
          externalId: email,
          loginProviderId: email,
          ...(verify ? {} : { loginCount: 1, lastActiveDate: scope.now }),
        },
      });
      if (verify) await queueVerification(tx, scope, user, company);
      return user;
    })
    .catch((err) => {
      // Two sign-ups with one e-mail at once: the unique index let one in.
      if (isUniqueViolation(err)) throw conflict(`${email} already has an account in ${company.name}`);
      throw err;
    });
  if (verify) {
    scope.mail.wake();
    return { user: created, token: null, emailVerificationRequired: true };
  }
  return { user: created, token: await accessToken(scope, created), emailVerificationRequired: false };
}

/** Issues a verification link for `user` and queues its e-mail (in the caller's transaction). */
export async function queueVerification(tx: Tx, scope: RequestScope, user: UserRow, company: CompanyRow) {
  const token = await issueAccountToken(tx, user.id, 'emailVerification', scope.now, EMAIL_VERIFICATION_TTL_MS);
  await queueEmail(tx, {
    to: user.email,
    kind: 'emailVerification',
    subject: `Confirm your e-mail for ${unlinked(company.name)}`,
    text:
      `Hello ${quoted(user.name)},\n\nOpen this link within 48 hours to confirm your e-mail and start playing in ` +
      `${quoted(company.name)}:\n\n${emailVerificationLink(scope.config.mail.appUrl, token)}\n\n` +
      `If you did not sign up, ignore this e-mail.\n`,
  });
}

/** Public: confirms the address a verification link was sent to, and logs the user in. */
export async function verifyEmail(scope: RequestScope, token: string): Promise<{ token: string; user: UserRow }> {
  const invalid = () => notFound('e-mail verification link (it is invalid, expired or already used)');
  const raw = token.trim();
  if (!raw || raw.length > 200) throw invalid();
  const found = await findAccountToken(scope.db, raw, 'emailVerification', scope.now);
  if (!found) throw invalid();
  const user = await scope.write(async (tx) => {
    if (!(await consumeAccountToken(tx, found.id, scope.now))) throw invalid();
    const open = await tx.user.findFirst({
      where: { id: found.userId, deletedAt: null, company: { deletedAt: null } },
    });
    if (!open) throw invalid();
    return tx.user.update({
      where: { id: open.id },
      data: { emailVerified: true, loginCount: { increment: 1 }, lastActiveDate: scope.now },
    });
  });
  return { token: await accessToken(scope, user), user };
}

/**
 * Public: mails a new verification link to an unverified account of the named company. Answers true whether or
 * not there is one; throttled like a password reset.
 */
export async function requestEmailVerification(
  scope: RequestScope,
  email: string,
  headers: TenantHeaders,
  client: { ip: string; throttle: LoginThrottle },
): Promise<true> {
  const address = emailInput(email);
  const attempt = await client.throttle.attempt(client.ip, address);
  if (attempt.retryAfterSeconds !== null) {
    throw rateLimited(`too many requests: try again in ${attempt.retryAfterSeconds} s`, attempt.retryAfterSeconds);
  }
  const company = await companyFromHeaders(scope.db, headers);
  if (!company) return true;
  const user = await scope.db.user.findFirst({
    where: { companyId: company.id, email: address, deletedAt: null, emailVerified: false },
  });
  if (!user) return true;
  await scope.write((tx) => queueVerification(tx, scope, user, company));
  scope.mail.wake();
  return true;
}

const accessToken = (scope: RequestScope, user: UserRow) =>
  signAccessToken(
    { userId: user.id, companyId: user.companyId, role: user.role },
    scope.config.jwtSecret,
    scope.config.jwtTtlSeconds,
  );
