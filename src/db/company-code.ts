// Company codes are unique without regard to case (migration 20261123200000_company_code_case_insensitive, a
// unique index on lower("code")), and looked up the same way: lower() on both sides, the index's expression.
// Plain SQL because no Prisma filter compares lower-cased values on both providers; the row is the object
// Prisma's findFirst builds (as in src/app/companies.ts).
import type { Db, Tx } from './client.ts';
import type { CompanyRow } from './rows.ts';
import { Prisma } from './sql.ts';

/** The company whose code is `code` without regard to case: deleted ones too unless `activeOnly`. */
export async function companyByCode(
  prisma: Db | Tx,
  code: string,
  { activeOnly = false, exceptId }: { activeOnly?: boolean; exceptId?: number } = {},
): Promise<CompanyRow | null> {
  const conditions = [Prisma.sql`lower("code") = lower(${code})`];
  if (activeOnly) conditions.push(Prisma.sql`"deletedAt" IS NULL`);
  if (exceptId !== undefined) conditions.push(Prisma.sql`"id" <> ${exceptId}`);
  const rows = await prisma.$queryRaw<CompanyRow[]>`
    SELECT * FROM "Company" WHERE ${Prisma.join(conditions, ' AND ')} LIMIT 1`;
  return rows[0] ?? null;
}

/** Codes that differ only in case, grouped ("ACME (id 3) = acme (id 7)"): what the migration cannot index. */
export async function codesDifferingInCase(prisma: Db): Promise<string[]> {
  const rows = await prisma.$queryRaw<Array<{ id: number; code: string; folded: string }>>`
    SELECT "id", "code", lower("code") AS "folded" FROM "Company"
    WHERE lower("code") IN (SELECT lower("code") FROM "Company" GROUP BY lower("code") HAVING COUNT(*) > 1)
    ORDER BY lower("code"), "id"`;
  const groups = new Map<string, string[]>();
  for (const r of rows) groups.set(r.folded, [...(groups.get(r.folded) ?? []), `${r.code} (id ${r.id})`]);
  return [...groups.values()].map((g) => g.join(' = '));
}
