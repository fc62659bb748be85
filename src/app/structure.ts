// A company's structure, set up by its admins (and its reseller, and managers) for the company the request acts
// on: the three-level area tree, news, and the extra fields people fill in (spec 2.5, 2.7).
import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '../db/errors.ts';
import type { AreaRow } from '../db/rows.ts';
import { AREA_LEVELS, AreaRuleError } from '../domain/areas.ts';
import { insertArea, refuseWhenAreasDisabled } from './areas.ts';
import { jsonObject } from '../domain/defaults.ts';
import { badInput, conflict, notFound } from '../domain/errors.ts';
import { httpUrlInput, textInput } from '../domain/inputs.ts';
import { paging } from '../domain/paging.ts';
import type { RequestScope } from './scope.ts';

const adminOf = (scope: RequestScope) =>
  scope.requireRole('admin', "only admins, the company's reseller and managers set up its structure");

// --- Areas -------------------------------------------------------------------------------------------------------

async function tenantArea(scope: RequestScope, companyId: number, areaId: number, field = 'areaId'): Promise<AreaRow> {
  const area = await scope.db.area.findUnique({ where: { id: areaId } });
  if (!area || area.companyId !== companyId) {
    throw field === 'areaId'
      ? notFound('area', areaId)
      : badInput(`area ${areaId} is not an area of this company`, field);
  }
  return area;
}

/** The unique index cannot see two level-1 areas (no parent: NULLs differ in SQL), so siblings are checked here. */
async function refuseSibling(
  scope: RequestScope,
  companyId: number,
  parentAreaId: number | null,
  name: string,
  self?: number,
) {
  const twin = await scope.db.area.findFirst({
    where: { companyId, parentAreaId, name, ...(self ? { id: { not: self } } : {}) },
    select: { id: true },
  });
  if (twin) throw conflict(`an area named "${name}" already exists at that place`, 'name');
}

const siblingTaken = (err: unknown, name: string) => {
  if (isUniqueViolation(err)) throw conflict(`an area named "${name}" already exists at that place`, 'name');
  throw err;
};

/** Under `parentAreaId` (one level deeper), or at level 1 without it. */
export async function createArea(scope: RequestScope, input: { name: string; parentAreaId?: number | null }) {
  const { tenant } = adminOf(scope);
  const name = textInput(input.name, 'name', 100);
  const parent =
    input.parentAreaId == null ? null : await tenantArea(scope, tenant.id, input.parentAreaId, 'parentAreaId');
  if (parent && parent.level >= AREA_LEVELS.length)
    throw badInput('areas go three levels deep at most', 'parentAreaId');
  await refuseSibling(scope, tenant.id, parent?.id ?? null, name);
  return scope
    .write((tx) =>
      insertArea(tx, { companyId: tenant.id, name, level: parent ? parent.level + 1 : 1, parentAreaId: parent?.id }),
    )
    .catch((err) => {
      if (err instanceof AreaRuleError) throw badInput(err.message, 'parentAreaId');
      return siblingTaken(err, name);
    });
}

/** Renames an area (its place in the tree stays). */
export async function updateArea(scope: RequestScope, areaId: number, input: { name: string }) {
  const { tenant } = adminOf(scope);
  const area = await tenantArea(scope, tenant.id, areaId);
  const name = textInput(input.name, 'name', 100);
  await refuseSibling(scope, tenant.id, area.parentAreaId, name, area.id);
  return scope
    .write((tx) => tx.area.update({ where: { id: area.id }, data: { name } }))
    .catch((err) => siblingTaken(err, name));
}

/**
 * Refused while the area has sub-areas, or people or open invitations are placed in it, unless `moveTo` names
 * another area of the same level: they move there (with its parents), all in one transaction. With disableAreas a
 * move is refused like any placement.
 */
