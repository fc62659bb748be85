// Accounts by e-mail, and the caller's sessions. The work is src/app/accounts.ts's and sessions.ts's; these map
// arguments to it.
import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import * as accounts from '../../app/accounts.ts';
import * as sessions from '../../app/sessions.ts';
import { resetClient, tokenClient, type Context } from '../context.ts';
import { LoginPayload } from './auth.resolver.ts';

@Resolver()
export class AccountResolver {
  @Mutation(() => Boolean, {
    description:
      'Public. E-mails a password-reset link (valid one hour, single use) to the account with this e-mail in the ' +
      'company named by x-app-path / x-app-host (without them, to every account with it). Returns true whether or ' +
      'not the e-mail has an account; throttled per address and e-mail (RATE_LIMITED). A company named by ' +
      'x-app-path / x-app-host with loginStrategy 1 is FORBIDDEN for every e-mail; reached otherwise, its people ' +
      '(managers excepted) are mailed where to sign in instead of a link.',
  })
  requestPasswordReset(
    @Arg('email', () => String, { description: 'The e-mail of the account.' }) email: string,
    @Ctx() ctx: Context,
  ) {
    return accounts.requestPasswordReset(ctx.scope, { email, headers: ctx.headers, client: resetClient(ctx) });
  }

  @Mutation(() => LoginPayload, {
    description:
      "Public. Sets a new password (meeting the company's passwordPolicy) with the token of a reset link, which then " +
      'stops working, and logs the user in with a new token: every token signed before stops working. An invalid, ' +
      'expired or used token is NOT_FOUND, and counts like a failed login of the address (RATE_LIMITED past ' +
      'LOGIN_RATE_LIMIT_MAX). FORBIDDEN for the people of a company with loginStrategy 1 (managers excepted).',
  })
  resetPassword(
    @Arg('token', () => String, { description: "The reset link's token." }) token: string,
    @Arg('password', () => String, { description: "The new password; meets the company's passwordPolicy." })
    password: string,
    @Ctx() ctx: Context,
  ) {
    return accounts.resetPassword(ctx.scope, tokenClient(ctx), { token, password });
  }

  @Mutation(() => Boolean, {
    description:
      'Signs the caller out everywhere: every access token of the caller stops working, this one included, and the ' +
      'open subscriptions of the caller end with UNAUTHENTICATED, on every replica. Each device signs in again.',
  })
  logoutEverywhere(@Ctx() ctx: Context) {
    return sessions.logoutEverywhere(ctx.scope);
  }
}
