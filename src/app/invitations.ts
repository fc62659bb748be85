// Invitations: admins (and the company's reseller, and managers) invite people to the company the request acts
// on, change and revoke invitations; anyone holding a link's token reads it and accepts it, which creates the user
// and logs them in. Nobody grants a role above their own.
import { canActOnBehalf } from '../auth/request-auth.ts';
import { roleAtLeast, type RoleName } from '../domain/roles.ts';
import { passwordPolicyViolation, type PasswordPolicyName } from '../auth/passwords.ts';
import { signAccessToken, signInvitationToken, verifyInvitationToken } from '../auth/tokens.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { CompanyRow, InvitationRow, UserRow } from '../db/rows.ts';
import { AreaRuleError } from '../domain/areas.ts';
import { checkAreaPlacement } from './areas.ts';
import { areaIdsOf, extraFieldsOrRefusal, type ExtraFieldValues } from './extra-field-values.ts';
import { DEFAULT_USER_JSON } from '../domain/defaults.ts';
import { badInput, conflict, forbidden, notFound } from '../domain/errors.ts';
import { checkPersonName, isEmailAddress } from '../domain/inputs.ts';
import { queueEmail } from '../mail/outbox.ts';
import { companySignInLink, passwordAllowed, passwordRefused } from './login-strategy.ts';
import { counted, passwordWorkFor, type ThrottledClient } from './password-client.ts';
import { quoted, unlinked } from '../mail/user-text.ts';
import type { RequestScope } from './scope.ts';
import { refuseWhenFull, takeSeat } from './seats.ts';

const MAX_TEXT = 200;
const INVITATION_TTL_SECONDS = 30 * 24 * 3600;

type IdRef = { id: number } | null | undefined;
export interface CreateInvitationArgs {
  email: string;
  name?: string | null;
  externalId?: string | null;
  role?: string | null;
  areaLevel1?: IdRef;
  areaLevel2?: IdRef;
  areaLevel3?: IdRef;
}
export interface UpdateInvitationArgs {
  email?: string | null;
  name?: string | null;
  externalId?: string | null;
  role?: string | null;
  company?: IdRef;
  areaLevel1?: IdRef;
  areaLevel2?: IdRef;
  areaLevel3?: IdRef;
}

/** A person's name an invitation carries or its acceptance sets. */
function personName(value: string | null | undefined): string | null | undefined {
  const name = text(value, 'name');
  if (name) checkPersonName(name);
  return name;
}

function text(value: string | null | undefined, name: string): string | null | undefined {
  if (value == null) return value;
  const trimmed = value.trim();
  if (trimmed.length > MAX_TEXT) throw badInput(`${name} must be at most ${MAX_TEXT} characters`, name);
  return trimmed;
}

/** The invitation a link token points to, if it can still be used. */
async function usableInvitation(scope: RequestScope, jwt: string): Promise<InvitationRow> {
  const id = jwt.length <= 2048 ? await verifyInvitationToken(jwt, scope.config.jwtSecret) : null;
  // A deleted company is closed: its links open nothing, and accepting one would add a user who cannot log in.
  const invitation =
    id == null ? null : await scope.db.invitation.findFirst({ where: { id, company: { deletedAt: null } } });
  const usable =
    invitation &&
    !invitation.revokedAt &&
    !invitation.acceptedAt &&
    (!invitation.expiresAt || invitation.expiresAt > scope.now);
  if (!usable) throw notFound('invitation (the link is invalid, expired or revoked)');
  return invitation;
}

/** Admins, the company's reseller and managers administer invitations. */
function requireInviter(scope: RequestScope) {
  return scope.requireRole('admin', 'only admins, resellers and managers administer invitations');
}

type Placement = { areaLevel1Id: number | null; areaLevel2Id: number | null; areaLevel3Id: number | null };

/**
 * What an invitation must satisfy where it is, checked when it is made and again whenever its company, role, areas
 * or e-mail change (a move must not plant there what creating it there would refuse): a company the caller may act
 * on; a role no higher than the caller's and one that company has; areas of that company; an e-mail not yet
 * invited or registered there; a free seat for one that arrives there.
 */
