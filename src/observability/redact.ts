/**
 * Paths that embed a credential lose it before they reach a log line or an error message. Matched on the decoded
 * path, as the router matches it (`/invitations/%6Awt/<token>` reaches the same route).
 */
export function redactUrl(url: string): string {
  let decoded = url;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    // not decodable: the router refuses it too; match the raw text
  }
  return /^\/+invitations\/+jwt\//.test(decoded) ? '/invitations/jwt/[redacted]' : url;
}

// An e-mail address, as it may appear anywhere in a text (a field, a message, an error an SMTP server wrote).
const EMAIL = /[\w.%+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/gi;

/** The text with every e-mail address in it replaced by "[e-mail]". */
export function withoutEmailAddresses(text: string): string {
  return text.includes('@') ? text.replace(EMAIL, '[e-mail]') : text;
}
