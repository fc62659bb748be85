// A company's loginStrategy: 0, its people sign in with a password or a provider; 1, with the company's own
// identity provider only. Under 1 every password operation (login, reset, change, sign-up, accepting an invitation
// with a password) refuses its people, managers of the platform excepted: they can always sign in to switch a
// broken provider off. docs/security.md has the rule and why resellers are not excepted.
import type { Tx } from '../db/client.ts';
import type { CompanyRow } from '../db/rows.ts';
import { forbidden } from '../domain/errors.ts';

/** Passwords and the providers. */
export const LOGIN_PASSWORD_AND_PROVIDERS = 0;
/** The company's own identity provider only. */
export const LOGIN_COMPANY_PROVIDER_ONLY = 1;

type StrategyOf = Pick<CompanyRow, 'loginStrategy'>;

/** True when the company's people do not use passwords. */
export const companyProviderOnly = (company: StrategyOf) => company.loginStrategy === LOGIN_COMPANY_PROVIDER_ONLY;

/** True when a person of this role in this company may still sign in or be given access with a password. */
export const passwordAllowed = (company: StrategyOf, role: string) =>
  !companyProviderOnly(company) || role === 'manager';

/**
 * Where the company's people sign in instead: the gateway's single sign-on start route, at the gateway's own base
 * URL (PUBLIC_URL; APP_URL may be the app's, which does not serve the route).
 */
export const companySignInLink = (publicUrl: string, company: Pick<CompanyRow, 'code'>) =>
  `${publicUrl}/auth/sso/start?company=${encodeURIComponent(company.code)}&provider=company`;

/** The FORBIDDEN a password operation answers for the people of a company that signs in with its provider only. */
export const passwordRefused = (publicUrl: string, company: Pick<CompanyRow, 'code' | 'name'>) =>
  forbidden(
    `${company.name} signs in with its own identity provider only, not with a password: sign in at ` +
      companySignInLink(publicUrl, company),
  );

/**
 * When a company switches to its provider only: the reset links its people hold stop working, so that one sent
 * before the switch does not come back if the company switches back to passwords within its hour.
 */
export async function voidPasswordLinks(tx: Tx, companyId: number, now: Date): Promise<void> {
  await tx.accountToken.updateMany({
    where: { purpose: 'passwordReset', usedAt: null, user: { companyId, role: { not: 'manager' } } },
    data: { usedAt: now },
  });
}
