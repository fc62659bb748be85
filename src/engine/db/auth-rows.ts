// The token's user and the company the headers name, read through the row reader rather than findFirst; the rows are
// the objects findFirst builds. Why: docs/decisions/0005-loader-rows-past-prisma.md.
import { rowReaderOf, type Db } from '../../db/client.ts';
import type { CompanyRow, UserRow } from '../../db/rows.ts';
import { Prisma } from '../../db/sql.ts';

/** The user, unless deleted or of a deleted company. */
export async function activeUser(prisma: Db, id: number): Promise<UserRow | null> {
  const rows = await rowReaderOf(prisma)<UserRow>(Prisma.sql`
    SELECT "User".* FROM "User" JOIN "Company" ON "Company"."id" = "User"."companyId"
    WHERE "User"."id" = ${id} AND "User"."deletedAt" IS NULL AND "Company"."deletedAt" IS NULL`);
  return rows[0] ?? null;
}

/** A company by id, deleted or not. */
export async function companyById(prisma: Db, id: number): Promise<CompanyRow | null> {
  const rows = await rowReaderOf(prisma)<CompanyRow>(Prisma.sql`SELECT * FROM "Company" WHERE "id" = ${id}`);
  return rows[0] ?? null;
}

/** The company not deleted whose id, custom domain or path is `value` (compared as given). */
export async function activeCompanyBy(
  prisma: Db,
  column: 'id' | 'appCustomDomain' | 'appPath',
  value: number | string,
): Promise<CompanyRow | null> {
  const rows = await rowReaderOf(prisma)<CompanyRow>(Prisma.sql`
    SELECT * FROM "Company" WHERE ${Prisma.raw(`"${column}"`)} = ${value} AND "deletedAt" IS NULL
    ORDER BY "id" LIMIT 1`);
  return rows[0] ?? null;
}
