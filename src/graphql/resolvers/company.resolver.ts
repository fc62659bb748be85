import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { Prisma } from '../../db/client.ts';
import { requireTenant, type Context } from '../context.ts';
import { badInput } from '../errors.ts';
import { Company, CompanyCompact } from '../types/company.ts';
import { paging } from './paging.ts';

const MAX_SEARCH_LENGTH = 100;

/** Case-insensitive "contains" on both stores: SQLite's LIKE already folds ASCII case; PostgreSQL needs ILIKE. */
function containsInsensitive(provider: string, value: string) {
  return provider === 'postgresql' ? { contains: value, mode: 'insensitive' } : { contains: value };
}

@Resolver()
export class CompanyResolver {
  @Query(() => Company, { description: 'The company this request acts on (the caller\'s own, or the one named by x-app-path / x-app-host / x-app-company).' })
  company(@Ctx() ctx: Context) {
    return requireTenant(ctx).tenant;
  }

  @Query(() => [CompanyCompact], {
    description: 'Companies the caller may see, by name, code or appPath (case-insensitive): managers see all, resellers the companies they manage and their own, everyone else their own. Ordered by name.',
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
    const visible: Prisma.CompanyWhereInput =
      viewer.role === 'manager' ? {}
      : viewer.role === 'reseller' ? { OR: [{ id: viewer.companyId }, { resellerCompanyId: viewer.companyId }] }
      : { id: viewer.companyId };
    const like = containsInsensitive(ctx.config.database.provider, term) as Prisma.StringFilter;
    const matches: Prisma.CompanyWhereInput = term ? { OR: [{ name: like }, { code: like }, { appPath: like }] } : {};
    const rows = await ctx.prisma.company.findMany({
      where: { AND: [{ deletedAt: null }, visible, matches] },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      skip: page.skip,
      take: page.take,
    });
    for (const row of rows) ctx.loaders.company.prime(row.id, row);
    return rows;
  }
}
