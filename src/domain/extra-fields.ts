// A user's values for their company's extra fields (spec 2.5), checked against the definitions: a value only for
// a defined field that applies to the user's areas, of the field's type (and among its options or places), and
// every required field that applies given. Pure.
import { jsonObject } from './defaults.ts';
import { isEmailAddress } from './inputs.ts';

export interface ExtraFieldDefinition {
  name: string;
  type: string;
  isRequired: boolean;
  onlyForAreas: unknown;
  locationScope: unknown;
  settings: unknown;
}

export type ExtraFieldValue = string | number | boolean | null;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_TEXT = 500;

const codes = (list: unknown) =>
  Array.isArray(list) ? list.map((x) => String(jsonObject(x).code ?? '')).filter(Boolean) : [];

/** No value: null, or text that is only blanks (a required field is not answered with spaces). */
const isBlank = (value: ExtraFieldValue) => value === null || (typeof value === 'string' && value.trim() === '');

function valueProblem(def: ExtraFieldDefinition, value: ExtraFieldValue): string | null {
  if (isBlank(value)) return def.isRequired ? 'is required' : null;
  switch (def.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'email':
      return typeof value === 'string' && isEmailAddress(value) ? null : 'must be an e-mail address';
    case 'date':
      return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value))
        ? null
        : 'must be a date like 2026-06-11';
    case 'select': {
      const options = jsonObject(def.settings).options;
      const allowed = Array.isArray(options) ? options.map(String) : [];
      return typeof value === 'string' && allowed.includes(value) ? null : `must be one of ${allowed.join(', ')}`;
    }
    case 'country':
    case 'state': {
      if (typeof value !== 'string') return 'must be a code';
      const scope = jsonObject(def.locationScope)[def.type === 'country' ? 'countries' : 'states'];
      const allowed = codes(scope);
      return allowed.length === 0 || allowed.includes(value) ? null : `must be one of ${allowed.join(', ')}`;
    }
    default:
      return typeof value === 'string' && value.length <= MAX_TEXT
        ? null
        : `must be text of at most ${MAX_TEXT} characters`;
  }
}

const appliesTo = (def: ExtraFieldDefinition, areaIds: number[]) =>
  !Array.isArray(def.onlyForAreas) ||
  def.onlyForAreas.length === 0 ||
  def.onlyForAreas.some((id) => areaIds.includes(Number(id)));

/** The required fields a person placed in these areas must answer, in definition order. */
export const requiredExtraFields = <T extends ExtraFieldDefinition>(defs: T[], areaIds: number[]): T[] =>
  defs.filter((def) => def.isRequired && appliesTo(def, areaIds));

/** The values to store (one per field, in definition order), or the first problem with the field it concerns. */
export function checkExtraFieldValues(
  defs: ExtraFieldDefinition[],
  values: Array<{ name: string; value: ExtraFieldValue }>,
  areaIds: number[],
):
  | { ok: true; values: Array<{ name: string; value: ExtraFieldValue }> }
  | { ok: false; field: string; message: string } {
  const byName = new Map(values.map((v) => [v.name, v.value]));
  if (byName.size !== values.length)
    return { ok: false, field: 'extraFields', message: 'extraFields names a field twice' };
  for (const name of byName.keys()) {
    const def = defs.find((d) => d.name === name);
    if (!def)
      return { ok: false, field: 'extraFields', message: `extraFields: "${name}" is not a field of this company` };
    if (!appliesTo(def, areaIds))
      return { ok: false, field: 'extraFields', message: `extraFields: "${name}" is not asked in these areas` };
  }
  const out: Array<{ name: string; value: ExtraFieldValue }> = [];
  for (const def of defs) {
    if (!appliesTo(def, areaIds)) continue;
    const value = byName.get(def.name) ?? null;
    const problem = valueProblem(def, value);
    if (problem) return { ok: false, field: 'extraFields', message: `extraFields: "${def.name}" ${problem}` };
    if (!isBlank(value)) out.push({ name: def.name, value: typeof value === 'string' ? value.trim() : value });
  }
  return { ok: true, values: out };
}
