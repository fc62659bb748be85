// The area tree rule: a level-1 area has no parent; a level-n area's parent is the same company's level n-1.
// A user or invitation sits on a path of that tree: areaLevel2 is a child of areaLevel1, and so on. The rows these
// checks need are read by src/app/areas.ts.

export class AreaRuleError extends Error {
  readonly code = 'BAD_USER_INPUT';
}

export const AREA_LEVELS = [1, 2, 3] as const;

/** What the rules read of an area row. */
export interface AreaNode {
  id: number;
  companyId: number;
  level: number;
  parentAreaId: number | null;
}

export interface NewArea {
  companyId: number;
  name: string;
  level: number;
  parentAreaId?: number | null;
}

export interface AreaPlacement {
  areaLevel1Id?: number | null;
  areaLevel2Id?: number | null;
  areaLevel3Id?: number | null;
}

/** The placement field a broken rule concerns (areaLevel2Id, ...), for inputs that name areas by id. */
export const areaRuleField = (err: AreaRuleError) => `areaLevel${/^areaLevel(\d)/.exec(err.message)?.[1] ?? 1}Id`;

/** Checks a new area's name and level and whether it names a parent; returns the trimmed name. */
export function checkNewArea(input: NewArea): string {
  const name = input.name.trim();
  if (!name) throw new AreaRuleError('area name must not be empty');
  if (!AREA_LEVELS.includes(input.level as 1 | 2 | 3))
    throw new AreaRuleError(`area level must be 1, 2 or 3, got ${input.level}`);
  if (input.level === 1) {
    if (input.parentAreaId != null) throw new AreaRuleError('a level-1 area has no parent');
  } else if (input.parentAreaId == null) {
    throw new AreaRuleError(`a level-${input.level} area needs a level-${input.level - 1} parent`);
  }
  return name;
}

/** Checks the parent row a new area of level 2 or 3 names (null: no such row). */
export function checkAreaParent(input: NewArea, parent: AreaNode | null): void {
  if (!parent || parent.companyId !== input.companyId)
    throw new AreaRuleError(`parent area ${input.parentAreaId} not found in this company`);
  if (parent.level !== input.level - 1) {
    throw new AreaRuleError(
      `a level-${input.level} area's parent must be at level ${input.level - 1}, area ${parent.id} is at level ` +
        `${parent.level}`,
    );
  }
}

/** The area ids a placement names, level 1 first. */
export const placementIds = (placement: AreaPlacement) =>
  [placement.areaLevel1Id, placement.areaLevel2Id, placement.areaLevel3Id] as const;

/**
 * Checks that the areas exist in `companyId` (`areas`: the rows of the ids given), sit at the level their slot
 * names, and form one path (a level-2 area's parent is the level-1 area given, and so on). A deeper level needs the
 * shallower one.
 */
export function checkPlacement(companyId: number, placement: AreaPlacement, areas: readonly AreaNode[]): void {
  const ids = placementIds(placement);
  const byId = new Map(areas.map((a) => [a.id, a]));
  for (const [i, id] of ids.entries()) {
    const level = i + 1;
    if (id == null) {
      if (ids.slice(i + 1).some((deeper) => deeper != null)) {
        throw new AreaRuleError(`areaLevel${level} is required when a deeper area level is given`);
      }
      continue;
    }
    const area = byId.get(id);
    if (!area || area.companyId !== companyId)
      throw new AreaRuleError(`areaLevel${level}: area ${id} not found in this company`);
    if (area.level !== level)
      throw new AreaRuleError(`areaLevel${level}: area ${id} is at level ${area.level}, not ${level}`);
    if (level > 1 && area.parentAreaId !== ids[i - 1]) {
      throw new AreaRuleError(
        `areaLevel${level}: area ${id} is not a child of areaLevel${level - 1} area ${ids[i - 1]}`,
      );
    }
  }
}
