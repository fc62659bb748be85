// Sign-up and e-mail verification. The work is src/app/sign-up.ts's; these map arguments to it.
import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import * as signUp from '../../app/sign-up.ts';
import { registerClient, resetClient, tokenClient, type Context } from '../context.ts';
import { RegisterInput, RegisterPayload } from '../types/sign-up.ts';
import { LoginPayload } from './auth.resolver.ts';

@Resolver()
export class SignUpResolver {
  @Mutation(() => RegisterPayload, {
    description:
      'Public. Creates a player account in the company named by x-app-path / x-app-host, unless it set ' +
      'disableRegister or loginStrategy 1 (FORBIDDEN) or is full (maxUsersAmount, unless allowExceedMaxUsers). ' +
      'The password must meet its passwordPolicy; areas only where featureSettings.areas.selfAssignOnSignUp. ' +
      'Where the company sets requiresEmailVerification, a verification link is mailed and the response carries ' +
      'neither token nor user, whether or not the e-mail already had an account (its owner is told by e-mail). ' +
      'Every sign-up counts against REGISTER_RATE_LIMIT_MAX per address and e-mail (ten times it per address): ' +
      'past it, RATE_LIMITED.',
  })
  register(
    @Arg('input', () => RegisterInput, { description: 'The new account.' }) input: RegisterInput,
    @Ctx() ctx: Context,
  ) {
    const extraFields = input.extraFields?.map((f) => ({ name: f.name, value: f.value ?? null }));
    return signUp.register(ctx.scope, registerClient(ctx), { ...input, extraFields }, ctx.headers);
  }

  @Mutation(() => LoginPayload, {
    description:
      "Public. Confirms the account's e-mail with a verification link's token (single use, 48 hours) and logs the " +
      'user in. An invalid, expired or used token is NOT_FOUND, and counts like a failed login of the address.',
  })
  verifyEmail(
    @Arg('token', () => String, { description: "The verification link's token." }) token: string,
    @Ctx() ctx: Context,
  ) {
    return signUp.verifyEmail(ctx.scope, tokenClient(ctx), token);
  }

  @Mutation(() => Boolean, {
    description:
      'Public. Mails a new verification link to the unverified account with this e-mail in the company named by ' +
      'x-app-path / x-app-host. Returns true whether or not there is one; throttled like requestPasswordReset.',
  })
  requestEmailVerification(
    @Arg('email', () => String, { description: 'The e-mail of the unverified account.' }) email: string,
    @Ctx() ctx: Context,
  ) {
    return signUp.requestEmailVerification(ctx.scope, email, ctx.headers, resetClient(ctx));
  }
}
