// Which tables a SQL statement names, so what a response read is found rather than declared (too many is safe, too
// few is not). Why: docs/decisions/0006-response-cache-under-table-versions.md.
import { Model } from '../../db/typed-sql.ts';

export const TABLES: readonly Model[] = Object.values(Model);

// Case-sensitive whole words: "companyId" or "Companies" are not the Company table.
const NAMES = new RegExp(
  `(?<![A-Za-z0-9_])(${[...TABLES].sort((a, b) => b.length - a.length).join('|')})(?![A-Za-z0-9_])`,
  'g',
);

const seen = new Map<string, readonly string[]>();
const MAX_SEEN = 4_000;

/** The tables a statement names (cached per text: Prisma sends the same few hundred texts again and again). */
export function tablesNamed(sql: string): readonly string[] {
  let found = seen.get(sql);
  if (found) return found;
  found = [...new Set(Array.from(sql.matchAll(NAMES), (m) => m[1]))];
  if (seen.size >= MAX_SEEN) seen.clear();
  seen.set(sql, found);
  return found;
}
