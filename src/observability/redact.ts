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
