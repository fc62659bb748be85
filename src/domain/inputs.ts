// What the operations take from people, checked the same way everywhere: e-mail addresses, http(s) links, texts.
// A bad value is BAD_USER_INPUT naming its field.
import { badInput } from './errors.ts';

// Deliberately simple: one @, no spaces, a dot in the domain. Deliverability is proven by the e-mail sent to it.
export const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** RFC 5321's limit on a forward path; longer is not an e-mail address. */
export const MAX_EMAIL_LENGTH = 254;
const MAX_URL_LENGTH = 2048;

export const isEmailAddress = (s: string) => s.length <= MAX_EMAIL_LENGTH && EMAIL_ADDRESS.test(s);

export const isHttpUrl = (s: string) => {
  try {
    return s.length <= MAX_URL_LENGTH && ['http:', 'https:'].includes(new URL(s).protocol);
  } catch {
    return false;
  }
};

/** An e-mail address, trimmed and lower-cased. */
export function emailInput(value: string, field = 'email'): string {
  const email = value.trim().toLowerCase();
  if (!isEmailAddress(email)) throw badInput(`${field} is not a valid e-mail address`, field);
  return email;
}

/** An http(s) link; null or empty clears it. */
export function httpUrlInput(value: string | null | undefined, field: string): string | null {
  if (value == null || value === '') return null;
  if (!isHttpUrl(value)) throw badInput(`${field} must be an http(s) URL`, field);
  return value;
}

/** A trimmed text of at most `max` characters; empty is refused. */
export function textInput(value: string | null | undefined, field: string, max: number): string {
  const t = value?.trim() ?? '';
  if (!t) throw badInput(`${field} must not be empty`, field);
  if (t.length > max) throw badInput(`${field} must be at most ${max} characters`, field);
  return t;
}

/**
 * Control characters (line breaks, tabs, NUL, C1), the Unicode line and paragraph separators and the bidirectional
 * overrides. A person's name needs none of them, and a name is quoted in e-mails to colleagues: a line break in
 * one would write lines of its own there, an override would reorder what the reader sees.
 */
const CONTROL = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** Refuses a person's name holding a control character or a line break (BAD_USER_INPUT naming the field). */
export function checkPersonName(name: string, field = 'name'): void {
  if (CONTROL.test(name)) throw badInput(`${field} must not contain control characters or line breaks`, field);
}
