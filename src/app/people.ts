// People in a company: admins (and the company's reseller, and managers) list them, change their name, role,
// areas and extra fields, deactivate, reactivate and delete them; each person changes their own profile within
// the company's switches, their password, and deletes their own account where the company allows it.
//
// Deactivating sets deletedAt: no login, tokens stop at once, out of rankings and lists; reactivating clears it.
// Deleting anonymizes for good (anonymize, below): predictions and standings stay (rankings leave deleted people
// out), posts and comments stay under "Deleted user"; what is personal or could reach the person goes.
import { passwordPolicyViolation, type PasswordPolicyName, type PasswordWork } from '../auth/passwords.ts';
import { ROLE_RANK, isRole, roleAtLeast, type RoleName } from '../domain/roles.ts';
import type { Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { UserRow } from '../db/rows.ts';
import { containsLiterally, Prisma } from '../db/sql.ts';
import { aliased, Model, query, rowsOf } from '../db/typed-sql.ts';
import { areaRuleField, AreaRuleError } from '../domain/areas.ts';
import { checkAreaPlacement } from './areas.ts';
import { DEFAULT_USER_JSON } from '../domain/defaults.ts';
import { badInput, conflict, forbidden, notFound } from '../domain/errors.ts';
import type { ExtraFieldValue } from '../domain/extra-fields.ts';
import { extraFieldsOrRefusal } from './extra-field-values.ts';
import { checkPersonName, emailInput, httpUrlInput } from '../domain/inputs.ts';
import { paging } from '../domain/paging.ts';
import { passwordAllowed, passwordRefused } from './login-strategy.ts';
import { countAttempt, passwordWorkFor, type ThrottledClient } from './password-client.ts';
import { recordAudit } from './audit.ts';
import type { RequestScope } from './scope.ts';
import { announceRevocation, REVOKE_SESSIONS } from './sessions.ts';
import { takeSeat } from './seats.ts';
import { recountAfterUserChange } from '../game/round-wins.ts';
import { queueVerification } from './sign-up.ts';

const MAX_NAME = 200;
export const DELETED_USER_NAME = 'Deleted user';

const adminOf = (scope: RequestScope) =>
  scope.requireRole('admin', "only admins, the company's reseller and managers administer its people");

export interface UsersArgs {
  search?: string | null;
  role?: string | null;
  areaId?: number | null;
  deactivated?: boolean | null;
  skip?: number | null;
  take?: number | null;
}

interface PeopleFilter {
  provider: string;
  companyId: number;
  deactivated: boolean;
  term: string;
  role: RoleName | null;
  areaId: number | null;
}

/** A page of a company's people by name, as filtered (never the deleted). */
const peoplePage = query({ id: 'number' }, (f: PeopleFilter, skip: number, take: number) => {
  const u = aliased(Model.User, 'u');
  const where = [Prisma.sql`${u.c('companyId')} = ${f.companyId}`, Prisma.sql`${u.c('anonymizedAt')} IS NULL`];
  where.push(f.deactivated ? Prisma.sql`${u.c('deletedAt')} IS NOT NULL` : Prisma.sql`${u.c('deletedAt')} IS NULL`);
  if (f.term) where.push(containsLiterally(f.provider, [u.c('name'), u.c('email')], f.term));
  if (f.role !== null) where.push(Prisma.sql`${u.c('role')} = ${f.role}`);
  const id = f.areaId;
  if (id !== null)
    where.push(
      Prisma.sql`(${u.c('areaLevel1Id')} = ${id} OR ${u.c('areaLevel2Id')} = ${id} OR ${u.c('areaLevel3Id')} = ${id})`,
    );
  return Prisma.sql`
    SELECT ${u.c('id')} AS "id" FROM ${u} WHERE ${Prisma.join(where, ' AND ')}
    ORDER BY ${u.c('name')}, ${u.c('id')} LIMIT ${take} OFFSET ${skip}`;
});

/** The tenant's people by name; `deactivated: true` lists the deactivated ones instead. Deleted people never. */
export async function users(scope: RequestScope, args: UsersArgs): Promise<UserRow[]> {
  const { tenant } = adminOf(scope);
  const page = paging(args.skip, args.take);
  const term = args.search?.trim() ?? '';
  if (term.length > 100) throw badInput('search must be at most 100 characters', 'search');
  if (args.role != null && !isRole(args.role))
    throw badInput(`role must be one of ${Object.keys(ROLE_RANK).join(', ')}`, 'role');
  if (args.areaId != null) {
    const area = await scope.loaders.area.load(args.areaId);
    if (!area || area.companyId !== tenant.id)
      throw badInput(`area ${args.areaId} is not an area of this company`, 'areaId');
  }
  const filter: PeopleFilter = {
    provider: scope.config.database.provider,
    companyId: tenant.id,
    deactivated: Boolean(args.deactivated),
    term,
    role: (args.role ?? null) as RoleName | null,
    areaId: args.areaId ?? null,
  };
  const rows = await rowsOf(scope.db, peoplePage, filter, page.skip, page.take);
  const found = await scope.db.user.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
  const byId = new Map(found.map((u) => [u.id, u]));
  return rows.map((r) => byId.get(r.id)!).filter(Boolean);
}

/** A person of the tenant the caller may administer: no one above the caller's own role. */
async function administeredUser(scope: RequestScope, userId: number, { includeDeactivated = true } = {}) {
  const { viewer, tenant } = adminOf(scope);
  const user = await scope.db.user.findFirst({
    where: { id: userId, companyId: tenant.id, anonymizedAt: null, ...(includeDeactivated ? {} : { deletedAt: null }) },
  });
  if (!user) throw notFound('user', userId);
  if (!roleAtLeast(viewer.role as RoleName, user.role as RoleName)) {
    throw forbidden(`a ${viewer.role} does not administer a ${user.role}`);
  }
  return { viewer, tenant, user };
}

async function placementOrRefusal(scope: RequestScope, companyId: number, placement: Record<string, number | null>) {
  try {
    await checkAreaPlacement(scope.db, companyId, placement);
  } catch (err) {
    if (err instanceof AreaRuleError) throw badInput(err.message, areaRuleField(err));
    throw err;
  }
}

const cleanName = (name: string) => {
  const t = name.trim();
  checkPersonName(t);
  if (!t || t.length > MAX_NAME) throw badInput(`name must have 1 to ${MAX_NAME} characters`, 'name');
  return t;
};

export interface UpdateUserArgs {
  name?: string | null;
  role?: string | null;
  areaLevel1Id?: number | null;
  areaLevel2Id?: number | null;
  areaLevel3Id?: number | null;
  extraFields?: Array<{ name: string; value: ExtraFieldValue }> | null;
}

/** Left out: unchanged. Areas given replace the placement as a whole (null clears a level). */
export async function updateUser(scope: RequestScope, userId: number, input: UpdateUserArgs): Promise<UserRow> {
  const { viewer, tenant, user } = await administeredUser(scope, userId);
  const data: Record<string, unknown> = {};
  if (input.name != null) data.name = cleanName(input.name);
  if (input.role != null && input.role !== user.role) {
    if (!isRole(input.role)) throw badInput(`role must be one of ${Object.keys(ROLE_RANK).join(', ')}`, 'role');
    if (user.id === viewer.id) throw forbidden('nobody changes their own role');
    if (!roleAtLeast(viewer.role as RoleName, input.role))
      throw forbidden(`a ${viewer.role} may not grant the role ${input.role}`);
    if (input.role === 'reseller' && !tenant.isReseller) {
      throw badInput('the reseller role exists in reseller companies', 'role');
    }
    data.role = input.role;
    Object.assign(data, REVOKE_SESSIONS); // tokens of the old role end: the person signs in as what they are now
  }
  const placesAreas = ['areaLevel1Id', 'areaLevel2Id', 'areaLevel3Id'].some((k) => k in input);
  const placement = {
    areaLevel1Id: placesAreas ? (input.areaLevel1Id ?? null) : user.areaLevel1Id,
    areaLevel2Id: placesAreas ? (input.areaLevel2Id ?? null) : user.areaLevel2Id,
    areaLevel3Id: placesAreas ? (input.areaLevel3Id ?? null) : user.areaLevel3Id,
  };
  if (placesAreas) {
    await placementOrRefusal(scope, tenant.id, placement);
    Object.assign(data, placement);
  }
  if (input.extraFields != null) {
    const areaIds = Object.values(placement).filter((id): id is number => id != null);
    data.extraFields = await extraFieldsOrRefusal(scope, tenant.id, input.extraFields, areaIds);
  }
  if (Object.keys(data).length === 0) return user;
  const updated = await scope.write(async (tx) => {
    const row = await tx.user.update({ where: { id: user.id }, data });
    if ('role' in data) {
      const change = { before: { role: user.role }, after: { role: row.role } };
      await recordAudit(tx, scope.now, { kind: 'ROLE_CHANGED', ...about(tenant.id, viewer, user), ...change });
      // Round wins among players are kept (round-wins.ts): the rounds they won may have other winners now.
      if ((user.role === 'player') !== (row.role === 'player')) await recountAfterUserChange(tx, user);
    }
    return row;
  });
  if ('tokenVersion' in data) announceRevocation(scope, user.id);
  return updated;
}

/** Who an audit entry of a change to a person names: the company, the admin acting and the person. */
const about = (companyId: number, viewer: UserRow, user: UserRow) => ({
  companyId,
  actorId: viewer.id,
  targetUserId: user.id,
});

export async function setUserActive(scope: RequestScope, userId: number, active: boolean): Promise<UserRow> {
  const { viewer, tenant, user } = await administeredUser(scope, userId);
  if (user.id === viewer.id) throw forbidden('nobody deactivates themselves (deleteMyAccount closes an account)');
  if (active === (user.deletedAt === null)) return user;
  const row = await scope.write(async (tx) => {
    if (active) await takeSeat(scope, tx, tenant.id);
    // Deactivation ends every session for good: a reactivation does not bring the old tokens back.
    const data = active ? { deletedAt: null } : { deletedAt: scope.now, ...REVOKE_SESSIONS };
    const row = await tx.user.update({ where: { id: user.id }, data });
    await recountAfterUserChange(tx, user);
    const kind = active ? 'USER_REACTIVATED' : 'USER_DEACTIVATED';
    const change = { before: { active: !active }, after: { active } };
    await recordAudit(tx, scope.now, { kind, ...about(tenant.id, viewer, user), ...change });
    return row;
  });
  if (!active) announceRevocation(scope, user.id);
  return row;
}

/** Erases the person for good; what the game needs (predictions, standings) stays, anonymous. */
async function anonymize(tx: Tx, user: UserRow, now: Date): Promise<void> {
  await tx.user.update({
    where: { id: user.id },
    data: {
      ...DEFAULT_USER_JSON,
      name: DELETED_USER_NAME,
      // Not an address anyone can enter (the space fails every e-mail check), so nobody can hold it first.
      email: `deleted ${user.id}@deleted.invalid`,
      externalId: `deleted-${user.id}`,
      loginProviderId: `deleted-${user.id}`,
      passwordHash: null,
      recoverPasswordToken: null,
      profilePictureUrl: null,
      portraitPictureUrl: null,
      timezone: null,
      deletedAt: user.deletedAt ?? now,
      anonymizedAt: now,
      ...REVOKE_SESSIONS,
    },
  });
  await tx.accountToken.deleteMany({ where: { userId: user.id } });
  await tx.outgoingEmail.deleteMany({ where: { to: user.email } });
  await tx.firebaseToken.deleteMany({ where: { userId: user.id } });
  await tx.notification.deleteMany({ where: { userId: user.id } });
  await tx.internalRankingMembership.deleteMany({ where: { userId: user.id } });
  await tx.internalRankingInvitation.deleteMany({ where: { invitedUserId: user.id, status: 'PENDING' } });
  if (user.deletedAt === null) await recountAfterUserChange(tx, user);
}

export async function deleteUser(scope: RequestScope, userId: number): Promise<true> {
  const { viewer, tenant, user } = await administeredUser(scope, userId);
  if (user.id === viewer.id) throw forbidden('delete your own account with deleteMyAccount');
  await scope.write(async (tx) => {
    await anonymize(tx, user, scope.now);
    // Nothing of the person is kept in the entry: they are erased, the entry says only who did it and when.
    await recordAudit(tx, scope.now, { kind: 'USER_DELETED', ...about(tenant.id, viewer, user) });
  });
  announceRevocation(scope, user.id);
  return true;
}

export interface UpdateMeArgs {
  name?: string | null;
  email?: string | null;
  preferredLanguage?: string | null;
  timezone?: string | null;
  profilePictureUrl?: string | null;
  portraitPictureUrl?: string | null;
  showInitialTour?: boolean | null;
  extraFields?: Array<{ name: string; value: ExtraFieldValue }> | null;
}

const isTimeZone = (zone: string) => {
  try {
    // Accepts every IANA name the runtime knows, aliases included (supportedValuesOf lists canonical ones only).
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length <= 64;
  } catch {
    return false;
  }
};

/** The caller's own profile; name and e-mail only where the company allows editing them. */
export async function updateMe(scope: RequestScope, input: UpdateMeArgs): Promise<UserRow> {
  const viewer = scope.requireViewer();
  const company = (await scope.loaders.company.load(viewer.companyId))!;
  const data: Record<string, unknown> = {};
  if (input.name != null && input.name.trim() !== viewer.name) {
    if (!company.allowUserNameEdit) throw forbidden(`${company.name} does not let people change their name`);
    data.name = cleanName(input.name);
  }
  let newEmail: string | null = null;
  if (input.email != null && input.email.trim().toLowerCase() !== viewer.email) {
    if (!company.allowUserEmailEdit) throw forbidden(`${company.name} does not let people change their e-mail`);
    newEmail = emailInput(input.email);
    data.email = newEmail;
    // The new address is not proven yet.
    data.emailVerified = false;
  }
  if (input.preferredLanguage != null) {
    if (!/^[a-z]{2}(?:-[A-Z]{2})?$/.test(input.preferredLanguage)) {
      throw badInput('preferredLanguage must be a language code like es or pt-BR', 'preferredLanguage');
    }
    data.preferredLanguage = input.preferredLanguage;
  }
  if (input.timezone !== undefined) {
    if (input.timezone !== null && !isTimeZone(input.timezone)) {
      throw badInput('timezone must be an IANA time zone like America/Argentina/Buenos_Aires', 'timezone');
    }
    data.timezone = input.timezone;
  }
  if (input.profilePictureUrl !== undefined)
    data.profilePictureUrl = httpUrlInput(input.profilePictureUrl, 'profilePictureUrl');
  if (input.portraitPictureUrl !== undefined)
    data.portraitPictureUrl = httpUrlInput(input.portraitPictureUrl, 'portraitPictureUrl');
  if (input.showInitialTour != null) data.showInitialTour = input.showInitialTour;
  if (input.extraFields != null) {
    const areaIds = [viewer.areaLevel1Id, viewer.areaLevel2Id, viewer.areaLevel3Id].filter(
      (id): id is number => id != null,
    );
    data.extraFields = await extraFieldsOrRefusal(scope, viewer.companyId, input.extraFields, areaIds);
  }
  if (Object.keys(data).length === 0) return viewer;
  const updated = await scope
    .write(async (tx) => {
      const row = await tx.user.update({ where: { id: viewer.id }, data });
      // A reset link sent to the old address must not prove the new one.
      if (newEmail) {
        await tx.accountToken.updateMany({ where: { userId: viewer.id, usedAt: null }, data: { usedAt: scope.now } });
      }
      if (newEmail && company.requiresEmailVerification) await queueVerification(tx, scope, row, company);
      return row;
    })
    .catch((err) => {
      if (isUniqueViolation(err)) throw conflict(`${newEmail} already has an account in ${company.name}`, 'email');
      throw err;
    });
  if (newEmail && company.requiresEmailVerification) scope.mail.wake();
  return updated;
}

/**
 * The caller's password, proven by the current one. The proof counts like a login of the caller's e-mail from this
 * address (the login throttle, `client`), and for the account from every address: past the limit even the right
 * password is refused until the window ends; the right one clears the count.
 */
export async function changePassword(
  scope: RequestScope,
  client: ThrottledClient,
  currentPassword: string,
  newPassword: string,
): Promise<true> {
  const viewer = scope.requireViewer();
  const company = (await scope.loaders.company.load(viewer.companyId))!;
  // The caller knows their own company's loginStrategy: refused before any password work.
  if (!passwordAllowed(company, viewer.role)) throw passwordRefused(scope.config.sso.publicUrl, company);
  // The policy first: a new password it refuses costs no derivation and proves nothing.
  const problem = passwordPolicyViolation(newPassword, company.passwordPolicy as PasswordPolicyName);
  if (problem) throw badInput(problem, 'newPassword');
  // Every session ends, this one included (the response is a Boolean, not a token): the caller signs in again.
  await provePassword(client, viewer, currentPassword, 'currentPassword', async (work) => {
    const passwordHash = await work.hash(newPassword);
    await scope.write(async (tx) => {
      await tx.user.update({ where: { id: viewer.id }, data: { passwordHash, ...REVOKE_SESSIONS } });
      // A reset link asked for before the change would undo it.
      await tx.accountToken.updateMany({
        where: { userId: viewer.id, purpose: 'passwordReset', usedAt: null },
        data: { usedAt: scope.now },
      });
    });
  });
  announceRevocation(scope, viewer.id);
  return true;
}

/**
 * Checks the caller's password as a counted attempt (see changePassword), then runs `then` with the caller's lane
 * of password work. A wrong password stays counted; a right one clears the count; a failure of `then` or of the
 * database gives the attempt back (the password was right, or not checked).
 */
async function provePassword(
  client: ThrottledClient,
  viewer: UserRow,
  password: string,
  field: string,
  then: (work: PasswordWork) => Promise<void>,
): Promise<void> {
  const attempt = await countAttempt(client, viewer.email, 'wrong passwords', viewer.id);
  const work = passwordWorkFor(viewer.companyId, client.ip);
  let right: boolean;
  try {
    right = await work.verify(password, viewer.passwordHash);
  } catch (err) {
    await attempt.cancelled();
    throw err;
  }
  if (!right) throw badInput(`${field} is wrong`, field);
  await attempt.succeeded();
  await then(work);
}

/** Where the company allows it (allowUserDeleteAccount), with the password as proof. */
export async function deleteMyAccount(scope: RequestScope, client: ThrottledClient, password: string): Promise<true> {
  const viewer = scope.requireViewer();
  const company = (await scope.loaders.company.load(viewer.companyId))!;
  if (!company.allowUserDeleteAccount)
    throw forbidden(`${company.name} does not let people delete their account: ask an admin`);
  await provePassword(client, viewer, password, 'password', async () => {
    await scope.write((tx) => anonymize(tx, viewer, scope.now));
  });
  announceRevocation(scope, viewer.id);
  return true;
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const peopleSql = { peoplePage };
