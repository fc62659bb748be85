// What a company's login page offers, for a caller not signed in yet: whether the password form applies and which
// single sign-on providers it has, each with the address that starts a sign-in (GET /auth/sso/start). It tells no
// more than the login page itself would: never a company's issuer, client id or secret, only that it has one.
import { badInput, notFound } from '../domain/errors.ts';
import { COMPANY_PROVIDER_ONLY, isSafeRedirect, type SsoProvider } from '../domain/sso.ts';
import type { RequestScope } from './scope.ts';
import { companyNamed } from './sso.ts';

export const START_PATH = '/auth/sso/start';

export interface SignInProviderView {
  provider: SsoProvider;
  /** Google's issuer; null for the company's own provider, which stays the company's business. */
  issuer: string | null;
  startUrl: string;
}

export interface SignInMethodsView {
  loginStrategy: number;
  password: boolean;
  providers: SignInProviderView[];
}

/**
 * The sign-in methods of the company named by app path or code (open companies only; else NOT_FOUND). `redirect`,
 * a path of the app, is written into each start address; without it the sign-in returns to "/".
 */
export async function signInMethods(
  scope: RequestScope,
  company: string,
  redirect: string | null | undefined,
): Promise<SignInMethodsView> {
  const back = redirect ?? '/';
  if (!isSafeRedirect(back)) throw badInput('redirect must be a path of the app starting with one "/"', 'redirect');
  const found = await companyNamed(scope.db, company);
  if (!found) throw notFound('company', company.trim().slice(0, 100));
  const companyOnly = found.loginStrategy === COMPANY_PROVIDER_ONLY;
  const startUrl = (provider: SsoProvider) => {
    const url = new URL(`${scope.config.sso.publicUrl}${START_PATH}`);
    url.search = new URLSearchParams({ company: company.trim(), provider, redirect: back }).toString();
    return url.href;
  };
  const providers: SignInProviderView[] = [];
  const google = scope.config.sso.google;
  if (google && !found.disableGoogleLogin && !companyOnly) {
    providers.push({ provider: 'google', issuer: google.issuer, startUrl: startUrl('google') });
  }
  const own = await scope.db.companySso.findUnique({ where: { companyId: found.id }, select: { companyId: true } });
  if (own) providers.push({ provider: 'company', issuer: null, startUrl: startUrl('company') });
  return { loginStrategy: found.loginStrategy, password: !companyOnly, providers };
}