async function checkInvitationPlace(
  scope: RequestScope,
  viewer: UserRow,
  company: CompanyRow,
  place: { role: RoleName; email: string | null; placement: Placement; invitationId?: number; arrives: boolean },
) {
  if (company.id !== viewer.companyId && !canActOnBehalf(viewer, company))
    throw forbidden(`company ${company.id} is not managed by the caller`);
  if (!roleAtLeast(viewer.role as RoleName, place.role))
    throw forbidden(`a ${viewer.role} may not grant the role ${place.role}`);
  if (place.role === 'reseller' && !company.isReseller)
    throw badInput(`the reseller role exists in reseller companies, and ${company.name} is not one`, 'role');
  await checkPlacement(scope, company.id, place.placement);
  if (place.email) await checkEmailFree(scope, company.id, place.email, place.invitationId);
  // As acceptInvitation counts: an invitation arriving in a full company would only open a link that fails. One
  // already there keeps its place while its name or e-mail changes.
  if (place.arrives) await refuseWhenFull(scope, company);
}

async function checkPlacement(scope: RequestScope, companyId: number, placement: Placement) {
  try {
    await checkAreaPlacement(scope.db, companyId, placement);
  } catch (err) {
    if (err instanceof AreaRuleError) throw badInput(err.message, err.message.split(':')[0]);
    throw err;
  }
}

async function checkEmailFree(scope: RequestScope, companyId: number, email: string, exceptInvitationId?: number) {
  const [otherInvitation, user] = await Promise.all([
    scope.db.invitation.findFirst({
      where: { companyId, email, ...(exceptInvitationId ? { id: { not: exceptInvitationId } } : {}) },
      select: { id: true },
    }),
    scope.db.user.findFirst({ where: { companyId, email }, select: { id: true } }),
  ]);
  if (otherInvitation || user) throw conflict(`${email} is already invited to or registered in this company`);
}

/** Public: the invitation a signed link points to (GET /invitations/jwt/:jwt). */
export const invitationByJwt = (scope: RequestScope, jwt: string) => usableInvitation(scope, jwt);

/** Invites a person to the company the request acts on; returns the invitation and its link token. */
export async function createInvitation(
  scope: RequestScope,
  input: CreateInvitationArgs,
): Promise<{ invitation: InvitationRow; token: string }> {
  const { viewer, tenant } = requireInviter(scope);
  const role = (input.role ?? 'player') as RoleName;
  const email = text(input.email, 'email')?.toLowerCase() ?? '';
  if (!isEmailAddress(email)) throw badInput('email is not a valid e-mail address', 'email');
  const placement = {
    areaLevel1Id: input.areaLevel1?.id ?? null,
    areaLevel2Id: input.areaLevel2?.id ?? null,
    areaLevel3Id: input.areaLevel3?.id ?? null,
  };
  await checkInvitationPlace(scope, viewer, tenant, { role, email, placement, arrives: true });
  const data = {
    companyId: tenant.id,
    email,
    name: personName(input.name),
    externalId: text(input.externalId, 'externalId'),
    role,
    createdById: viewer.companyId === tenant.id ? viewer.id : null,
    expiresAt: new Date(scope.now.getTime() + INVITATION_TTL_SECONDS * 1000),
    ...placement,
  };
  // The invitation e-mail is queued with the row: both are written, or neither.
  const created = await scope
    .write(async (tx) => {
      const invitation = await tx.invitation.create({ data });
      const token = await signInvitationToken(invitation.id, scope.config.jwtSecret, INVITATION_TTL_SECONDS);
      await queueEmail(tx, {
        to: email,
        kind: 'invitation',
        subject: `You are invited to ${unlinked(tenant.name)}'s prediction game`,
        text:
          `Hello${data.name ? ` ${quoted(data.name)}` : ''},\n\n${quoted(viewer.name)} invites you to play in ` +
          `${quoted(tenant.name)}. ${joinHow(scope.config, tenant, role, token)}\n`,
      });
      return { invitation, token };
    })
    .catch((err) => {
      if (isUniqueViolation(err)) throw conflict(`${email} is already invited to this company`);
      throw err;
    });
  scope.mail.wake();
  return created;
}

/**
 * What the invitation e-mail asks: to create an account with a password through the link, or, in a company that
 * signs in with its own provider only, to sign in there (no password is set: acceptInvitation refuses one).
 */
