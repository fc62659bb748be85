// Invitations. The work is src/app/invitations.ts's; these map arguments to it.
import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as invitations from '../../app/invitations.ts';
import { registerClient, type Context } from '../context.ts';
import {
  AcceptInvitationArgs,
  CreatedInvitation,
  CreateInvitationInput,
  Invitation,
  PublicInvitation,
  UpdateInvitationInput,
} from '../types/invitation.ts';
import { LoginPayload } from './auth.resolver.ts';

@Resolver()
export class InvitationResolver {
  @Query(() => PublicInvitation, {
    description: 'Public: the invitation a signed invitation link points to (GET /invitations/jwt/:jwt).',
  })
  invitationByJwt(
    @Arg('jwt', () => String, { description: 'The token of the invitation link.' }) jwt: string,
    @Ctx() ctx: Context,
  ) {
    return invitations.invitationByJwt(ctx.scope, jwt);
  }

  @Mutation(() => CreatedInvitation, {
    description:
      'Invites a person to the current company; returns the invitation and its link token. A company at its ' +
      'maxUsersAmount (unless allowExceedMaxUsers) is FORBIDDEN, as accepting there would be.',
  })
  createInvitation(
    @Arg('input', () => CreateInvitationInput, { description: 'Who is invited, with which role and areas.' })
    input: CreateInvitationInput,
    @Ctx() ctx: Context,
  ) {
    return invitations.createInvitation(ctx.scope, input);
  }

  @Mutation(() => Boolean, {
    description: 'Revokes an unaccepted invitation of the current company: its link stops working.',
  })
  revokeInvitation(
    @Arg('id', () => Int, { description: 'An invitation of the current company (another: NOT_FOUND).' }) id: number,
    @Ctx() ctx: Context,
  ) {
    return invitations.revokeInvitation(ctx.scope, id);
  }

  @Mutation(() => LoginPayload, {
    description:
      "Public: creates the invited user (the invitation's company, role and areas) with a password that meets the " +
      "company's passwordPolicy, and logs them in. Refused when the company is full (maxUsersAmount) unless it " +
      'allows exceeding it. A refused accept counts against REGISTER_RATE_LIMIT_MAX per address and link. ' +
      'FORBIDDEN where the company has loginStrategy 1, unless the invitation is for a manager.',
  })
  acceptInvitation(@Args(() => AcceptInvitationArgs) args: AcceptInvitationArgs, @Ctx() ctx: Context) {
    const extraFields = args.extraFields?.map((f) => ({ name: f.name, value: f.value ?? null }));
    return invitations.acceptInvitation(ctx.scope, registerClient(ctx), {
      ...args,
      email: args.email ?? undefined,
      extraFields,
    });
  }

  @Mutation(() => Invitation, {
    description:
      'Changes an invitation of the current company (PATCH /invitations/:id). Admins of the company, the reseller ' +
      'managing it and managers may; nobody may grant a role above their own; the company may change only to one the ' +
      'caller manages. The invitation is checked where it ends up as creating it there is (role, areas, e-mail, and ' +
      'a free seat when it moves to another company). Every check runs before anything is written.',
  })
  updateInvitation(
    @Arg('id', () => Int, { description: 'An invitation of the current company (another: NOT_FOUND).' }) id: number,
    @Arg('input', () => UpdateInvitationInput, { description: 'What to change.' }) input: UpdateInvitationInput,
    @Ctx() ctx: Context,
  ) {
    return invitations.updateInvitation(ctx.scope, id, input);
  }
}
