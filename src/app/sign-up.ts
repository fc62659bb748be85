// Sign-up: a person creates their own account in a company that has not closed it (disableRegister), within its
// password policy and size; where the company requires it (requiresEmailVerification), the account logs in only
// once the link mailed to its address has been opened.
import { consumeAccountToken, findAccountToken, issueAccountToken } from '../auth/account-tokens.ts';
import { passwordPolicyViolation, type PasswordPolicyName } from '../auth/passwords.ts';
import { companyFromHeaders, type TenantHeaders } from '../auth/request-auth.ts';
import { signAccessToken } from '../auth/tokens.ts';
import type { Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { CompanyRow, UserRow } from '../db/rows.ts';
import { areaRuleField, AreaRuleError } from '../domain/areas.ts';
import { checkAreaPlacement } from './areas.ts';
import { areaIdsOf, extraFieldsOrRefusal, type ExtraFieldValues } from './extra-field-values.ts';
import { DEFAULT_USER_JSON, featureSettings } from '../domain/defaults.ts';
import { badInput, conflict, forbidden, notFound } from '../domain/errors.ts';
import { checkPersonName, emailInput } from '../domain/inputs.ts';
import { queueEmail } from '../mail/outbox.ts';
import { companyProviderOnly, passwordAllowed, passwordRefused } from './login-strategy.ts';
import { countAttempt, counted, passwordWorkFor, type ThrottledClient } from './password-client.ts';
import { quoted, unlinked } from '../mail/user-text.ts';
import type { RequestScope } from './scope.ts';
import { refuseWhenFull, takeSeat } from './seats.ts';

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
  /** Values of the company's extra fields: every required one that applies to the chosen areas. */
  extraFields?: ExtraFieldValues | null;
}

/**
 * The account and a token; where the company waits for the e-mail to be verified, neither (the account is shown
 * once verified, and a taken e-mail gets the same response).
 */
export interface Registered {
  user: UserRow | null;
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
  // Its people come in through its identity provider, which creates their accounts: none has a password.
  if (companyProviderOnly(company)) throw passwordRefused(scope.config.sso.publicUrl, company);
  return company;
}

/**
 * Public: creates a player account in the company the tenant headers name. Every sign-up counts against the
 * register throttle (`client`: per address and e-mail, ten times that per address). The switch, the seats and the
 * e-mail are checked before the password is hashed. Where the company requires a verified e-mail, a taken e-mail
 * gets exactly the response a new one gets, after the same work: the address's owner is mailed that someone tried.
 */
export async function register(
  scope: RequestScope,
  client: ThrottledClient,
  input: RegisterInput,
  headers: TenantHeaders,
): Promise<Registered> {
  const email = emailInput(input.email);
  return counted(client, email, 'sign-ups from this address', 'counted', () =>
    signUp(scope, client, input, email, headers),
  );
}

async function signUp(
  scope: RequestScope,
  client: ThrottledClient,
  input: RegisterInput,
  email: string,
  headers: TenantHeaders,
): Promise<Registered> {
  const company = await signUpCompany(scope, headers);
  const name = input.name.trim();
  checkPersonName(name);
  if (!name || name.length > MAX_NAME_LENGTH)
    throw badInput(`name must have 1 to ${MAX_NAME_LENGTH} characters`, 'name');
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
  const extraFields = await extraFieldsOrRefusal(scope, company.id, input.extraFields ?? [], areaIdsOf(placement));
  // Before the costly hash: a full company, and (where the response may tell) a taken address, are refused at once.
  // The write checks both again, in its transaction.
  await refuseWhenFull(scope, company);
  const verify = company.requiresEmailVerification;
  const taken = () => conflict(`${email} already has an account in ${company.name}: log in, or reset the password`);
  if (!verify && (await scope.db.user.findFirst({ where: { companyId: company.id, email }, select: { id: true } }))) {
    throw taken();
  }
  const passwordHash = await passwordWorkFor(company.id, client.ip).hash(input.password);

  const created = await scope
    .write(async (tx) => {
      await takeSeat(scope, tx, company.id);
      if (await tx.user.findFirst({ where: { companyId: company.id, email }, select: { id: true } })) {
        if (!verify) throw taken();
        // Responded to as a new account would be; the one person who can read this e-mail learns of the attempt.
        await queueTakenNotice(tx, scope, email, company);
        return null;
      }
      const user = await tx.user.create({
        data: {
          ...DEFAULT_USER_JSON,
          ...placement,
          extraFields,
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
    .catch(async (err) => {
      // Two sign-ups with one e-mail at once: the unique index let one in.
      if (!isUniqueViolation(err)) throw err;
      if (!verify) throw conflict(`${email} already has an account in ${company.name}`);
      await scope.write((tx) => queueTakenNotice(tx, scope, email, company));
      return null;
    });
  if (verify) {
    scope.mail.wake();
    return { user: null, token: null, emailVerificationRequired: true };
  }
  return { user: created, token: await accessToken(scope, created!), emailVerificationRequired: false };
}

/** Tells the owner of an address that someone tried to sign up with it where it already has an account. */
async function queueTakenNotice(tx: Tx, scope: RequestScope, email: string, company: CompanyRow) {
  await queueEmail(tx, {
    to: email,
    kind: 'signUpAttempt',
    subject: `Someone tried to sign up to ${unlinked(company.name)} with your e-mail`,
    text:
      `Hello,\n\nSomeone (perhaps you) tried to create an account in ${quoted(company.name)} with this e-mail, which ` +
      `already has one. No new account was made and nothing of yours changed.\n\n` +
      `If it was you, log in instead, or ask for a new password at ${scope.config.mail.appUrl} if you forgot ` +
      `it.\n\n` +
      `If it was not you, ignore this e-mail.\n`,
  });
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

/**
 * Public: confirms the address a verification link was sent to, and logs the user in. A link that opens nothing
 * counts against the token throttle (`client`, per address); one that works is given back.
 */
export async function verifyEmail(
  scope: RequestScope,
  client: ThrottledClient,
  token: string,
): Promise<{ token: string; user: UserRow }> {
  return counted(client, 'emailVerification', 'invalid links from this address', 'given back', () =>
    verifyWithToken(scope, token),
  );
}

async function verifyWithToken(scope: RequestScope, token: string): Promise<{ token: string; user: UserRow }> {
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
  // The address is verified; a session, under loginStrategy 1, comes from the company's provider only.
  const company = await scope.loaders.company.load(user.companyId);
  if (company && !passwordAllowed(company, user.role)) throw passwordRefused(scope.config.sso.publicUrl, company);
  return { token: await accessToken(scope, user), user };
}

/**
 * Public: mails a new verification link to an unverified account of the named company. Returns true whether or
 * not there is one; throttled like a password reset.
 */
export async function requestEmailVerification(
  scope: RequestScope,
  email: string,
  headers: TenantHeaders,
  client: ThrottledClient,
): Promise<true> {
  const address = emailInput(email);
  await countAttempt(client, address, 'requests');
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
    { userId: user.id, companyId: user.companyId, role: user.role, tokenVersion: user.tokenVersion },
    scope.config.jwtSecret,
    scope.config.jwtTtlSeconds,
  );
