// The area tree rules (src/domain/areas.ts) over the rows they concern: read here, checked there. Used by the
// operations that create areas or place people and invitations, and by the demo seed.
import type { Db } from '../db/client.ts';
import { forbidden } from '../domain/errors.ts';
import {
  checkAreaParent,
  checkNewArea,
  checkPlacement,
  placementIds,
  type AreaPlacement,
  type NewArea,
} from '../domain/areas.ts';

type Tx = Pick<Db, 'area'>;
type PlacementTx = Pick<Db, 'area' | 'company'>;

/** Creates an area after checking it against the tree; an `AreaRuleError` names the broken rule. */
export async function insertArea(tx: Tx, input: NewArea) {
  const name = checkNewArea(input);
  if (input.parentAreaId != null)
    checkAreaParent(input, await tx.area.findUnique({ where: { id: input.parentAreaId } }));
  return tx.area.create({
    data: { companyId: input.companyId, name, level: input.level, parentAreaId: input.parentAreaId ?? null },
  });
}

/**
 * Checks a placement against the company's area rows; an `AreaRuleError` names the broken rule. A company with
 * disableAreas places nobody (FORBIDDEN); clearing a placement is always allowed. Every placement (an admin's, a
 * self-assignment at sign-up, an invitation's) comes through here.
 */
export async function checkAreaPlacement(tx: PlacementTx, companyId: number, placement: AreaPlacement): Promise<void> {
  const given = placementIds(placement).filter((id): id is number => id != null);
  if (given.length === 0) return;
  await refuseWhenAreasDisabled(tx, companyId);
  checkPlacement(companyId, placement, await tx.area.findMany({ where: { id: { in: given } } }));
}

/** FORBIDDEN when the company turned areas off (disableAreas): no placement, no area ranking. */
export async function refuseWhenAreasDisabled(tx: Pick<Db, 'company'>, companyId: number): Promise<void> {
  const company = await tx.company.findUnique({ where: { id: companyId }, select: { disableAreas: true } });
  if (company?.disableAreas) throw forbidden('areas are turned off in this company (disableAreas)');
}
