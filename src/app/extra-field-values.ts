// A person's values for their company's extra fields, checked against its definitions wherever an account gets
// them: sign-up, an accepted invitation, a profile change, an admin's change.
import { badInput } from '../domain/errors.ts';
import { checkExtraFieldValues, requiredExtraFields, type ExtraFieldValue } from '../domain/extra-fields.ts';
import type { RequestScope } from './scope.ts';

export type ExtraFieldValues = Array<{ name: string; value: ExtraFieldValue }>;

/** The values to store, or BAD_USER_INPUT on extraFields naming the field (a required one left out included). */
export async function extraFieldsOrRefusal(
  scope: RequestScope,
  companyId: number,
  values: ExtraFieldValues,
  areaIds: number[],
): Promise<ExtraFieldValues> {
  const defs = await scope.db.companyExtraField.findMany({ where: { companyId }, orderBy: { order: 'asc' } });
  const checked = checkExtraFieldValues(defs, values, areaIds);
  if (!checked.ok) throw badInput(checked.message, checked.field);
  return checked.values;
}

/** The areas a placement names, for the fields asked only in some areas (onlyForAreas). */
export const areaIdsOf = (placement: {
  areaLevel1Id: number | null;
  areaLevel2Id: number | null;
  areaLevel3Id: number | null;
}): number[] =>
  [placement.areaLevel1Id, placement.areaLevel2Id, placement.areaLevel3Id].filter((id): id is number => id != null);

/**
 * The company's required fields that a person joining with this placement must answer (what an invitation's page
 * asks before acceptInvitation); read through the request's loader.
 */
export async function requiredExtraFieldsFor(
  scope: RequestScope,
  placement: {
    companyId: number;
    areaLevel1Id: number | null;
    areaLevel2Id: number | null;
    areaLevel3Id: number | null;
  },
) {
  const [defs, company] = await Promise.all([
    scope.loaders.extraFieldsByCompany.load(placement.companyId),
    scope.loaders.company.load(placement.companyId),
  ]);
  // A company with areas turned off places the person nowhere (acceptInvitation), so no area's fields apply.
  return requiredExtraFields(defs, company?.disableAreas ? [] : areaIdsOf(placement));
}
