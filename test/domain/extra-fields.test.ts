// Extra-field values against their definitions (spec 2.5), without I/O.
import { describe, expect, it } from 'vitest';
import { checkExtraFieldValues, type ExtraFieldDefinition } from '../../src/domain/extra-fields.ts';

const def = (name: string, type: string, extra: Partial<ExtraFieldDefinition> = {}): ExtraFieldDefinition => ({
  name,
  type,
  isRequired: false,
  onlyForAreas: null,
  locationScope: null,
  settings: null,
  ...extra,
});
const DEFS = [
  def('employeeNumber', 'string', { isRequired: true }),
  def('age', 'number'),
  def('newsletter', 'boolean'),
  def('work', 'email'),
  def('birthday', 'date'),
  def('team', 'select', { settings: { options: ['Argentina', 'Spain'] } }),
  def('country', 'country', { locationScope: { countries: [{ code: 'AR', name: 'Argentina' }] } }),
  def('desk', 'string', { onlyForAreas: [7] }),
];
const base = [{ name: 'employeeNumber', value: 'E1' }];

describe('extra-field values', () => {
  const cases: Array<
    [string, Array<{ name: string; value: string | number | boolean | null }>, number[], true | RegExp]
  > = [
    ['the required field alone', base, [], true],
    ['the required field missing', [{ name: 'age', value: 3 }], [], /"employeeNumber" is required/],
    ['a number as text', [...base, { name: 'age', value: '3' }], [], /"age" must be a number/],
    ['a boolean', [...base, { name: 'newsletter', value: true }], [], true],
    ['a bad e-mail', [...base, { name: 'work', value: 'nope' }], [], /must be an e-mail/],
    ['an impossible date', [...base, { name: 'birthday', value: '2026-13-45' }], [], /must be a date/],
    ['an option', [...base, { name: 'team', value: 'Spain' }], [], true],
    ['not an option', [...base, { name: 'team', value: 'Narnia' }], [], /one of Argentina, Spain/],
    ['a country outside the scope', [...base, { name: 'country', value: 'BR' }], [], /one of AR/],
    ['a field for other areas', [...base, { name: 'desk', value: 'D1' }], [1], /not asked in these areas/],
    ['a field for the area the user is in', [...base, { name: 'desk', value: 'D1' }], [7], true],
    ['an unknown field', [...base, { name: 'shoe', value: 42 }], [], /not a field of this company/],
    ['a field twice', [...base, ...base], [], /names a field twice/],
  ];
  it.each(cases)('%s', (_what, values, areas, expected) => {
    const r = checkExtraFieldValues(DEFS, values, areas);
    if (expected === true) expect(r.ok).toBe(true);
    else expect(r.ok ? '' : r.message).toMatch(expected);
  });

  it('stores one value per field in definition order, trimmed, dropping empties', () => {
    const r = checkExtraFieldValues(
      DEFS,
      [
        { name: 'team', value: 'Spain' },
        { name: 'employeeNumber', value: ' E9 ' },
        { name: 'age', value: null },
      ],
      [],
    );
    expect(r).toEqual({
      ok: true,
      values: [
        { name: 'employeeNumber', value: 'E9' },
        { name: 'team', value: 'Spain' },
      ],
    });
  });
});