export async function deleteArea(scope: RequestScope, areaId: number, moveTo?: number | null): Promise<true> {
  const { tenant } = adminOf(scope);
  const area = await tenantArea(scope, tenant.id, areaId);
  if (await scope.db.area.count({ where: { parentAreaId: area.id } })) {
    throw conflict(`area ${area.name} has sub-areas: delete or empty them first`);
  }
  const column = `areaLevel${area.level}Id` as const;
  const placed = { [column]: area.id };
  const [people, invitations] = await Promise.all([
    scope.db.user.count({ where: placed }),
    scope.db.invitation.count({ where: { ...placed, acceptedAt: null } }),
  ]);
  let path: Record<string, number | null> | null = null;
  if (people + invitations > 0) {
    if (moveTo == null) {
      throw conflict(
        `${people} people and ${invitations} open invitations are placed in ${area.name}: ` +
          'name an area of the same level to move them to (moveUsersToAreaId)',
      );
    }
    // A move places people in another area: not while the company has areas turned off (clear them instead).
    await refuseWhenAreasDisabled(scope.db, tenant.id);
    const target = await tenantArea(scope, tenant.id, moveTo, 'moveUsersToAreaId');
    if (target.id === area.id || target.level !== area.level) {
      throw badInput(`move them to another level-${area.level} area`, 'moveUsersToAreaId');
    }
    path = await pathTo(scope, target);
  }
  await scope.write(async (tx) => {
    // Checked again in the transaction: someone placed in the area, or a sub-area made, since the checks above
    // gets the same refusal, not a foreign-key error.
    const [children, stillPlaced] = await Promise.all([
      tx.area.count({ where: { parentAreaId: area.id } }),
      path ? 0 : tx.user.count({ where: placed }),
    ]);
    if (children > 0) throw conflict(`area ${area.name} has sub-areas: delete or empty them first`);
    if (stillPlaced > 0) throw conflict(`people were placed in ${area.name} meanwhile: name an area to move them to`);
    if (path) {
      await tx.user.updateMany({ where: placed, data: path });
      await tx.invitation.updateMany({ where: placed, data: path });
    }
    // Accepted invitations keep a record of where they placed people; the area is gone, so is that link.
    await tx.invitation.updateMany({ where: placed, data: { [column]: null } });
    await tx.area.delete({ where: { id: area.id } });
  });
  return true;
}

async function pathTo(scope: RequestScope, area: AreaRow): Promise<Record<string, number | null>> {
  const path: Record<string, number | null> = { areaLevel1Id: null, areaLevel2Id: null, areaLevel3Id: null };
  for (let at: AreaRow | null = area; at;) {
    path[`areaLevel${at.level}Id`] = at.id;
    at = at.parentAreaId == null ? null : await scope.db.area.findUnique({ where: { id: at.parentAreaId } });
  }
  return path;
}

// --- News --------------------------------------------------------------------------------------------------------

export interface NewsInput {
  title?: string | null;
  body?: string | null;
  imageUrl?: string | null;
  publishedAt?: Date | null;
}

function newsData(input: NewsInput, creating: boolean) {
  const data: Record<string, unknown> = {};
  if (creating || input.title !== undefined) data.title = textInput(input.title, 'title', 200);
  if (creating || input.body !== undefined) data.body = textInput(input.body, 'body', 20_000);
  if (input.imageUrl !== undefined) data.imageUrl = httpUrlInput(input.imageUrl, 'imageUrl');
  if (input.publishedAt != null) data.publishedAt = input.publishedAt;
  return data;
}

/** Published news of the tenant, newest first; admins also see what is scheduled. None where disableNews. */
export async function news(scope: RequestScope, args: { skip?: number | null; take?: number | null }) {
  const { viewer, tenant } = scope.requireTenant();
  const page = paging(args.skip, args.take);
  const administers = viewer.role !== 'player';
  if (tenant.disableNews && !administers) return [];
  return scope.db.news.findMany({
    where: { companyId: tenant.id, ...(administers ? {} : { publishedAt: { lte: scope.now } }) },
    orderBy: [{ publishedAt: 'desc' }, { id: 'desc' }],
    skip: page.skip,
    take: page.take,
  });
}