function joinHow(
  urls: { mail: { appUrl: string }; sso: { publicUrl: string } },
  company: CompanyRow,
  role: RoleName,
  token: string,
): string {
  if (!passwordAllowed(company, role)) {
    return (
      `It signs in with its own identity provider only: to join, sign in here with your company account:\n\n` +
      companySignInLink(urls.sso.publicUrl, company)
    );
  }
  return `Open this link within 30 days to create your account:\n\n${invitationLink(urls.mail.appUrl, token)}`;
}

/**
 * The link an invitation e-mail carries: the app's page reads the invitation (invitationByJwt) and accepts it. The
 * token is a query parameter, as in the other account links: request logs drop query strings.
 */
export const invitationLink = (appUrl: string, token: string) =>
  `${appUrl}/accept-invitation?token=${encodeURIComponent(token)}`;

/** Nobody changes or revokes an invitation for a role above their own (it would hand them that role's link). */
function refuseHigherInvitation(viewer: UserRow, invitation: InvitationRow) {
  if (!roleAtLeast(viewer.role as RoleName, invitation.role as RoleName)) {
    throw forbidden(`a ${viewer.role} does not administer an invitation for a ${invitation.role}`);
  }
}

/** Revokes an unaccepted invitation of the company: its link stops working. */
export async function revokeInvitation(scope: RequestScope, id: number): Promise<true> {
  const { viewer, tenant } = requireInviter(scope);
  const invitation = await scope.db.invitation.findUnique({ where: { id } });
  if (!invitation || invitation.companyId !== tenant.id) throw notFound('invitation', id);
  refuseHigherInvitation(viewer, invitation);
  if (invitation.acceptedAt) throw conflict('the invitation has already been accepted');
  await scope.write((tx) =>
    tx.invitation.update({ where: { id }, data: { revokedAt: invitation.revokedAt ?? scope.now } }),
  );
  return true;
}

export interface AcceptInvitationInput {
  jwt: string;
  name: string;
  password: string;
  email?: string;
  /** Values of the company's extra fields: every required one that applies to the invitation's areas. */
  extraFields?: ExtraFieldValues | null;
}

/**
 * Public: creates the invited user (the invitation's company, role and areas) and logs them in. A refused accept
 * counts against the register throttle (`client`, per address and link); an accepted one is given back. The seats
 * are checked before the password is hashed, and again when the seat is taken.
 */
export async function acceptInvitation(
  scope: RequestScope,
  client: ThrottledClient,
  input: AcceptInvitationInput,
): Promise<{ token: string; user: UserRow }> {
  return counted(client, `invitation:${input.jwt}`, 'refused invitations from this address', 'given back', () =>
    accept(scope, client, input),
  );
}

async function accept(
  scope: RequestScope,
  client: ThrottledClient,
  input: AcceptInvitationInput,
): Promise<{ token: string; user: UserRow }> {
  const { jwt, name, password, email } = input;
  const invitation = await usableInvitation(scope, jwt);
  const company = await scope.db.company.findUniqueOrThrow({ where: { id: invitation.companyId } });
  // The link's holder learns where to sign in instead; the invitation stays usable if the company switches back.
  if (!passwordAllowed(company, invitation.role)) throw passwordRefused(scope.config.sso.publicUrl, company);
  const fullName = personName(name);
  if (!fullName) throw badInput('name must not be empty', 'name');
  const address = invitation.email ?? text(email, 'email')?.toLowerCase() ?? '';
  if (!isEmailAddress(address)) throw badInput('email is required and must be a valid e-mail address', 'email');
  const policyProblem = passwordPolicyViolation(password, company.passwordPolicy as PasswordPolicyName);
  if (policyProblem) throw badInput(policyProblem, 'password');
  // The fields are asked where the invitation places the person: nowhere when the company turned areas off.
  const placedIn = company.disableAreas ? [] : areaIdsOf(invitation);
  const extraFields = await extraFieldsOrRefusal(scope, company.id, input.extraFields ?? [], placedIn);
  await refuseWhenFull(scope, company);
  const passwordHash = await passwordWorkFor(company.id, client.ip).hash(password);

  const user = await scope.write(async (tx) => {
    // Claim the invitation first: of two concurrent accepts, one finds it already taken.
    const claimed = await tx.invitation.updateMany({
      where: { id: invitation.id, acceptedAt: null, revokedAt: null },
      data: { acceptedAt: scope.now },
    });
    if (claimed.count === 0) throw conflict('the invitation has already been accepted');
    await takeSeat(scope, tx, company.id);
    if (await tx.user.findFirst({ where: { companyId: company.id, email: address }, select: { id: true } }))
      throw conflict(`${address} is already registered in this company`);
    return tx.user.create({
      data: {
        ...DEFAULT_USER_JSON,
        extraFields,
        companyId: company.id,
        email: address,
        name: fullName,
        role: invitation.role,
        passwordHash,
        // The link went to this address: opening it proves it.
        emailVerified: invitation.email !== null,
        externalId: invitation.externalId ?? address,
        loginProviderId: address,
        // A company that turned areas off since the invitation was made places nobody: the person still joins.
        areaLevel1Id: company.disableAreas ? null : invitation.areaLevel1Id,
        areaLevel2Id: company.disableAreas ? null : invitation.areaLevel2Id,
        areaLevel3Id: company.disableAreas ? null : invitation.areaLevel3Id,
        loginCount: 1,
        lastActiveDate: scope.now,
      },
    });
  });
  const token = await signAccessToken(
    { userId: user.id, companyId: user.companyId, role: user.role, tokenVersion: user.tokenVersion },
    scope.config.jwtSecret,
    scope.config.jwtTtlSeconds,
  );
  return { token, user };
}

