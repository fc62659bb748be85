import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { canActOnBehalf } from '../../auth/request-auth.ts';
import { roleAtLeast, type RoleName } from '../../auth/roles.ts';
import { verifyInvitationToken } from '../../auth/tokens.ts';
import { AreaRuleError, checkAreaPlacement } from '../../domain/areas.ts';
import { requireTenant, type Context } from '../context.ts';
import { badInput, conflict, forbidden, notFound } from '../errors.ts';
import { Invitation, PublicInvitation, UpdateInvitationInput } from '../types/invitation.ts';

// Deliberately simple: one @, no spaces, a dot in the domain. Deliverability is proven by the invitation e-mail.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_TEXT = 200;

function text(value: string | null | undefined, name: string): string | null | undefined {
  if (value == null) return value;
  const trimmed = value.trim();
  if (trimmed.length > MAX_TEXT) throw badInput(`${name} must be at most ${MAX_TEXT} characters`, name);
  return trimmed;
}

@Resolver()
export class InvitationResolver {
  @Query(() => PublicInvitation, { description: 'Public: the invitation a signed invitation link points to (GET /invitations/jwt/:jwt).' })
  async invitationByJwt(@Arg('jwt', () => String) jwt: string, @Ctx() ctx: Context) {
    const id = jwt.length <= 2048 ? await verifyInvitationToken(jwt, ctx.config.jwtSecret) : null;
    const invitation = id == null ? null : await ctx.prisma.invitation.findUnique({ where: { id } });
    const usable = invitation && !invitation.revokedAt && !invitation.acceptedAt && (!invitation.expiresAt || invitation.expiresAt > ctx.now);
    if (!usable) throw notFound('invitation (the link is invalid, expired or revoked)');
    return invitation;
  }

  @Mutation(() => Invitation, {
    description: "Changes an invitation of the current company (PATCH /invitations/:id). Admins of the company, the reseller managing it and managers may; nobody may grant a role above their own; the company may change only to one the caller manages. Every check runs before anything is written.",
  })
  async updateInvitation(@Arg('id', () => Int) id: number, @Arg('input', () => UpdateInvitationInput) input: UpdateInvitationInput, @Ctx() ctx: Context) {
    const { viewer, tenant } = requireTenant(ctx);
    if (id < 1) throw badInput('id must be a positive integer', 'id');
    if (!roleAtLeast(viewer.role as RoleName, 'admin')) throw forbidden('only admins, resellers and managers may change invitations');
    const invitation = await ctx.prisma.invitation.findUnique({ where: { id } });
    if (!invitation || invitation.companyId !== tenant.id) throw notFound('invitation', id);
    if (invitation.acceptedAt) throw conflict('the invitation has already been accepted');

    const role = input.role ?? undefined;
    if (role && !roleAtLeast(viewer.role as RoleName, role as RoleName)) throw forbidden(`a ${viewer.role} may not grant the role ${role}`);

    let companyId = invitation.companyId;
    if (input.company && input.company.id !== invitation.companyId) {
      const target = await ctx.prisma.company.findUnique({ where: { id: input.company.id } });
      if (!target || target.deletedAt) throw badInput(`company ${input.company.id} not found`, 'company');
      if (!canActOnBehalf(viewer, target)) throw forbidden(`company ${target.id} is not managed by the caller`);
      companyId = target.id;
    }

    const email = text(input.email, 'email');
    if (email !== undefined && email !== null && !EMAIL.test(email)) throw badInput('email is not a valid e-mail address', 'email');
    const normalizedEmail = email?.toLowerCase();

    // Areas: the ones given replace the old; when the company changes, areas not given are cleared because
    // they belong to the old company.
    const keep = companyId === invitation.companyId;
    const placement = {
      areaLevel1Id: input.areaLevel1 !== undefined ? (input.areaLevel1?.id ?? null) : keep ? invitation.areaLevel1Id : null,
      areaLevel2Id: input.areaLevel2 !== undefined ? (input.areaLevel2?.id ?? null) : keep ? invitation.areaLevel2Id : null,
      areaLevel3Id: input.areaLevel3 !== undefined ? (input.areaLevel3?.id ?? null) : keep ? invitation.areaLevel3Id : null,
    };
    try {
      await checkAreaPlacement(ctx.prisma, companyId, placement);
    } catch (err) {
      if (err instanceof AreaRuleError) throw badInput(err.message, err.message.split(':')[0]);
      throw err;
    }

    const finalEmail = normalizedEmail !== undefined ? normalizedEmail : invitation.email;
    if (finalEmail) {
      const [otherInvitation, user] = await Promise.all([
        ctx.prisma.invitation.findFirst({ where: { companyId, email: finalEmail, id: { not: id } }, select: { id: true } }),
        ctx.prisma.user.findFirst({ where: { companyId, email: finalEmail }, select: { id: true } }),
      ]);
      if (otherInvitation || user) throw conflict(`${finalEmail} is already invited to or registered in this company`);
    }

    try {
      const updated = await ctx.prisma.invitation.update({
        where: { id },
        data: {
          externalId: text(input.externalId, 'externalId'),
          name: text(input.name, 'name'),
          email: normalizedEmail,
          role: role as RoleName | undefined,
          companyId,
          ...placement,
        },
      });
      ctx.loaders.clearAll();
      return updated;
    } catch (err) {
      // Two writers racing for the same e-mail: the unique index decides.
      if ((err as { code?: string }).code === 'P2002') throw conflict(`${finalEmail} is already invited to this company`);
      throw err;
    }
  }
}
