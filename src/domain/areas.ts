// The area tree rule: a level-1 area has no parent; a level-n area's parent is the same company's level n-1.
// A user or invitation sits on a path of that tree: areaLevel2 is a child of areaLevel1, and so on.
import type { Db } from '../db/client.ts';

type Tx = Pick<Db, 'area'>;

export class AreaRuleError extends Error {
  readonly code = 'BAD_USER_INPUT';
}

export const AREA_LEVELS = [1, 2, 3] as const;

/** The placement field a broken rule concerns (areaLevel2Id, ...), for inputs that name areas by id. */
export const areaRuleField = (err: AreaRuleError) => `areaLevel${/^areaLevel(\d)/.exec(err.message)?.[1] ?? 1}Id`;

export async function createArea(
  tx: Tx,
  input: { companyId: number; name: string; level: number; parentAreaId?: number | null },
) {
  const name = input.name.trim();
  if (!name) throw new AreaRuleError('area name must not be empty');
  if (!AREA_LEVELS.includes(input.level as 1 | 2 | 3))
    throw new AreaRuleError(`area level must be 1, 2 or 3, got ${input.level}`);
  if (input.level === 1) {
    if (input.parentAreaId != null) throw new AreaRuleError('a level-1 area has no parent');
  } else {
    if (input.parentAreaId == null)
      throw new AreaRuleError(`a level-${input.level} area needs a level-${input.level - 1} parent`);
    const parent = await tx.area.findUnique({ where: { id: input.parentAreaId } });
    if (!parent || parent.companyId !== input.companyId)
      throw new AreaRuleError(`parent area ${input.parentAreaId} not found in this company`);
    if (parent.level !== input.level - 1) {
      throw new AreaRuleError(
        `a level-${input.level} area's parent must be at level ${input.level - 1}, area ${parent.id} is at level ` +
          `${parent.level}`,
      );
    }
  }
  return tx.area.create({
    data: { companyId: input.companyId, name, level: input.level, parentAreaId: input.parentAreaId ?? null },
  });
}

export interface AreaPlacement {
  areaLevel1Id?: number | null;
  areaLevel2Id?: number | null;
  areaLevel3Id?: number | null;
}

/**
 * Checks that the areas exist in `companyId`, sit at the level their slot names, and form one path
 * (a level-2 area's parent is the level-1 area given, and so on). A deeper level needs the shallower one.
 */
export async function checkAreaPlacement(tx: Tx, companyId: number, placement: AreaPlacement): Promise<void> {
  const ids = [placement.areaLevel1Id, placement.areaLevel2Id, placement.areaLevel3Id];
  const given = ids.filter((id): id is number => id != null);
  if (given.length === 0) return;
  const rows = await tx.area.findMany({ where: { id: { in: given } } });
  const byId = new Map(rows.map((a) => [a.id, a]));
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
