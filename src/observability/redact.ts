/**
 * URLs that embed a credential lose it before they reach a log line or an error message: the token of an invitation
 * path (`/invitations/jwt/<token>`, `/invitations/<token>`; not an invitation's id, a number), matched on the
 * decoded path as the router matches it (`/invitations/%6Awt/<token>` reaches the same route), and the `token`
 * query parameter of the account links (`/reset-password?token=...`).
 */
export function redactUrl(url: string): string {
  let decoded = url;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    // not decodable: the router refuses it too; match the raw text
  }
  if (/^\/+invitations\/+jwt\//.test(decoded)) return '/invitations/jwt/[redacted]';
  // An invitation link in the path form (/invitations/<token>, which redirects to the page); an id, a number, stays.
  if (/^\/+invitations\/+(?!\d+(?:[/?#]|$))[^/?#]/.test(decoded)) return '/invitations/[redacted]';
  const query = url.indexOf('?');
  if (query < 0) return url;
  // Each parameter's name as URLSearchParams (the page's script) reads it: `%74oken` is `token` too.
  const params = url
    .slice(query + 1)
    .split('&')
    .map((part) => (/^token$/i.test(parameterName(part)) ? `${part.split('=')[0]}=[redacted]` : part));
  return `${url.slice(0, query)}?${params.join('&')}`;
}

function parameterName(part: string): string {
  const name = part.split('=')[0].replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

// An e-mail address, as it may appear anywhere in a text (a field, a message, an error an SMTP server wrote).
const EMAIL = /[\w.%+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/gi;

/** The text with every e-mail address in it replaced by "[e-mail]". */
export function withoutEmailAddresses(text: string): string {
  return text.includes('@') ? text.replace(EMAIL, '[e-mail]') : text;
}
