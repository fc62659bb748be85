// Text people wrote (their names, company, league and team names) as our e-mails quote it. Such text is never
// allowed to look like ours: it stays on one line, inside quotes, and never becomes a link.

const CONTROL = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]+/gu;
const MAX_QUOTED = 120;

/**
 * `text` on one line, at most 120 characters, and unlinkable. Mail clients turn what looks like an address
 * (https://x, www.x.com, x.com, a@b.co) into a link, and a link in our e-mail is one the reader trusts: so a dot
 * followed by a letter becomes a one-dot leader (U+2024), the colon of "://" a modifier colon (U+A789) and "@" a
 * full-width one (U+FF20). They read the same, and no client links them; the only links in an e-mail are ours.
 * For subjects, where quotes would only be encoded; a body quotes it (quoted).
 */
export function unlinked(text: string | null | undefined): string {
  let t = String(text ?? '')
    .replace(CONTROL, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (t.length > MAX_QUOTED) t = `${t.slice(0, MAX_QUOTED - 1)}…`;
  return t
    .replace(/\.(?=[^\s.])/g, '\u2024')
    .replace(/:(?=\/)/g, '\uA789')
    .replace(/@/g, '\uFF20');
}

/** `text` as an e-mail's body quotes it: unlinked, in quotes it cannot close (its own become apostrophes). */
export const quoted = (text: string | null | undefined): string => `"${unlinked(text).replace(/"/g, "'")}"`;
