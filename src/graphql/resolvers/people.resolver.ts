// People in a company, and each person's own account. The work is src/app/people.ts's; these map arguments to it.
import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as people from '../../app/people.ts';
import { loginClient, type Context } from '../context.ts';
import { UpdateMeInput, UpdateUserInput, UsersArgs } from '../types/people.ts';
import { User } from '../types/user.ts';

const ADMINS = 'Admins of the current company, its reseller and managers; nobody administers a role above their own.';

@Resolver()
export class PeopleResolver {
  @Query(() => [User], { description: `The current company's people, by name. ${ADMINS}` })
  users(@Args(() => UsersArgs) args: UsersArgs, @Ctx() ctx: Context) {
    return people.users(ctx.scope, args);
  }

  @Mutation(() => User, {
    description:
      "Changes a person's name, role, areas or extra fields; a new role ends their sessions (they sign in again). " +
      ADMINS,
  })
  updateUser(
    @Arg('userId', () => Int, { description: 'A person of the current company (another: NOT_FOUND).' }) userId: number,
    @Arg('input', () => UpdateUserInput, { description: 'What to change.' }) input: UpdateUserInput,
    @Ctx() ctx: Context,
  ) {
    const extraFields = input.extraFields?.map((f) => ({ name: f.name, value: f.value ?? null }));
    return people.updateUser(ctx.scope, userId, { ...input, extraFields });
  }

  @Mutation(() => User, {
    description:
      'Deactivates a person: no login, their tokens stop at once (for good: a reactivation does not bring them ' +
      `back), out of rankings and lists. ${ADMINS}`,
  })
  deactivateUser(
    @Arg('userId', () => Int, { description: 'A person of the current company (another: NOT_FOUND).' }) userId: number,
    @Ctx() ctx: Context,
  ) {
    return people.setUserActive(ctx.scope, userId, false);
  }

  @Mutation(() => User, { description: `Reactivates a deactivated person, within maxUsersAmount. ${ADMINS}` })
  reactivateUser(
    @Arg('userId', () => Int, { description: 'A deactivated person of the current company (another: NOT_FOUND).' })
    userId: number,
    @Ctx() ctx: Context,
  ) {
    return people.setUserActive(ctx.scope, userId, true);
  }

  @Mutation(() => Boolean, {
    description:
      'Deletes a person for good: their name, e-mail, pictures, password and extra fields are erased; predictions ' +
      `stay for the game's history (rankings leave them out) and posts stay under "Deleted user". ${ADMINS}`,
  })
  deleteUser(
    @Arg('userId', () => Int, { description: 'A person of the current company (another: NOT_FOUND).' }) userId: number,
    @Ctx() ctx: Context,
  ) {
    return people.deleteUser(ctx.scope, userId);
  }

  @Mutation(() => User, {
    description: "The caller's own profile, within the company's allowUserNameEdit / allowUserEmailEdit.",
  })
  updateMe(
    @Arg('input', () => UpdateMeInput, { description: 'What to change.' }) input: UpdateMeInput,
    @Ctx() ctx: Context,
  ) {
    const extraFields = input.extraFields?.map((f) => ({ name: f.name, value: f.value ?? null }));
    return people.updateMe(ctx.scope, { ...input, extraFields });
  }

  @Mutation(() => Boolean, {
    description:
      "The caller's password, proven by the current one; meets the company's policy. Every access token of the " +
      'caller stops working, this one included (the response carries no token): the caller signs in again. A wrong ' +
      'current password counts like a failed login of the caller (LOGIN_RATE_LIMIT_MAX): past the limit, ' +
      'RATE_LIMITED. FORBIDDEN where the company has loginStrategy 1 (managers excepted).',
  })
  changePassword(
    @Arg('currentPassword', () => String, { description: 'The password in use now.' }) currentPassword: string,
    @Arg('newPassword', () => String, { description: "Meets the company's passwordPolicy." }) newPassword: string,
    @Ctx() ctx: Context,
  ) {
    return people.changePassword(ctx.scope, loginClient(ctx), currentPassword, newPassword);
  }

  @Mutation(() => Boolean, {
    description:
      "Deletes the caller's own account (as deleteUser does), where the company sets allowUserDeleteAccount. A " +
      'wrong password counts like a failed login of the caller: past the limit, RATE_LIMITED.',
  })
  deleteMyAccount(
    @Arg('password', () => String, { description: "The caller's password, as a confirmation." }) password: string,
    @Ctx() ctx: Context,
  ) {
    return people.deleteMyAccount(ctx.scope, loginClient(ctx), password);
  }
}
