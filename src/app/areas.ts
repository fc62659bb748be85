// The area tree rules (src/domain/areas.ts) over the rows they concern: read here, checked there. Used by the
// operations that create areas or place people and invitations, and by the demo seed.
import type { Db } from '../db/client.ts';
import {
  checkAreaParent,
  checkNewArea,
  checkPlacement,
  placementIds,
  type AreaPlacement,
  type NewArea,
} from '../domain/areas.ts';

type Tx = Pick<Db, 'area'>;

/** Creates an area after checking it against the tree; an `AreaRuleError` names the broken rule. */
export async function insertArea(tx: Tx, input: NewArea) {
  const name = checkNewArea(input);
  if (input.parentAreaId != null)
    checkAreaParent(input, await tx.area.findUnique({ where: { id: input.parentAreaId } }));
  return tx.area.create({
    data: { companyId: input.companyId, name, level: input.level, parentAreaId: input.parentAreaId ?? null },
  });
}

/** Checks a placement against the company's area rows; an `AreaRuleError` names the broken rule. */
export async function checkAreaPlacement(tx: Tx, companyId: number, placement: AreaPlacement): Promise<void> {
  const given = placementIds(placement).filter((id): id is number => id != null);
  if (given.length === 0) return;
  checkPlacement(companyId, placement, await tx.area.findMany({ where: { id: { in: given } } }));
}
