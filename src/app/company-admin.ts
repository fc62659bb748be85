// Companies as operators run them: managers create any company (resellers too) and delete them; a reseller creates
// companies its own company manages; settings change by updateCompany, each setting by whoever its authority
// names (src/domain/company-settings.ts). A company the caller may not administer is NOT_FOUND, as if it did not
// exist.
import { canActOnBehalf } from '../auth/request-auth.ts';
import { companyByCode } from '../db/company-code.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { CompanyRow, UserRow } from '../db/rows.ts';
import { changedFields } from '../domain/audit.ts';
import { checkCompanySettings, COMPANY_SETTINGS, type SettingAuthority } from '../domain/company-settings.ts';
import { DEFAULT_COMPANY_JSON } from '../domain/defaults.ts';
import { badInput, conflict, forbidden, notFound } from '../domain/errors.ts';
import { recordAudit } from './audit.ts';
import { companyProviderOnly, LOGIN_COMPANY_PROVIDER_ONLY, voidPasswordLinks } from './login-strategy.ts';
import type { RequestScope } from './scope.ts';

export type CompanySettingsArgs = Record<string, unknown>;
export interface CreateCompanyArgs extends CompanySettingsArgs {
  name: string;
  code: string;
  resellerCompanyId?: number | null;
}

const UNIQUE = ['code', 'appPath', 'appCustomDomain'] as const;

/** What the caller's role lets them change on `company`. */
export function holds(
  viewer: UserRow,
  company: Pick<CompanyRow, 'id' | 'resellerCompanyId'>,
  authority: SettingAuthority,
) {
  if (viewer.role === 'manager') return true;
  if (authority === 'manager') return false;
  const managesIt = viewer.role === 'reseller' && company.resellerCompanyId === viewer.companyId;
  if (authority === 'reseller') return managesIt;
  return managesIt || (company.id === viewer.companyId && ['admin', 'reseller'].includes(viewer.role));
}

function settingsOrRefusal(input: CompanySettingsArgs, current: Record<string, unknown>) {
  const checked = checkCompanySettings(input, current);
  if (!checked.ok) throw badInput(checked.message, checked.field);
  return checked;
}

function refuseUnheld(
  viewer: UserRow,
  company: Pick<CompanyRow, 'id' | 'resellerCompanyId'>,
  data: Record<string, unknown>,
) {
  const unheld = Object.keys(data).filter((field) => !holds(viewer, company, COMPANY_SETTINGS[field].authority));
  if (unheld.length === 0) return;
  const by = (f: string) =>
    COMPANY_SETTINGS[f].authority === 'manager' ? 'managers' : "the company's reseller and managers";
  throw forbidden(`${unheld.join(', ')} ${unheld.length > 1 ? 'are' : 'is'} changed only by ${by(unheld[0])}`);
}

async function refuseTaken(scope: RequestScope, data: Record<string, unknown>, exceptId?: number) {
  if (typeof data.code === 'string') {
    // Codes are unique without regard to case (x-app-company matches them so); deleted companies' stay reserved.
    const other = await companyByCode(scope.db, data.code, { exceptId });
    if (other)
      throw conflict(
        other.code === data.code
          ? `code "${data.code}" belongs to another company`
          : `code "${data.code}" differs only in case from "${other.code}", another company's (codes are unique ` +
              'without regard to case)',
        'code',
      );
  }
  for (const field of UNIQUE) {
    const value = data[field];
    if (value == null || field === 'code') continue;
    const other = await scope.db.company.findFirst({
      where: { [field]: value, ...(exceptId ? { id: { not: exceptId } } : {}) },
      select: { id: true },
    });
    if (other) throw conflict(`${field} "${value}" belongs to another company`, field);
  }
}

const takenOnWrite = (err: unknown) => {
  // Two writes claiming one code at once: the unique index let one through.
  if (isUniqueViolation(err)) throw conflict('the code, app path or domain was just taken by another company');
  throw err;
};

