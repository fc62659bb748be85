// Companies the caller may see: managers all, resellers the ones they manage and their own, everyone else their own.
import type { CompanyRow } from '../db/rows.ts';
import { containsLiterally, Prisma } from '../db/sql.ts';
import { badInput } from '../domain/errors.ts';
import { paging } from '../domain/paging.ts';
import type { RequestScope } from './scope.ts';

export const MAX_SEARCH_LENGTH = 100;

/** By name, code or appPath, case-insensitive and literal; ordered by name. */
export async function companiesSearch(
  scope: RequestScope,
  args: { search?: string | null; skip?: number | null; take?: number | null },
): Promise<CompanyRow[]> {
  const { search, skip, take } = args;
  const page = paging(skip, take);
  const { viewer } = scope.requireTenant();
  const term = search?.trim() ?? '';
  if (term.length > MAX_SEARCH_LENGTH)
    throw badInput(`search must be at most ${MAX_SEARCH_LENGTH} characters`, 'search');
  // Plain SQL, as the loaders read companies (the rows are the objects Prisma's findMany builds), because the
  // search needs LIKE with an ESCAPE clause, which no Prisma filter gives.
  const conditions: Prisma.Sql[] = [Prisma.sql`"deletedAt" IS NULL`];
  if (viewer.role === 'reseller')
    conditions.push(Prisma.sql`("id" = ${viewer.companyId} OR "resellerCompanyId" = ${viewer.companyId})`);
  else if (viewer.role !== 'manager') conditions.push(Prisma.sql`"id" = ${viewer.companyId}`);
  if (term) conditions.push(containsLiterally(scope.config.database.provider, ['name', 'code', 'appPath'], term));
  const rows = await scope.db.$queryRaw<CompanyRow[]>`
    SELECT * FROM "Company" WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY "name" ASC, "id" ASC LIMIT ${page.take} OFFSET ${page.skip}`;
  for (const row of rows) scope.loaders.company.prime(row.id, row);
  return rows;
}
