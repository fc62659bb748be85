// Company codes are unique without regard to case (migration 20261123200000_company_code_case_insensitive, a
// unique index on lower("code")), and looked up the same way: lower() on both sides, the index's expression.
// Plain SQL because no Prisma filter compares lower-cased values on both providers; the row is the object
// Prisma's findFirst builds (as in src/app/companies.ts).
import type { Db, Tx } from './client.ts';
import type { CompanyRow } from './rows.ts';
import { Prisma } from './sql.ts';
import { aliased, Model, modelQuery, modelRowsOf, query, rowsOf } from './typed-sql.ts';

const c = aliased(Model.Company, 'c');

/** The company whose code is `code` without regard to case: deleted ones too unless `activeOnly`. */
const byCode = modelQuery(Model.Company, (code: string, activeOnly: boolean, exceptId?: number) => {
  const conditions = [Prisma.sql`lower(${c.c('code')}) = lower(${code})`];
  if (activeOnly) conditions.push(Prisma.sql`${c.c('deletedAt')} IS NULL`);
  if (exceptId !== undefined) conditions.push(Prisma.sql`${c.c('id')} <> ${exceptId}`);
  return Prisma.sql`SELECT c.* FROM ${c} WHERE ${Prisma.join(conditions, ' AND ')} LIMIT 1`;
});

/** The companies whose code another one's equals without regard to case, by folded code. */
const sharingFoldedCode = query({ id: 'number', code: 'string', folded: 'string' }, () => {
  const other = aliased(Model.Company, 'o');
  return Prisma.sql`
    SELECT ${c.c('id')} AS "id", ${c.c('code')} AS "code", lower(${c.c('code')}) AS "folded" FROM ${c}
    WHERE lower(${c.c('code')}) IN (SELECT lower(${other.c('code')}) FROM ${other} GROUP BY lower(${other.c('code')})
      HAVING COUNT(*) > 1)
    ORDER BY lower(${c.c('code')}), ${c.c('id')}`;
});

/** The company whose code is `code` without regard to case: deleted ones too unless `activeOnly`. */
export async function companyByCode(
  prisma: Db | Tx,
  code: string,
  { activeOnly = false, exceptId }: { activeOnly?: boolean; exceptId?: number } = {},
): Promise<CompanyRow | null> {
  const rows = await modelRowsOf(prisma, byCode, code, activeOnly, exceptId);
  return rows[0] ?? null;
}

/** Codes that differ only in case, grouped ("ACME (id 3) = acme (id 7)"): what the migration cannot index. */
export async function codesDifferingInCase(prisma: Db): Promise<string[]> {
  const rows = await rowsOf(prisma, sharingFoldedCode);
  const groups = new Map<string, string[]>();
  for (const r of rows) groups.set(r.folded, [...(groups.get(r.folded) ?? []), `${r.code} (id ${r.id})`]);
  return [...groups.values()].map((g) => g.join(' = '));
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const companyCodeSql = { byCode, sharingFoldedCode };
