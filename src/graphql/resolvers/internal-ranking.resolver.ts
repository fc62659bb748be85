// Internal rankings (private leagues). The work is src/app/internal-rankings.ts's; these map arguments to it.
import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import * as leagues from '../../app/internal-rankings.ts';
import type { InternalRankingInvitationRow as InvitationRow, InternalRankingRow as RankingRow } from '../../db/rows.ts';
import type { Context } from '../context.ts';
import { InternalRanking, InternalRankingInvitation } from '../types/engagement.ts';
import { Tournament } from '../types/football.ts';
import { RankingUser } from '../types/ranking.ts';

@Resolver()
export class InternalRankingResolver {
  @Query(() => [InternalRanking], { description: 'The internal rankings the caller belongs to.' })
  myInternalRankings(@Ctx() ctx: Context) {
    return leagues.myInternalRankings(ctx.scope);
  }

  @Query(() => [InternalRankingInvitation], { description: 'Invitations to internal rankings waiting for the caller.' })
  myInternalRankingInvitations(@Ctx() ctx: Context) {
    return leagues.myInternalRankingInvitations(ctx.scope);
  }

  @Mutation(() => InternalRanking, {
    description:
      "Creates a private league of the caller's own company on one of " +
      'its tournaments; the caller owns it and is its first member.',
  })
  createInternalRanking(
    @Arg('tournamentId', () => Int, { description: 'A tournament the company plays (another: NOT_FOUND).' })
    tournamentId: number,
    @Arg('name', () => String, { description: '1 to 100 characters.' }) name: string,
    @Ctx() ctx: Context,
  ) {
    return leagues.createInternalRanking(ctx.scope, tournamentId, name);
  }

  @Mutation(() => InternalRankingInvitation, {
    description: "The ranking's owner invites a colleague of the same company.",
  })
  inviteToInternalRanking(
    @Arg('rankingId', () => Int, { description: 'A league the caller owns.' }) rankingId: number,
    @Arg('userId', () => Int, { description: 'A colleague of the same company.' }) userId: number,
    @Ctx() ctx: Context,
  ) {
    return leagues.inviteToInternalRanking(ctx.scope, rankingId, userId);
  }

  @Mutation(() => InternalRankingInvitation, {
    description: 'The invited user accepts (joins) or rejects; the inviter is notified.',
  })
  respondToInternalRankingInvitation(
    @Arg('invitationId', () => Int, { description: 'An invitation addressed to the caller.' }) invitationId: number,
    @Arg('accept', () => Boolean, { description: 'true joins the league; false rejects.' }) accept: boolean,
    @Ctx() ctx: Context,
  ) {
    return leagues.respondToInternalRankingInvitation(ctx.scope, invitationId, accept);
  }

  @Mutation(() => Boolean, {
    description: 'Leaves an internal ranking; when its owner leaves, the ranking is closed for everyone.',
  })
  leaveInternalRanking(
    @Arg('rankingId', () => Int, { description: 'A league the caller belongs to.' }) rankingId: number,
    @Ctx() ctx: Context,
  ) {
    return leagues.leaveInternalRanking(ctx.scope, rankingId);
  }
}

@Resolver(() => InternalRanking)
export class InternalRankingFields {
  @FieldResolver(() => Tournament, { description: 'The tournament it ranks.' }) async tournament(
    @Root() r: RankingRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.tournament.load(r.tournamentId);
  }
  @FieldResolver(() => RankingUser, { description: "The league's owner." }) async owner(
    @Root() r: RankingRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.user.load(r.ownerId);
  }
  @FieldResolver(() => [RankingUser], { description: 'The members, as a ranking shows them.' }) async members(
    @Root() r: RankingRow,
    @Ctx() ctx: Context,
  ) {
    const rows = await ctx.scope.loaders.membershipsByRanking.load(r.id);
    return ctx.scope.loaders.user.loadMany(rows.map((m) => m.userId as number));
  }
}

@Resolver(() => InternalRankingInvitation)
export class InternalRankingInvitationFields {
  @FieldResolver(() => InternalRanking, { description: 'The league invited to.' }) ranking(
    @Root() i: InvitationRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.internalRanking.load(i.rankingId);
  }
  @FieldResolver(() => RankingUser, { description: 'Who sent the invitation.' }) invitedBy(
    @Root() i: InvitationRow,
    @Ctx() ctx: Context,
  ) {
    return ctx.scope.loaders.user.load(i.invitedById);
  }
}
