// Internal rankings (private leagues): create, invite a colleague, accept or reject, leave, in the caller's own
// company. Members see the league's ranking through ranking(internalRankingId). Invitations notify both sides.
import type { InternalRankingInvitationRow, InternalRankingRow } from '../db/rows.ts';
import { badInput, conflict, forbidden, notFound } from '../domain/errors.ts';
import { enqueue } from '../notifications/outbox.ts';
import type { RequestScope } from './scope.ts';

/** Internal rankings live in the caller's own company, unless the company switched them off. */
function member(scope: RequestScope) {
  const { viewer, tenant } = scope.requireOwnCompany('internal rankings are played in your own company');
  if (tenant.disableInternalRankings) throw forbidden('internal rankings are disabled in this company');
  return { viewer, tenant };
}

async function ownRanking(scope: RequestScope, id: number, companyId: number): Promise<InternalRankingRow> {
  const ranking = await scope.db.internalRanking.findUnique({ where: { id } });
  if (!ranking || ranking.companyId !== companyId) throw notFound('internal ranking', id);
  return ranking;
}

export async function myInternalRankings(scope: RequestScope): Promise<InternalRankingRow[]> {
  const { viewer } = member(scope);
  return scope.db.internalRanking.findMany({
    where: { memberships: { some: { userId: viewer.id } } },
    orderBy: { id: 'asc' },
  });
}

export async function myInternalRankingInvitations(scope: RequestScope): Promise<InternalRankingInvitationRow[]> {
  const { viewer } = member(scope);
  return scope.db.internalRankingInvitation.findMany({
    where: { invitedUserId: viewer.id, status: 'PENDING' },
    orderBy: { id: 'asc' },
  });
}

/** The caller owns it and is its first member. */
export async function createInternalRanking(
  scope: RequestScope,
  tournamentId: number,
  name: string,
): Promise<InternalRankingRow> {
  const { viewer, tenant } = member(scope);
  if (!name.trim() || name.length > 100) throw badInput('name must be 1 to 100 characters', 'name');
  if (!(await scope.loaders.tournamentsByCompany.load(tenant.id)).some((t) => t.id === tournamentId))
    throw notFound('tournament', tournamentId);
  return scope.write((tx) =>
    tx.internalRanking.create({
      data: {
        companyId: tenant.id,
        tournamentId,
        ownerId: viewer.id,
        name: name.trim(),
        memberships: { create: { userId: viewer.id } },
      },
    }),
  );
}

/** The ranking's owner invites a colleague of the same company; inviting again renews a rejected invitation. */
export async function inviteToInternalRanking(
  scope: RequestScope,
  rankingId: number,
  userId: number,
): Promise<InternalRankingInvitationRow> {
  const { viewer, tenant } = member(scope);
  const ranking = await ownRanking(scope, rankingId, tenant.id);
  if (ranking.ownerId !== viewer.id) throw forbidden("only the ranking's owner invites");
  const invitee = await scope.loaders.user.load(userId);
  if (!invitee || invitee.companyId !== tenant.id || invitee.deletedAt) throw notFound('user', userId);
  if (await scope.db.internalRankingMembership.findUnique({ where: { rankingId_userId: { rankingId, userId } } }))
    throw conflict('the user is already a member');
  return scope.write(async (tx) => {
    const row = await tx.internalRankingInvitation.upsert({
      where: { rankingId_invitedUserId: { rankingId, invitedUserId: userId } },
      create: { rankingId, invitedUserId: userId, invitedById: viewer.id },
      update: { status: 'PENDING', invitedById: viewer.id, respondedAt: null },
    });
    await enqueue(tx, [
      {
        userId,
        type: 'internalRankingInvitationReceived',
        dedupeKey:
          `internalRankingInvitationReceived:invitation:${row.id}` +
          `:at:${row.createdAt.getTime()}:${row.respondedAt?.getTime() ?? 0}`,
        payload: { rankingId, rankingName: ranking.name, invitedBy: viewer.name },
      },
    ]);
    return row;
  });
}

/** The invited user accepts (joins) or rejects; the inviter is notified. */
export async function respondToInternalRankingInvitation(
  scope: RequestScope,
  invitationId: number,
  accept: boolean,
): Promise<InternalRankingInvitationRow> {
  const { viewer } = member(scope);
  const invitation = await scope.db.internalRankingInvitation.findUnique({
    where: { id: invitationId },
    include: { ranking: true },
  });
  if (!invitation || invitation.invitedUserId !== viewer.id) throw notFound('invitation', invitationId);
  if (invitation.status !== 'PENDING') throw conflict(`the invitation was already ${invitation.status.toLowerCase()}`);
  return scope.write(async (tx) => {
    const claimed = await tx.internalRankingInvitation.updateMany({
      where: { id: invitationId, status: 'PENDING' },
      data: { status: accept ? 'ACCEPTED' : 'REJECTED', respondedAt: scope.now },
    });
    if (claimed.count === 0) throw conflict('the invitation was already answered');
    if (accept)
      await tx.internalRankingMembership.create({ data: { rankingId: invitation.rankingId, userId: viewer.id } });
    const type = accept ? 'internalRankingInvitationAccepted' : 'internalRankingInvitationRejected';
    await enqueue(tx, [
      {
        userId: invitation.invitedById,
        type,
        dedupeKey: `${type}:invitation:${invitationId}:at:${scope.now.getTime()}`,
        payload: { rankingId: invitation.rankingId, rankingName: invitation.ranking.name, user: viewer.name },
      },
    ]);
    return tx.internalRankingInvitation.findUniqueOrThrow({ where: { id: invitationId } });
  });
}

/** Leaves a ranking; when its owner leaves, the ranking is closed for everyone. */
export async function leaveInternalRanking(scope: RequestScope, rankingId: number): Promise<true> {
  const { viewer, tenant } = member(scope);
  const ranking = await ownRanking(scope, rankingId, tenant.id);
  if (ranking.ownerId === viewer.id) {
    await scope.write((tx) => tx.internalRanking.delete({ where: { id: rankingId } }));
    return true;
  }
  // Refused after the write, not inside it: a refusal is no reason to roll anything back.
  const left = await scope.write((tx) =>
    tx.internalRankingMembership.deleteMany({ where: { rankingId, userId: viewer.id } }),
  );
  if (left.count === 0) throw notFound('internal ranking', rankingId);
  return true;
}