export async function createCompany(scope: RequestScope, input: CreateCompanyArgs): Promise<CompanyRow> {
  const { viewer } = scope.requireRole('reseller', 'only resellers and managers create companies');
  const { resellerCompanyId, ...settings } = input;
  let managedBy: number | null = null;
  if (viewer.role === 'reseller') {
    // The role alone is not enough: the caller's company must be a reseller (managers decide that).
    const own = await scope.loaders.company.load(viewer.companyId);
    if (!own?.isReseller) throw forbidden('only resellers and managers create companies');
    if (resellerCompanyId != null && resellerCompanyId !== viewer.companyId) {
      throw forbidden('a reseller creates companies managed by its own company');
    }
    managedBy = viewer.companyId;
  } else if (resellerCompanyId != null) {
    const reseller = await scope.db.company.findFirst({ where: { id: resellerCompanyId, deletedAt: null } });
    if (!reseller?.isReseller) throw badInput(`company ${resellerCompanyId} is not a reseller`, 'resellerCompanyId');
    managedBy = reseller.id;
  }
  const { data } = settingsOrRefusal(settings, {});
  refuseUnheld(viewer, { id: -1, resellerCompanyId: managedBy }, data);
  await refuseTaken(scope, data);
  return scope
    .write((tx) =>
      tx.company.create({ data: { ...DEFAULT_COMPANY_JSON, ...data, resellerCompanyId: managedBy } as never }),
    )
    .catch(takenOnWrite);
}

/** The company, if the caller may administer it (their own as an admin, or one they manage); else NOT_FOUND. */
export async function administered(scope: RequestScope, viewer: UserRow, companyId: number): Promise<CompanyRow> {
  const company = await scope.db.company.findFirst({ where: { id: companyId, deletedAt: null } });
  if (!company || (company.id !== viewer.companyId && !canActOnBehalf(viewer, company))) {
    throw notFound('company', companyId);
  }
  return company;
}

export async function updateCompany(
  scope: RequestScope,
  companyId: number,
  input: CompanySettingsArgs & { resellerCompanyId?: number | null; dreamFinalsSettings?: DreamFinalsInput[] | null },
): Promise<CompanyRow> {
  const { viewer } = scope.requireRole('admin', "only admins, resellers and managers change a company's settings");
  const company = await administered(scope, viewer, companyId);
  const { resellerCompanyId, dreamFinalsSettings, ...settings } = input;
  const dreams = dreamFinalsSettings == null ? [] : await checkDreamFinals(scope, company, dreamFinalsSettings);
  const { data } = settingsOrRefusal(settings, company as unknown as Record<string, unknown>);
  refuseUnheld(viewer, company, data);
  if (dreams.length && !holds(viewer, company, 'admin')) throw forbidden('dreamFinalsSettings is changed by admins');
  if (resellerCompanyId !== undefined) {
    if (viewer.role !== 'manager') throw forbidden('resellerCompanyId is changed only by managers');
    if (resellerCompanyId !== null) {
      const reseller = await scope.db.company.findFirst({ where: { id: resellerCompanyId, deletedAt: null } });
      if (!reseller?.isReseller || reseller.id === company.id) {
        throw badInput(`company ${resellerCompanyId} is not another reseller`, 'resellerCompanyId');
      }
    }
    data.resellerCompanyId = resellerCompanyId;
  }
  if (Object.keys(data).length === 0 && dreams.length === 0) return company;
  await refuseTaken(scope, data, company.id);
  return scope
    .write(async (tx) => {
      const change = changedFields(company as unknown as Record<string, unknown>, data);
      if (dreams.length) {
        const tournaments = dreams.map((d) => d.tournamentId);
        const current = await tx.dreamFinalsSetting.findMany({
          where: { companyId: company.id, tournamentId: { in: tournaments } },
        });
        change.before.dreamFinalsSettings = current.map(({ id: _id, companyId: _c, externalId: _e, ...d }) => d);
        change.after.dreamFinalsSettings = dreams;
      }
      if (Object.keys(change.after).length > 0)
        await recordAudit(tx, scope.now, {
          kind: 'COMPANY_SETTINGS_CHANGED',
          companyId: company.id,
          actorId: viewer.id,
          ...change,
        });
      for (const d of dreams) {
        const { tournamentId, ...values } = d;
        await tx.dreamFinalsSetting.upsert({
          where: { companyId_tournamentId: { companyId: company.id, tournamentId } },
          create: { companyId: company.id, tournamentId, ...values },
          update: values,
        });
      }
      if (data.loginStrategy === LOGIN_COMPANY_PROVIDER_ONLY && !companyProviderOnly(company))
        await voidPasswordLinks(tx, company.id, scope.now);
      return tx.company.update({ where: { id: company.id }, data: data as never });
    })
    .catch(takenOnWrite);
}

