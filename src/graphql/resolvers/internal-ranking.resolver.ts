// Internal rankings (private leagues): create, invite a colleague, accept or reject, leave. Members see the
// league's ranking through ranking(internalRankingId). Invitations notify both sides.
import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { enqueue } from '../../notifications/outbox.ts';
import type { Db } from '../../db/client.ts';
import { requireTenant, type Context } from '../context.ts';
import { badInput, conflict, forbidden, notFound } from '../../domain/errors.ts';
import { InternalRanking, InternalRankingInvitation } from '../types/engagement.ts';
import { Tournament } from '../types/football.ts';
import { RankingUser } from '../types/ranking.ts';

type RankingRow = { id: number; companyId: number; tournamentId: number; ownerId: number; name: string };
type InvitationRow = { id: number; rankingId: number; invitedUserId: number; invitedById: number; status: string };

/** Internal rankings live in the caller's own company, unless the company switched them off. */
function member(ctx: Context) {
  const { viewer, tenant } = requireTenant(ctx);
  if (tenant.id !== viewer.companyId) throw forbidden('internal rankings are played in your own company');
  if (tenant.disableInternalRankings) throw forbidden('internal rankings are disabled in this company');
  return { viewer, tenant };
}

async function ownRanking(ctx: Context, id: number, companyId: number): Promise<RankingRow> {
  const ranking = await ctx.prisma.internalRanking.findUnique({ where: { id } });
  if (!ranking || ranking.companyId !== companyId) throw notFound('internal ranking', id);
  return ranking;
}

@Resolver()
export class InternalRankingResolver {
  @Query(() => [InternalRanking], { description: 'The internal rankings the caller belongs to.' })
  myInternalRankings(@Ctx() ctx: Context) {
    const { viewer } = member(ctx);
    return ctx.prisma.internalRanking.findMany({ where: { memberships: { some: { userId: viewer.id } } }, orderBy: { id: 'asc' } });
  }

  @Query(() => [InternalRankingInvitation], { description: 'Invitations to internal rankings waiting for the caller.' })
  myInternalRankingInvitations(@Ctx() ctx: Context) {
    const { viewer } = member(ctx);
    return ctx.prisma.internalRankingInvitation.findMany({ where: { invitedUserId: viewer.id, status: 'PENDING' }, orderBy: { id: 'asc' } });
  }

  @Mutation(() => InternalRanking)
  async createInternalRanking(@Arg('tournamentId', () => Int) tournamentId: number, @Arg('name', () => String) name: string, @Ctx() ctx: Context) {
    const { viewer, tenant } = member(ctx);
    if (!name.trim() || name.length > 100) throw badInput('name must be 1 to 100 characters', 'name');
    if (!(await ctx.loaders.tournamentsByCompany.load(tenant.id)).some((t) => t.id === tournamentId)) throw notFound('tournament', tournamentId);
    return ctx.prisma.internalRanking.create({
      data: { companyId: tenant.id, tournamentId, ownerId: viewer.id, name: name.trim(), memberships: { create: { userId: viewer.id } } },
    });
  }

  @Mutation(() => InternalRankingInvitation, { description: "The ranking's owner invites a colleague of the same company." })
  async inviteToInternalRanking(@Arg('rankingId', () => Int) rankingId: number, @Arg('userId', () => Int) userId: number, @Ctx() ctx: Context) {
    const { viewer, tenant } = member(ctx);
    const ranking = await ownRanking(ctx, rankingId, tenant.id);
    if (ranking.ownerId !== viewer.id) throw forbidden("only the ranking's owner invites");
    const invitee = await ctx.loaders.user.load(userId);
    if (!invitee || invitee.companyId !== tenant.id || invitee.deletedAt) throw notFound('user', userId);
    if (await ctx.prisma.internalRankingMembership.findUnique({ where: { rankingId_userId: { rankingId, userId } } })) throw conflict('the user is already a member');
    const invitation = await ctx.prisma.$transaction(async (t) => {
      const tx = t as unknown as Db;
      const row = await tx.internalRankingInvitation.upsert({
        where: { rankingId_invitedUserId: { rankingId, invitedUserId: userId } },
        create: { rankingId, invitedUserId: userId, invitedById: viewer.id },
        update: { status: 'PENDING', invitedById: viewer.id, respondedAt: null },
      });
      await enqueue(tx, [{
        userId, type: 'internalRankingInvitationReceived', dedupeKey: `internalRankingInvitationReceived:invitation:${row.id}:at:${row.createdAt.getTime()}:${row.respondedAt?.getTime() ?? 0}`,
        payload: { rankingId, rankingName: ranking.name, invitedBy: viewer.name },
      }]);
      return row;
    });
    return invitation;
  }