/**
 * Changes an invitation of the company (PATCH /invitations/:id). Every check runs before anything is written, and
 * the changed invitation is checked where it ends up as creating it there would be (checkInvitationPlace).
 */
export async function updateInvitation(
  scope: RequestScope,
  id: number,
  input: UpdateInvitationArgs,
): Promise<InvitationRow> {
  const { viewer, tenant } = scope.requireTenant();
  if (id < 1) throw badInput('id must be a positive integer', 'id');
  requireInviter(scope);
  const invitation = await scope.db.invitation.findUnique({ where: { id } });
  if (!invitation || invitation.companyId !== tenant.id) throw notFound('invitation', id);
  if (invitation.acceptedAt) throw conflict('the invitation has already been accepted');
  refuseHigherInvitation(viewer, invitation);

  let company = tenant;
  if (input.company && input.company.id !== invitation.companyId) {
    const target = await scope.db.company.findUnique({ where: { id: input.company.id } });
    if (!target || target.deletedAt) throw badInput(`company ${input.company.id} not found`, 'company');
    company = target;
  }

  const email = text(input.email, 'email');
  if (email !== undefined && email !== null && !isEmailAddress(email))
    throw badInput('email is not a valid e-mail address', 'email');
  const normalizedEmail = email?.toLowerCase();

  // Areas: the ones given replace the old; when the company changes, areas not given are cleared because
  // they belong to the old company, and so they are where the company turned areas off (disableAreas).
  const keep = company.id === invitation.companyId && !company.disableAreas;
  const placement = {
    areaLevel1Id:
      input.areaLevel1 !== undefined ? (input.areaLevel1?.id ?? null) : keep ? invitation.areaLevel1Id : null,
    areaLevel2Id:
      input.areaLevel2 !== undefined ? (input.areaLevel2?.id ?? null) : keep ? invitation.areaLevel2Id : null,
    areaLevel3Id:
      input.areaLevel3 !== undefined ? (input.areaLevel3?.id ?? null) : keep ? invitation.areaLevel3Id : null,
  };
  const role = (input.role ?? invitation.role) as RoleName;
  const finalEmail = normalizedEmail !== undefined ? normalizedEmail : invitation.email;
  // The invitation as it would be after the change, checked as creating it there is.
  await checkInvitationPlace(scope, viewer, company, {
    role,
    email: finalEmail,
    placement,
    invitationId: id,
    arrives: company.id !== invitation.companyId,
  });
  const companyId = company.id;

  const data = {
    externalId: text(input.externalId, 'externalId'),
    name: personName(input.name),
    email: normalizedEmail,
    role: input.role ? role : undefined,
    companyId,
    ...placement,
  };
  try {
    return await scope.write((tx) => tx.invitation.update({ where: { id }, data }));
  } catch (err) {
    // Two writers racing for the same e-mail: the unique index decides.
    if (isUniqueViolation(err)) throw conflict(`${finalEmail} is already invited to this company`);
    throw err;
  }
}
