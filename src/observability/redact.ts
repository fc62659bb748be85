/** Paths that embed a credential lose it before they reach a log line or an error message. */
export function redactUrl(url: string): string {
  return url.replace(/^\/invitations\/jwt\/[^/?]+/, '/invitations/jwt/[redacted]');
}
