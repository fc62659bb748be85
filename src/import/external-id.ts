// A tournament's identity in an import. It comes from the file's content, never from the file's name: two files
// both called worldcup.json but naming different tournaments are two tournaments, and the fixtures file and a
// later results file naming the same tournament are one. Pure: no I/O.

/** What an externalId may hold: the same rule for the CLI's --external-id and the API's externalId. */
const EXTERNAL_ID = /^[\w.:-]{3,100}$/;
export const EXTERNAL_ID_RULE = '3 to 100 letters, digits, _ . : or -, e.g. openfootball:world-cup-2026';

export function isValidExternalId(id: string): boolean {
  return EXTERNAL_ID.test(id);
}

/**
 * "openfootball:" and the slug of the tournament's name: "World Cup 2026" is openfootball:world-cup-2026. Accents
 * are dropped and anything but letters and digits becomes one "-", so names differing only in case, accents or
 * punctuation are the same tournament. Null when the name has no Latin letter or digit to build a slug from.
 */
export function defaultExternalId(tournamentName: string): string | null {
  const slug = tournamentName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // the accents NFKD split off their letters
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 80) // keeps the id, with its round and match suffixes, well inside the column and the id rule
    .replace(/^-+|-+$/g, '');
  return slug ? `openfootball:${slug}` : null;
}
