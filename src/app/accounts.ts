// Accounts by e-mail: a forgotten password is reset through a single-use link sent to the account's address.
// Asking gets the same response whether or not the e-mail has an account, so the API tells nobody which addresses
// exist; it is throttled per address and e-mail like login. A company that signs in with its own provider only
// (loginStrategy 1, src/app/login-strategy.ts) gets no reset links for its people.
import { findAccountToken, consumeAccountToken, issueAccountToken } from '../auth/account-tokens.ts';
import { passwordPolicyViolation, type PasswordPolicyName } from '../auth/passwords.ts';
import { companyFromHeaders, type TenantHeaders } from '../auth/request-auth.ts';
import { signAccessToken } from '../auth/tokens.ts';
import type { Tx } from '../db/client.ts';
import type { CompanyRow, UserRow } from '../db/rows.ts';
import { badInput, notFound } from '../domain/errors.ts';
import { emailInput } from '../domain/inputs.ts';
import { queueEmail } from '../mail/outbox.ts';
import { companyProviderOnly, companySignInLink, passwordAllowed, passwordRefused } from './login-strategy.ts';
import { countAttempt, counted, passwordWorkFor, type ThrottledClient } from './password-client.ts';
import { quoted, unlinked } from '../mail/user-text.ts';
import type { RequestScope } from './scope.ts';
import { announceRevocation, REVOKE_SESSIONS } from './sessions.ts';

/** How long a reset link opens the account. */
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;
/** Longer than any token we issue (43 characters): anything longer is not one. */
const MAX_TOKEN_LENGTH = 200;

/** The link a reset e-mail carries: the app's page that asks for the new password and calls resetPassword. */
export const passwordResetLink = (appUrl: string, token: string) =>
  `${appUrl}/reset-password?token=${encodeURIComponent(token)}`;

/**
 * Sends a reset link to every open account with this e-mail in the company the headers name (or, without them, in
 * any company: each e-mail names its company). Returns true, except that a company named by x-app-path or
 * x-app-host that signs in with its own provider only is FORBIDDEN for every e-mail: its loginStrategy is public,
 * so the refusal says nothing about accounts. Reached otherwise, such a company's people are mailed where to sign
 * in instead of a link.
 */
export async function requestPasswordReset(
  scope: RequestScope,
  input: { email: string; headers: TenantHeaders; client: ThrottledClient },
): Promise<true> {
  const email = emailInput(input.email);
  // Every request counts, found or not: the limit says nothing about whether the account exists.
  await countAttempt(input.client, email, 'reset requests');
  const company = await companyFromHeaders(scope.db, input.headers);
  if (company === null) return true; // the headers name no open company: no account to reset
  // x-app-company is left out: a company code is not public, and FORBIDDEN would tell that it names a company.
  const named = input.headers.appPath || input.headers.appHost;
  if (company && named && companyProviderOnly(company)) throw passwordRefused(scope.config.sso.publicUrl, company);
  const users = await scope.db.user.findMany({
    where: { email, deletedAt: null, company: { deletedAt: null }, ...(company ? { companyId: company.id } : {}) },
    include: { company: { select: { name: true, code: true, loginStrategy: true } } },
    take: 20,
  });
  if (users.length === 0) return true;
  await scope.write(async (tx) => {
    for (const user of users) await queueResetMail(tx, scope, user);
  });
  scope.mail.wake();
  return true;
}

type ResetRecipient = UserRow & { company: Pick<CompanyRow, 'name' | 'code' | 'loginStrategy'> };

/** The reset link, or, for a company that signs in with its own provider only, where to sign in instead. */
async function queueResetMail(tx: Tx, scope: RequestScope, user: ResetRecipient): Promise<void> {
  const hello = `Hello ${quoted(user.name)},\n\nSomeone (we hope you) asked to reset the password of your account in `;
  if (!passwordAllowed(user.company, user.role)) {
    await queueEmail(tx, {
      to: user.email,
      kind: 'passwordResetProviderOnly',
      subject: `Sign in to ${unlinked(user.company.name)} with your company's account`,
      text:
        `${hello}${quoted(user.company.name)}. It has no password to reset: ${quoted(user.company.name)} signs in ` +
        `with its own identity provider only. Sign in here with your company account:\n\n` +
        `${companySignInLink(scope.config.sso.publicUrl, user.company)}\n\n` +
        `If you did not ask for it, ignore this e-mail: nothing changed.\n`,
    });
    return;
  }
  const token = await issueAccountToken(tx, user.id, 'passwordReset', scope.now, PASSWORD_RESET_TTL_MS);
  await queueEmail(tx, {
    to: user.email,
    kind: 'passwordReset',
    subject: `Reset your password for ${unlinked(user.company.name)}`,
    text:
      `${hello}${quoted(user.company.name)}. Open this link within an hour to choose a new one:\n\n` +
      `${passwordResetLink(scope.config.mail.appUrl, token)}\n\n` +
      `If you did not ask for it, ignore this e-mail: your password stays as it is.\n`,
  });
}

/**
 * Sets a new password with a reset link's token (single use, within its hour) and logs the user in. The address
 * is proven by the link, so the account's e-mail counts as verified. Every token signed before is revoked.
 */
export async function resetPassword(
  scope: RequestScope,
  client: ThrottledClient,
  input: { token: string; password: string },
): Promise<{ token: string; user: UserRow }> {
  // A link that opens nothing counts against the token throttle (per address); one that works is given back.
  return counted(client, 'passwordReset', 'invalid links from this address', 'given back', () =>
    resetWithToken(scope, client, input),
  );
}

async function resetWithToken(
  scope: RequestScope,
  client: ThrottledClient,
  input: { token: string; password: string },
): Promise<{ token: string; user: UserRow }> {
  const invalid = () => notFound('password reset link (it is invalid, expired or already used)');
  const raw = input.token.trim();
  if (!raw || raw.length > MAX_TOKEN_LENGTH) throw invalid();
  const found = await findAccountToken(scope.db, raw, 'passwordReset', scope.now);
  const user =
    found &&
    (await scope.db.user.findFirst({ where: { id: found.userId, deletedAt: null }, include: { company: true } }));
  if (!found || !user || user.company.deletedAt) throw invalid();
  // A link issued just before the company switched to its provider only (the switch voids the others).
  if (!passwordAllowed(user.company, user.role)) throw passwordRefused(scope.config.sso.publicUrl, user.company);
  const problem = passwordPolicyViolation(input.password, user.company.passwordPolicy as PasswordPolicyName);
  if (problem) throw badInput(problem, 'password');
  const passwordHash = await passwordWorkFor(user.companyId, client.ip).hash(input.password);
  const updated = await scope.write(async (tx) => {
    // Claimed here, not when found: of two uses of one link, one sets the password.
    if (!(await consumeAccountToken(tx, found.id, scope.now))) throw invalid();
    return tx.user.update({
      where: { id: user.id },
      data: {
        passwordHash,
        emailVerified: true,
        requiresAccountRecovery: false,
        lastActiveDate: scope.now,
        ...REVOKE_SESSIONS,
      },
    });
  });
  announceRevocation(scope, updated.id);
  // Signed with the new version: this caller stays signed in, every session opened before ends.
  const token = await signAccessToken(
    { userId: updated.id, companyId: updated.companyId, role: updated.role, tokenVersion: updated.tokenVersion },
    scope.config.jwtSecret,
    scope.config.jwtTtlSeconds,
  );
  return { token, user: updated };
}