export async function createNews(scope: RequestScope, input: NewsInput) {
  const { tenant } = adminOf(scope);
  const data = newsData(input, true);
  return scope.write((tx) =>
    tx.news.create({ data: { publishedAt: scope.now, ...data, companyId: tenant.id } as never }),
  );
}

async function tenantNews(scope: RequestScope, companyId: number, newsId: number) {
  const row = await scope.db.news.findUnique({ where: { id: newsId } });
  if (!row || row.companyId !== companyId) throw notFound('news', newsId);
  return row;
}

export async function updateNews(scope: RequestScope, newsId: number, input: NewsInput) {
  const { tenant } = adminOf(scope);
  const row = await tenantNews(scope, tenant.id, newsId);
  const data = newsData(input, false);
  return scope.write((tx) => tx.news.update({ where: { id: row.id }, data }));
}

export async function deleteNews(scope: RequestScope, newsId: number): Promise<true> {
  const { tenant } = adminOf(scope);
  const row = await tenantNews(scope, tenant.id, newsId);
  await scope.write((tx) => tx.news.delete({ where: { id: row.id } }));
  return true;
}

// --- Extra-field definitions -------------------------------------------------------------------------------------

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,59}$/;
const FIELD_TYPES = ['string', 'number', 'boolean', 'email', 'date', 'country', 'state', 'city', 'select'];

export interface ExtraFieldInput {
  name?: string | null;
  kind?: string | null;
  type?: string | null;
  isRequired?: boolean | null;
  group?: object | null;
  locationScope?: {
    countries?: Array<{ code: string; name: string }>;
    states?: Array<{ code: string; name: string }>;
  } | null;
  onlyForAreas?: number[] | null;
  settings?: object | null;
}

/** `type` and `settings`: what the field will have (a select needs options, given now or already stored). */
async function extraFieldData(
  scope: RequestScope,
  companyId: number,
  input: ExtraFieldInput,
  type: string,
  storedSettings: unknown = null,
) {
  const data: Record<string, unknown> = {};
  if (input.name !== undefined) {
    if (!input.name || !FIELD_NAME.test(input.name)) {
      throw badInput('name must start with a letter and hold letters, digits or _ (at most 60)', 'name');
    }
    data.name = input.name;
  }
  if (input.kind !== undefined) data.kind = textInput(input.kind, 'kind', 60);
  if (input.type !== undefined) {
    if (!input.type || !FIELD_TYPES.includes(input.type))
      throw badInput(`type must be one of ${FIELD_TYPES.join(', ')}`, 'type');
    data.type = input.type;
  }
  if (input.isRequired != null) data.isRequired = input.isRequired;
  if (input.group !== undefined) data.group = input.group;
  if (input.settings !== undefined) data.settings = input.settings;
  if (input.locationScope !== undefined) data.locationScope = locationScope(input.locationScope);
  if (input.onlyForAreas !== undefined) {
    const ids = input.onlyForAreas ?? [];
    const found = await scope.db.area.count({ where: { companyId, id: { in: ids } } });
    if (found !== new Set(ids).size) throw badInput('onlyForAreas must list areas of this company', 'onlyForAreas');
    data.onlyForAreas = ids.length ? ids : null;
  }
  if (type === 'select') {
    const options = jsonObject(data.settings !== undefined ? data.settings : storedSettings).options;
    if (
      !Array.isArray(options) ||
      options.length === 0 ||
      !options.every((o) => typeof o === 'string' && o.length <= 200)
    ) {
      throw badInput('a select field needs settings.options: a list of texts', 'settings');
    }
  }
  return data;
}

