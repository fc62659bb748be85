import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { canActOnBehalf } from '../../auth/request-auth.ts';
import { roleAtLeast, type RoleName } from '../../auth/roles.ts';
import { hashPassword, passwordPolicyViolation, type PasswordPolicyName } from '../../auth/passwords.ts';
import { signAccessToken, signInvitationToken, verifyInvitationToken } from '../../auth/tokens.ts';
import { DEFAULT_USER_JSON } from '../../domain/defaults.ts';
import { AreaRuleError, checkAreaPlacement } from '../../domain/areas.ts';
import { requireTenant, type Context } from '../context.ts';
import { badInput, conflict, forbidden, notFound } from '../../domain/errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { CreatedInvitation, CreateInvitationInput, Invitation, PublicInvitation, UpdateInvitationInput } from '../types/invitation.ts';
import { LoginPayload } from './auth.resolver.ts';

// Deliberately simple: one @, no spaces, a dot in the domain. Deliverability is proven by the invitation e-mail.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_TEXT = 200;

function text(value: string | null | undefined, name: string): string | null | undefined {
  if (value == null) return value;
  const trimmed = value.trim();
  if (trimmed.length > MAX_TEXT) throw badInput(`${name} must be at most ${MAX_TEXT} characters`, name);
  return trimmed;
}

const INVITATION_TTL_SECONDS = 30 * 24 * 3600;

/** The invitation a link token points to, if it can still be used. */
async function usableInvitation(ctx: Context, jwt: string) {
  const id = jwt.length <= 2048 ? await verifyInvitationToken(jwt, ctx.config.jwtSecret) : null;
  // A deleted company is closed: its links open nothing, and accepting one would add a user who cannot log in.
  const invitation = id == null ? null : await ctx.prisma.invitation.findFirst({ where: { id, company: { deletedAt: null } } });
  const usable = invitation && !invitation.revokedAt && !invitation.acceptedAt && (!invitation.expiresAt || invitation.expiresAt > ctx.now);
  if (!usable) throw notFound('invitation (the link is invalid, expired or revoked)');
  return invitation;
}

/** Admins, the company's reseller and managers administer invitations; nobody grants a role above their own. */
function requireInviter(ctx: Context, role?: string | null) {
  const { viewer, tenant } = requireTenant(ctx);
  if (!roleAtLeast(viewer.role as RoleName, 'admin')) throw forbidden('only admins, resellers and managers administer invitations');
  if (role && !roleAtLeast(viewer.role as RoleName, role as RoleName)) throw forbidden(`a ${viewer.role} may not grant the role ${role}`);
  return { viewer, tenant };
}

async function checkPlacement(ctx: Context, companyId: number, placement: { areaLevel1Id: number | null; areaLevel2Id: number | null; areaLevel3Id: number | null }) {
  try {
    await checkAreaPlacement(ctx.prisma, companyId, placement);
  } catch (err) {
    if (err instanceof AreaRuleError) throw badInput(err.message, err.message.split(':')[0]);
    throw err;
  }
}

async function checkEmailFree(ctx: Context, companyId: number, email: string, exceptInvitationId?: number) {
  const [otherInvitation, user] = await Promise.all([
    ctx.prisma.invitation.findFirst({ where: { companyId, email, ...(exceptInvitationId ? { id: { not: exceptInvitationId } } : {}) }, select: { id: true } }),
    ctx.prisma.user.findFirst({ where: { companyId, email }, select: { id: true } }),
  ]);
  if (otherInvitation || user) throw conflict(`${email} is already invited to or registered in this company`);
}

@Resolver()
export class InvitationResolver {
  @Query(() => PublicInvitation, { description: 'Public: the invitation a signed invitation link points to (GET /invitations/jwt/:jwt).' })
  async invitationByJwt(@Arg('jwt', () => String) jwt: string, @Ctx() ctx: Context) {
    return usableInvitation(ctx, jwt);
  }

