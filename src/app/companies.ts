// Companies the caller may see: managers all, resellers the ones they manage and their own, everyone else their own.
import type { CompanyRow } from '../db/rows.ts';
import { containsLiterally, Prisma } from '../db/sql.ts';
import { aliased, Model, modelQuery, modelRowsOf } from '../db/typed-sql.ts';
import { badInput } from '../domain/errors.ts';
import { paging } from '../domain/paging.ts';
import type { RequestScope } from './scope.ts';

export const MAX_SEARCH_LENGTH = 100;

interface CompanyFilter {
  provider: string;
  /** The caller's role and company: what they may see. */
  role: string;
  companyId: number;
  term: string;
}

/**
 * A page of the companies the caller may see, by name. Plain SQL, as the loaders read companies (the rows are the
 * objects Prisma's findMany builds), because the search needs LIKE with an ESCAPE clause, which no Prisma filter
 * gives.
 */
const companiesPage = modelQuery(Model.Company, (f: CompanyFilter, skip: number, take: number) => {
  const c = aliased(Model.Company, 'c');
  const conditions: Prisma.Sql[] = [Prisma.sql`${c.c('deletedAt')} IS NULL`];
  if (f.role === 'reseller')
    conditions.push(Prisma.sql`(${c.c('id')} = ${f.companyId} OR ${c.c('resellerCompanyId')} = ${f.companyId})`);
  else if (f.role !== 'manager') conditions.push(Prisma.sql`${c.c('id')} = ${f.companyId}`);
  if (f.term) conditions.push(containsLiterally(f.provider, [c.c('name'), c.c('code'), c.c('appPath')], f.term));
  return Prisma.sql`
    SELECT c.* FROM ${c} WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY ${c.c('name')} ASC, ${c.c('id')} ASC LIMIT ${take} OFFSET ${skip}`;
});

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
  const filter = { provider: scope.config.database.provider, role: viewer.role, companyId: viewer.companyId, term };
  const rows = await modelRowsOf(scope.db, companiesPage, filter, page.skip, page.take);
  for (const row of rows) scope.loaders.company.prime(row.id, row);
  return rows;
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const companiesSql = { companiesPage };
