import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { Prisma } from '../../db/sql.ts';
import { requireTenant, type Context } from '../context.ts';
import { badInput } from '../../domain/errors.ts';
import type { CompanyRow } from '../../loaders/registry.ts';
import { Company, CompanyCompact } from '../types/company.ts';
import { paging } from '../../domain/paging.ts';

const MAX_SEARCH_LENGTH = 100;

/**
 * `column LIKE '%term%'`, case-insensitive, with the term's characters taken literally: `%` and `_` are
 * wildcards to LIKE, and Prisma's `contains` passes them through on both stores (so a search for "%" matched
 * every company). They are escaped with `!` and an explicit ESCAPE clause: SQLite has no default escape
 * character and PostgreSQL's default (backslash) would make a backslash in the term special. SQLite's LIKE
 * folds ASCII case; PostgreSQL needs ILIKE.
 */
function containsLiterally(provider: string, columns: string[], term: string): Prisma.Sql {
  const pattern = `%${term.replace(/[!%_]/g, (c) => `!${c}`)}%`;
  const op = Prisma.raw(provider === 'postgresql' ? 'ILIKE' : 'LIKE');
  return Prisma.sql`(${Prisma.join(columns.map((c) => Prisma.sql`${Prisma.raw(`"${c}"`)} ${op} ${pattern} ESCAPE '!'`), ' OR ')})`;
}

@Resolver()
export class CompanyResolver {
  @Query(() => Company, { description: 'The company this request acts on (the caller\'s own, or the one named by x-app-path / x-app-host / x-app-company).' })
  company(@Ctx() ctx: Context) {
    return requireTenant(ctx).tenant;
  }

  @Query(() => [CompanyCompact], {
    description: 'Companies the caller may see, by name, code or appPath (case-insensitive; the search term is literal: % and _ are no wildcards): managers see all, resellers the companies they manage and their own, everyone else their own. Ordered by name.',
  })
  async companiesSearch(
    @Ctx() ctx: Context,
    @Arg('skip', () => Int, { nullable: true }) skip?: number,
    @Arg('take', () => Int, { nullable: true }) take?: number,
    @Arg('search', () => String, { nullable: true }) search?: string,
  ) {
    const page = paging(skip, take);
    const { viewer } = requireTenant(ctx);
    const term = search?.trim() ?? '';
    if (term.length > MAX_SEARCH_LENGTH) throw badInput(`search must be at most ${MAX_SEARCH_LENGTH} characters`, 'search');
    // Plain SQL, as the loaders read companies (the rows are the objects Prisma's findMany builds), because the
    // search needs LIKE with an ESCAPE clause, which no Prisma filter gives.
    const conditions: Prisma.Sql[] = [Prisma.sql`"deletedAt" IS NULL`];
    if (viewer.role === 'reseller') conditions.push(Prisma.sql`("id" = ${viewer.companyId} OR "resellerCompanyId" = ${viewer.companyId})`);
    else if (viewer.role !== 'manager') conditions.push(Prisma.sql`"id" = ${viewer.companyId}`);
    if (term) conditions.push(containsLiterally(ctx.config.database.provider, ['name', 'code', 'appPath'], term));
    const rows = await ctx.prisma.$queryRaw<CompanyRow[]>`
      SELECT * FROM "Company" WHERE ${Prisma.join(conditions, ' AND ')}
      ORDER BY "name" ASC, "id" ASC LIMIT ${page.take} OFFSET ${page.skip}`;
    for (const row of rows) ctx.loaders.company.prime(row.id, row);
    return rows;
  }
}
