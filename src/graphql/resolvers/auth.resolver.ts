// Login and the caller. The work is src/app/auth.ts's; these map arguments to it.
import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import * as auth from '../../app/auth.ts';
import type { Context } from '../context.ts';
import { User } from '../types/user.ts';

@ObjectType({ description: 'A session: a token and who it is for.', simpleResolvers: true })
export class LoginPayload {
  @Field(() => String, { description: 'Send as "Authorization: Bearer <token>".' }) token!: string;
  @Field(() => User, { description: 'The user logged in.' }) user!: object;
}

@Resolver()
export class AuthResolver {
  @Mutation(() => LoginPayload, {
    description:
      'Public. The company comes from x-app-path / x-app-host; without them the e-mail must be unique across ' +
      "companies. Where the account's company has loginStrategy 1, the right password gets FORBIDDEN with where to " +
      'sign in instead (managers excepted); a wrong one gets the usual UNAUTHENTICATED.',
  })
  login(
    @Arg('email', () => String, { description: "The account's e-mail." }) email: string,
    @Arg('password', () => String, { description: "The account's password." }) password: string,
    @Ctx() ctx: Context,
  ) {
    return auth.login(ctx.scope, {
      email,
      password,
      headers: ctx.headers,
      client: { ip: ctx.client.ip, throttle: ctx.client.loginThrottle },
    });
  }

  @Query(() => User, { description: 'The caller.' })
  me(@Ctx() ctx: Context) {
    return ctx.scope.requireViewer();
  }
}