export interface DreamFinalsInput {
  tournamentId: number;
  awardedPositions: number;
  awardedPoints: number;
  limitRoundId: number;
  isEnabled?: boolean | null;
}

/**
 * A company's dream finals per tournament it plays (a game option: its admins set them): the positions picked,
 * the points of a right pick, and the round whose start closes the picks. Once picks are made, only isEnabled
 * changes: the picks were made for those rules.
 */
async function checkDreamFinals(scope: RequestScope, company: CompanyRow, list: DreamFinalsInput[]) {
  const field = 'dreamFinalsSettings';
  if (list.length > 20) throw badInput(`${field} holds at most 20 tournaments`, field);
  if (new Set(list.map((d) => d.tournamentId)).size !== list.length) {
    throw badInput(`${field} names a tournament twice`, field);
  }
  const played = await scope.db.tournament.findMany({
    where: {
      deletedAt: null,
      OR: [{ ownerCompanyId: company.id }, { companies: { some: { companyId: company.id } } }],
    },
    select: { id: true },
  });
  const plays = new Set(played.map((t) => t.id));
  const out = [];
  for (const d of list) {
    if (!plays.has(d.tournamentId)) {
      throw badInput(`${field}: the company does not play tournament ${d.tournamentId}`, field);
    }
    if (!Number.isInteger(d.awardedPositions) || d.awardedPositions < 1 || d.awardedPositions > 8) {
      throw badInput(`${field}: awardedPositions must be from 1 to 8`, field);
    }
    if (!Number.isInteger(d.awardedPoints) || d.awardedPoints < 0 || d.awardedPoints > 1000) {
      throw badInput(`${field}: awardedPoints must be from 0 to 1000`, field);
    }
    const round = await scope.db.round.findUnique({ where: { id: d.limitRoundId } });
    if (!round || round.tournamentId !== d.tournamentId) {
      throw badInput(`${field}: round ${d.limitRoundId} is not a round of tournament ${d.tournamentId}`, field);
    }
    const current = await scope.db.dreamFinalsSetting.findUnique({
      where: { companyId_tournamentId: { companyId: company.id, tournamentId: d.tournamentId } },
      include: { _count: { select: { picks: true } } },
    });
    const rulesChange =
      current &&
      (current.awardedPositions !== d.awardedPositions ||
        current.awardedPoints !== d.awardedPoints ||
        current.limitRoundId !== d.limitRoundId);
    if (current && current._count.picks > 0 && rulesChange) {
      throw conflict(
        `${field}: people have picked for tournament ${d.tournamentId}; only isEnabled changes now`,
        field,
      );
    }
    out.push({ ...d, isEnabled: d.isEnabled ?? true });
  }
  return out;
}

/**
 * Soft delete: the company closes (its users' tokens stop working, its links open nothing) and its rows stay.
 * Its code, path and domain stay reserved.
 */
export async function deleteCompany(scope: RequestScope, companyId: number): Promise<true> {
  const { viewer } = scope.requireRole('manager', 'only managers delete companies');
  const company = await administered(scope, viewer, companyId);
  if (company.id === viewer.companyId) throw conflict('a manager does not delete their own company');
  const managed = await scope.db.company.count({ where: { resellerCompanyId: company.id, deletedAt: null } });
  if (managed > 0) {
    throw conflict(`${company.name} manages ${managed} companies: move them to another reseller or delete them first`);
  }
  await scope.write((tx) => tx.company.update({ where: { id: company.id }, data: { deletedAt: scope.now } }));
  return true;
}
