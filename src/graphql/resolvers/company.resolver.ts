// Companies. The work is src/app/companies.ts's; these map arguments to it.
import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import * as companies from '../../app/companies.ts';
import type { Context } from '../context.ts';
import { Company, CompanyCompact } from '../types/company.ts';
@Resolver()
export class CompanyResolver {
  @Query(() => Company, {
    description:
      "The company this request acts on (the caller's own, or the one named by x-app-path / x-app-host / " +
      'x-app-company).',
  })
  company(@Ctx() ctx: Context) {
    return ctx.scope.requireTenant().tenant;
  }

  @Query(() => [CompanyCompact], {
    description:
      'Companies the caller may see, by name, code or appPath (case-insensitive; the search term is literal: % and _ ' +
      'are no wildcards): managers see all, resellers the companies they manage and their own, everyone else their ' +
      'own. Ordered by name.',
  })
  companiesSearch(
    @Ctx() ctx: Context,
    @Arg('skip', () => Int, { description: 'Items to pass over, >= 0 (default 0).', nullable: true }) skip?: number,
    @Arg('take', () => Int, { description: 'Items to return, 1 to 100 (default 20).', nullable: true }) take?: number,
    @Arg('search', () => String, {
      description: 'Part of the name, code or appPath, case-insensitive, literal; at most 100 characters.',
      nullable: true,
    })
    search?: string,
  ) {
    return companies.companiesSearch(ctx.scope, { search, skip, take });
  }
}