  @Mutation(() => InternalRankingInvitation, { description: 'The invited user accepts (joins) or rejects; the inviter is notified.' })
  async respondToInternalRankingInvitation(@Arg('invitationId', () => Int) invitationId: number, @Arg('accept', () => Boolean) accept: boolean, @Ctx() ctx: Context) {
    const { viewer } = member(ctx);
    const invitation = await ctx.prisma.internalRankingInvitation.findUnique({ where: { id: invitationId }, include: { ranking: true } });
    if (!invitation || invitation.invitedUserId !== viewer.id) throw notFound('invitation', invitationId);
    if (invitation.status !== 'PENDING') throw conflict(`the invitation was already ${invitation.status.toLowerCase()}`);
    return ctx.prisma.$transaction(async (t) => {
      const tx = t as unknown as Db;
      const claimed = await tx.internalRankingInvitation.updateMany({ where: { id: invitationId, status: 'PENDING' }, data: { status: accept ? 'ACCEPTED' : 'REJECTED', respondedAt: ctx.now } });
      if (claimed.count === 0) throw conflict('the invitation was already answered');
      if (accept) await tx.internalRankingMembership.create({ data: { rankingId: invitation.rankingId, userId: viewer.id } });
      const type = accept ? 'internalRankingInvitationAccepted' : 'internalRankingInvitationRejected';
      await enqueue(tx, [{ userId: invitation.invitedById, type, dedupeKey: `${type}:invitation:${invitationId}:at:${ctx.now.getTime()}`, payload: { rankingId: invitation.rankingId, rankingName: invitation.ranking.name, user: viewer.name } }]);
      return tx.internalRankingInvitation.findUniqueOrThrow({ where: { id: invitationId } });
    });
  }

  @Mutation(() => Boolean, { description: 'Leaves an internal ranking; when its owner leaves, the ranking is closed for everyone.' })
  async leaveInternalRanking(@Arg('rankingId', () => Int) rankingId: number, @Ctx() ctx: Context) {
    const { viewer, tenant } = member(ctx);
    const ranking = await ownRanking(ctx, rankingId, tenant.id);
    if (ranking.ownerId === viewer.id) await ctx.prisma.internalRanking.delete({ where: { id: rankingId } });
    else {
      const left = await ctx.prisma.internalRankingMembership.deleteMany({ where: { rankingId, userId: viewer.id } });
      if (left.count === 0) throw notFound('internal ranking', rankingId);
    }
    return true;
  }
}

@Resolver(() => InternalRanking)
export class InternalRankingFields {
  @FieldResolver(() => Tournament) async tournament(@Root() r: RankingRow, @Ctx() ctx: Context) { return ctx.loaders.tournament.load(r.tournamentId); }
  @FieldResolver(() => RankingUser, { description: "The league's owner." }) async owner(@Root() r: RankingRow, @Ctx() ctx: Context) { return ctx.loaders.user.load(r.ownerId); }
  @FieldResolver(() => [RankingUser], { description: 'The members, as a ranking shows them.' }) async members(@Root() r: RankingRow, @Ctx() ctx: Context) {
    const rows = await ctx.loaders.membershipsByRanking.load(r.id);
    return ctx.loaders.user.loadMany(rows.map((m) => m.userId as number));
  }
}

@Resolver(() => InternalRankingInvitation)
export class InternalRankingInvitationFields {
  @FieldResolver(() => InternalRanking) ranking(@Root() i: InvitationRow, @Ctx() ctx: Context) { return ctx.prisma.internalRanking.findUnique({ where: { id: i.rankingId } }); }
  @FieldResolver(() => RankingUser, { description: 'Who sent the invitation.' }) invitedBy(@Root() i: InvitationRow, @Ctx() ctx: Context) { return ctx.loaders.user.load(i.invitedById); }
}
