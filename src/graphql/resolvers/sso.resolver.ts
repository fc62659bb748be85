// Single sign-on's GraphQL operations. The work is src/app/sso.ts's; these map arguments to it.
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { signInMethods } from '../../app/sign-in-methods.ts';
import * as sso from '../../app/sso.ts';
import type { Context } from '../context.ts';
import { Company } from '../types/company.ts';
import { CompanySsoInput, SignInMethods } from '../types/sso.ts';
import { LoginPayload } from './auth.resolver.ts';

@Resolver()
export class SsoResolver {
  @Query(() => SignInMethods, {
    description:
      'Public: how people sign in to a company (by app path or code; NOT_FOUND for none open), for drawing its ' +
      'login page before anyone is signed in. Shows no more than that page would: never a company issuer or secret.',
  })
  signInMethods(
    @Arg('company', () => String, { description: "The company's appPath or code (as GET /auth/sso/start takes)." })
    company: string,
    @Arg('redirect', () => String, {
      nullable: true,
      description:
        'The path of the app a sign-in returns to, written into each startUrl (default "/"); one leading "/", no ' +
        'host (else BAD_USER_INPUT).',
    })
    redirect: string | null | undefined,
    @Ctx() ctx: Context,
  ) {
    return signInMethods(ctx.scope, company, redirect);
  }

  @Mutation(() => Company, {
    description:
      "Sets the company's own OpenID Connect provider (its admins, its reseller and managers; another company: " +
      'NOT_FOUND). The issuer must publish a discovery document naming itself (else BAD_USER_INPUT). People then ' +
      'sign in at GET /auth/sso/start?company=<code or app path>&provider=company&redirect=<path>.',
  })
  updateCompanySso(
    @Arg('companyId', () => Int, { description: 'A company the caller administers.' }) companyId: number,
    @Arg('input', () => CompanySsoInput, { description: 'The provider.' }) input: CompanySsoInput,
    @Ctx() ctx: Context,
  ) {
    return sso.updateCompanySso(ctx.scope, companyId, { ...input, emailDomains: [...input.emailDomains] });
  }

  @Mutation(() => Boolean, {
    description: "Removes the company's own provider (its admins, its reseller and managers); false when none was set.",
  })
  deleteCompanySso(
    @Arg('companyId', () => Int, { description: 'A company the caller administers.' }) companyId: number,
    @Ctx() ctx: Context,
  ) {
    return sso.deleteCompanySso(ctx.scope, companyId);
  }

  @Mutation(() => LoginPayload, {
    description:
      'Public. Turns the one-time code a sign-in (GET /auth/sso/callback) handed the app into the token login ' +
      'gives: once, within 60 seconds; otherwise NOT_FOUND.',
  })
  exchangeLoginCode(
    @Arg('code', () => String, { description: 'The `code` of the address the sign-in ended at.' }) code: string,
    @Ctx() ctx: Context,
  ) {
    return sso.exchangeLoginCode(ctx.scope, { ip: ctx.client.ip, throttle: ctx.client.tokenThrottle }, code);
  }
}
