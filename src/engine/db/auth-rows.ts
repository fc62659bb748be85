// The token's user and the company the headers name, read with hand-written SQL rather than findFirst; the rows are
// the objects findFirst builds. Why: docs/decisions/0005-loader-rows-past-prisma.md.
import type { CompanyRow, UserRow } from '../../db/rows.ts';
import { Prisma } from '../../db/sql.ts';
import type { RowReader } from './row-reader.ts';

/** The user, unless deleted or of a deleted company. */
export async function activeUser(read: RowReader, id: number): Promise<UserRow | null> {
  const rows = await read<UserRow>(Prisma.sql`
    SELECT "User".* FROM "User" JOIN "Company" ON "Company"."id" = "User"."companyId"
    WHERE "User"."id" = ${id} AND "User"."deletedAt" IS NULL AND "Company"."deletedAt" IS NULL`);
  return rows[0] ?? null;
}

/** A company by id, deleted or not. */
export async function companyById(read: RowReader, id: number): Promise<CompanyRow | null> {
  const rows = await read<CompanyRow>(Prisma.sql`SELECT * FROM "Company" WHERE "id" = ${id}`);
  return rows[0] ?? null;
}

/** The company not deleted whose id, custom domain or path is `value` (compared as given). */
export async function activeCompanyBy(
  read: RowReader,
  column: 'id' | 'appCustomDomain' | 'appPath',
  value: number | string,
): Promise<CompanyRow | null> {
  const rows = await read<CompanyRow>(Prisma.sql`
    SELECT * FROM "Company" WHERE ${Prisma.raw(`"${column}"`)} = ${value} AND "deletedAt" IS NULL
    ORDER BY "id" LIMIT 1`);
  return rows[0] ?? null;
}