const PLACE = (p: unknown) => {
  const o = jsonObject(p);
  return typeof o.code === 'string' && typeof o.name === 'string' && o.code.length <= 20 && o.name.length <= 100;
};

function locationScope(scope: unknown) {
  if (scope === null) return null;
  const o = jsonObject(scope);
  const ok =
    Object.keys(o).every((k) => k === 'countries' || k === 'states') &&
    [o.countries, o.states].every(
      (list) => list === undefined || (Array.isArray(list) && list.length <= 500 && list.every(PLACE)),
    );
  if (!ok) throw badInput('locationScope holds countries and states: lists of { code, name }', 'locationScope');
  return o;
}

const nameTaken = (err: unknown) => {
  if (isUniqueViolation(err)) throw conflict('another extra field of this company has that name', 'name');
  throw err;
};

export async function createExtraField(scope: RequestScope, input: ExtraFieldInput) {
  const { tenant } = adminOf(scope);
  for (const field of ['name', 'kind', 'type'] as const)
    if (input[field] == null) throw badInput(`${field} is required`, field);
  const data = await extraFieldData(scope, tenant.id, input, input.type!);
  return scope
    .write(async (tx) => {
      const last = await tx.companyExtraField.aggregate({ where: { companyId: tenant.id }, _max: { order: true } });
      return tx.companyExtraField.create({
        data: { id: randomUUID(), ...data, companyId: tenant.id, order: (last._max.order ?? 0) + 1 } as never,
      });
    })
    .catch(nameTaken);
}

async function tenantExtraField(scope: RequestScope, companyId: number, id: string) {
  const row = await scope.db.companyExtraField.findUnique({ where: { id } });
  if (!row || row.companyId !== companyId) throw notFound('extra field', id);
  return row;
}

/** The name stays (people's values are stored under it); everything else may change. */
export async function updateExtraField(scope: RequestScope, id: string, input: ExtraFieldInput) {
  const { tenant } = adminOf(scope);
  const row = await tenantExtraField(scope, tenant.id, id);
  if (input.name != null && input.name !== row.name) throw badInput("an extra field's name does not change", 'name');
  const data = await extraFieldData(
    scope,
    tenant.id,
    { ...input, name: undefined },
    input.type ?? row.type,
    row.settings,
  );
  return scope.write((tx) => tx.companyExtraField.update({ where: { id: row.id }, data }));
}

/** `ids` is every extra field of the company, in the order people see them. */
export async function reorderExtraFields(scope: RequestScope, ids: string[]) {
  const { tenant } = adminOf(scope);
  const rows = await scope.db.companyExtraField.findMany({ where: { companyId: tenant.id } });
  const known = new Set(rows.map((r) => r.id));
  if (ids.length !== rows.length || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) {
    throw badInput(`ids must list each of the company's ${rows.length} extra fields once`, 'ids');
  }
  return scope.write(async (tx) => {
    for (const [i, id] of ids.entries()) await tx.companyExtraField.update({ where: { id }, data: { order: i + 1 } });
    return tx.companyExtraField.findMany({ where: { companyId: tenant.id }, orderBy: { order: 'asc' } });
  });
}

/** Deletes the definition and every person's value for it, in one transaction. */
export async function deleteExtraField(scope: RequestScope, id: string): Promise<true> {
  const { tenant } = adminOf(scope);
  const row = await tenantExtraField(scope, tenant.id, id);
  await scope.write(async (tx) => {
    const users = await tx.user.findMany({ where: { companyId: tenant.id }, select: { id: true, extraFields: true } });
    for (const user of users) {
      const values = Array.isArray(user.extraFields) ? (user.extraFields as Array<{ name?: unknown }>) : [];
      const kept = values.filter((v) => v?.name !== row.name);
      if (kept.length !== values.length)
        await tx.user.update({ where: { id: user.id }, data: { extraFields: kept as never } });
    }
    await tx.companyExtraField.delete({ where: { id: row.id } });
  });
  return true;
}
