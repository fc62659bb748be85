// Companies as operators run them. The work is src/app/company-admin.ts's; these map arguments to it.
import { Arg, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import * as companies from '../../app/company-admin.ts';
import type { Context } from '../context.ts';
import { Company } from '../types/company.ts';
import { CreateCompanyInput, UpdateCompanyInput } from '../types/company-inputs.ts';

/** GraphQL gives left-out input fields as undefined and its own classes: plain objects reach the rules. */
const plain = (input: object) => ({ ...input }) as Record<string, unknown>;

@Resolver()
export class CompanyAdminResolver {
  @Mutation(() => Company, {
    description:
      'Creates a company. Managers: any company, resellers included (isReseller), managed by the reseller they name. ' +
      'Resellers: a company their own company manages. Its first admin arrives through createInvitation under it.',
  })
  createCompany(
    @Arg('input', () => CreateCompanyInput, { description: 'The new company.' }) input: CreateCompanyInput,
    @Ctx() ctx: Context,
  ) {
    return companies.createCompany(ctx.scope, plain(input) as unknown as companies.CreateCompanyArgs);
  }

  @Mutation(() => Company, {
    description:
      "Changes a company's settings: its admins change its look and game options, its reseller and managers also its " +
      "plan, limits, domains and identity, managers whether it resells and who manages it (each field's description " +
      'says). A company the caller does not administer is NOT_FOUND; a setting they may not change, FORBIDDEN.',
  })
  updateCompany(
    @Arg('companyId', () => Int, { description: 'A company the caller administers (another: NOT_FOUND).' })
    companyId: number,
    @Arg('input', () => UpdateCompanyInput, { description: 'What to change; fields left out keep their value.' })
    input: UpdateCompanyInput,
    @Ctx() ctx: Context,
  ) {
    return companies.updateCompany(ctx.scope, companyId, plain(input));
  }

  @Mutation(() => Boolean, {
    description:
      "Managers only. Closes a company (soft delete): its users' tokens and its links stop working, its rows stay, " +
      "its code, path and domain stay reserved. Refused for the caller's own company and for a reseller still " +
      'managing companies (CONFLICT).',
  })
  deleteCompany(
    @Arg('companyId', () => Int, { description: 'The company to close.' }) companyId: number,
    @Ctx() ctx: Context,
  ) {
    return companies.deleteCompany(ctx.scope, companyId);
  }
}