  @Mutation(() => CreatedInvitation, { description: 'Invites a person to the current company; answers the invitation and its link token.' })
  async createInvitation(@Arg('input', () => CreateInvitationInput) input: CreateInvitationInput, @Ctx() ctx: Context) {
    const { viewer, tenant } = requireInviter(ctx, input.role);
    const email = text(input.email, 'email')?.toLowerCase() ?? '';
    if (!EMAIL.test(email)) throw badInput('email is not a valid e-mail address', 'email');
    const placement = { areaLevel1Id: input.areaLevel1?.id ?? null, areaLevel2Id: input.areaLevel2?.id ?? null, areaLevel3Id: input.areaLevel3?.id ?? null };
    await checkPlacement(ctx, tenant.id, placement);
    await checkEmailFree(ctx, tenant.id, email);
    const invitation = await ctx.prisma.invitation
      .create({
        data: {
          companyId: tenant.id, email, name: text(input.name, 'name'), externalId: text(input.externalId, 'externalId'), role: input.role as RoleName,
          createdById: viewer.companyId === tenant.id ? viewer.id : null, expiresAt: new Date(ctx.now.getTime() + INVITATION_TTL_SECONDS * 1000), ...placement,
        },
      })
      .catch((err) => {
        if (isUniqueViolation(err)) throw conflict(`${email} is already invited to this company`);
        throw err;
      });
    ctx.loaders.clearAll();
    return { invitation, token: await signInvitationToken(invitation.id, ctx.config.jwtSecret, INVITATION_TTL_SECONDS) };
  }

  @Mutation(() => Boolean, { description: 'Revokes an unaccepted invitation of the current company: its link stops working.' })
  async revokeInvitation(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    const { tenant } = requireInviter(ctx);
    const invitation = await ctx.prisma.invitation.findUnique({ where: { id } });
    if (!invitation || invitation.companyId !== tenant.id) throw notFound('invitation', id);
    if (invitation.acceptedAt) throw conflict('the invitation has already been accepted');
    await ctx.prisma.invitation.update({ where: { id }, data: { revokedAt: invitation.revokedAt ?? ctx.now } });
    return true;
  }

  @Mutation(() => LoginPayload, {
    description: "Public: creates the invited user (the invitation's company, role and areas) with a password that meets the company's passwordPolicy, and logs them in. Refused when the company is full (maxUsersAmount) unless it allows exceeding it.",
  })
  async acceptInvitation(
    @Arg('jwt', () => String) jwt: string,
    @Arg('name', () => String) name: string,
    @Arg('password', () => String) password: string,
    @Ctx() ctx: Context,
    @Arg('email', () => String, { nullable: true, description: 'Needed only when the invitation has no e-mail.' }) email?: string,
  ) {
    const invitation = await usableInvitation(ctx, jwt);
    const company = await ctx.prisma.company.findUniqueOrThrow({ where: { id: invitation.companyId } });
    const fullName = text(name, 'name');
    if (!fullName) throw badInput('name must not be empty', 'name');
    const address = (invitation.email ?? text(email, 'email')?.toLowerCase()) ?? '';
    if (!EMAIL.test(address)) throw badInput('email is required and must be a valid e-mail address', 'email');
    const policyProblem = passwordPolicyViolation(password, company.passwordPolicy as PasswordPolicyName);
    if (policyProblem) throw badInput(policyProblem, 'password');
    const passwordHash = await hashPassword(password);

    const user = await ctx.prisma.$transaction(async (tx) => {
      // Claim the invitation first: of two concurrent accepts, one finds it already taken.
      const claimed = await tx.invitation.updateMany({ where: { id: invitation.id, acceptedAt: null, revokedAt: null }, data: { acceptedAt: ctx.now } });
      if (claimed.count === 0) throw conflict('the invitation has already been accepted');
      if (!company.allowExceedMaxUsers && (await tx.user.count({ where: { companyId: company.id, deletedAt: null } })) >= company.maxUsersAmount) {
        throw forbidden(`${company.name} has reached its maximum of ${company.maxUsersAmount} users`);
      }
      if (await tx.user.findFirst({ where: { companyId: company.id, email: address }, select: { id: true } })) throw conflict(`${address} is already registered in this company`);
      return tx.user.create({
        data: {
          ...DEFAULT_USER_JSON, companyId: company.id, email: address, name: fullName, role: invitation.role, passwordHash,
          externalId: invitation.externalId ?? address, loginProviderId: address,
          areaLevel1Id: invitation.areaLevel1Id, areaLevel2Id: invitation.areaLevel2Id, areaLevel3Id: invitation.areaLevel3Id,
          loginCount: 1, lastActiveDate: ctx.now,
        },
      });
    });
    ctx.loaders.clearAll();
    const token = await signAccessToken({ userId: user.id, companyId: user.companyId, role: user.role }, ctx.config.jwtSecret, ctx.config.jwtTtlSeconds);
    return { token, user };
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
    requireInviter(ctx, role);

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
    await checkPlacement(ctx, companyId, placement);

    const finalEmail = normalizedEmail !== undefined ? normalizedEmail : invitation.email;
    if (finalEmail) await checkEmailFree(ctx, companyId, finalEmail, id);

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
      if (isUniqueViolation(err)) throw conflict(`${finalEmail} is already invited to this company`);
      throw err;
    }
  }
}
