// The rules of single sign-on that take values and return values: a company's provider settings as given, the
// paths a sign-in may return to, and whom a provider may bring into a company.
import { badInput } from './errors.ts';

export const SSO_PROVIDERS = ['google', 'company'] as const;
export type SsoProvider = (typeof SSO_PROVIDERS)[number];

export const MAX_ISSUER_LENGTH = 500;
export const MAX_CLIENT_ID_LENGTH = 500;
export const MAX_CLIENT_SECRET_LENGTH = 2000;
export const MAX_EMAIL_DOMAINS = 50;
export const MAX_REDIRECT_LENGTH = 1000;
const MAX_DOMAIN_LENGTH = 253;

/** loginStrategy 1: the company's own provider only. */
export const COMPANY_PROVIDER_ONLY = 1;

export interface SsoSettingsInput {
  issuer: string;
  clientId: string;
  clientSecret: string;
  emailDomains: string[];
}

/** True when `text` holds a control character (C0 or DEL). */
export const hasControlCharacter = (text: string) =>
  [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

function text(value: string, field: string, max: number): string {
  const trimmed = value.trim();
  if (!trimmed) throw badInput(`${field} must not be empty`, field);
  if (trimmed.length > max) throw badInput(`${field} must be at most ${max} characters`, field);
  if (hasControlCharacter(trimmed)) throw badInput(`${field} must not contain control characters`, field);
  return trimmed;
}

/** A lowercase host name of two labels or more: letters, digits and hyphens, no leading or trailing hyphen. */
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The settings trimmed and checked (the issuer's scheme and host are checked by the caller, which knows NODE_ENV). */
export function checkSsoSettings(input: SsoSettingsInput): SsoSettingsInput {
  const issuer = text(input.issuer, 'issuer', MAX_ISSUER_LENGTH).replace(/\/+$/, '');
  const clientId = text(input.clientId, 'clientId', MAX_CLIENT_ID_LENGTH);
  const clientSecret = text(input.clientSecret, 'clientSecret', MAX_CLIENT_SECRET_LENGTH);
  if (input.emailDomains.length > MAX_EMAIL_DOMAINS) {
    throw badInput(`emailDomains holds at most ${MAX_EMAIL_DOMAINS} domains`, 'emailDomains');
  }
  const emailDomains = input.emailDomains.map((d) => d.trim());
  for (const domain of emailDomains) {
    if (domain.length > MAX_DOMAIN_LENGTH || !HOST_NAME.test(domain)) {
      throw badInput(
        `emailDomains: ${JSON.stringify(domain.slice(0, 100))} is not a lowercase host name like example.com`,
        'emailDomains',
      );
    }
  }
  if (new Set(emailDomains).size !== emailDomains.length) {
    throw badInput('emailDomains names a domain twice', 'emailDomains');
  }
  return { issuer, clientId, clientSecret, emailDomains };
}

/**
 * A path of the app to return to: relative, starting with one "/", with no scheme, host, backslash or control
 * character, so the redirect can only land on the app's own origin.
 */
export function isSafeRedirect(path: string): boolean {
  if (path.length === 0 || path.length > MAX_REDIRECT_LENGTH) return false;
  if (!path.startsWith('/') || path.startsWith('//')) return false;
  return !path.includes('\\') && !hasControlCharacter(path);
}

/** The domain of an e-mail address, lowercase; null when it has none. */
export function emailDomainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at > 0 && at < email.length - 1 ? email.slice(at + 1).toLowerCase() : null;
}

/**
 * Whether a person new to the company may join it through a sign-in: where sign-up is open, or (through the
 * company's own provider) where the verified e-mail's domain is one the company listed.
 */
export function mayJoin(
  company: { disableRegister: boolean },
  provider: SsoProvider,
  email: string,
  emailDomains: readonly string[],
): boolean {
  if (!company.disableRegister) return true;
  const domain = emailDomainOf(email);
  return provider === 'company' && domain !== null && emailDomains.includes(domain);
}
