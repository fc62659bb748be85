// The area tree rules without I/O: a new area's level and parent, and a placement on one path of the tree, checked
// over the rows given (src/app/areas.ts reads them; test/db/constraints.test.ts runs the same over a database).
import { describe, expect, it } from 'vitest';
import {
  AreaRuleError,
  areaRuleField,
  checkAreaParent,
  checkNewArea,
  checkPlacement,
  type AreaNode,
} from '../../src/domain/areas.ts';

const area = (id: number, level: number, parentAreaId: number | null, companyId = 1): AreaNode => ({
  id,
  companyId,
  level,
  parentAreaId,
});
const l1 = area(10, 1, null);
const l2 = area(20, 2, 10);
const l3 = area(30, 3, 20);
const foreign = area(40, 1, null, 2);

describe('a new area', () => {
  it('takes a trimmed name at level 1 without a parent, or deeper under one', () => {
    expect(checkNewArea({ companyId: 1, name: '  North ', level: 1 })).toBe('North');
    expect(checkNewArea({ companyId: 1, name: 'Sales', level: 2, parentAreaId: 10 })).toBe('Sales');
  });

  it('refuses an empty name, a level outside 1-3, a level-1 parent and a missing deeper parent', () => {
    expect(() => checkNewArea({ companyId: 1, name: '  ', level: 1 })).toThrow(/must not be empty/);
    expect(() => checkNewArea({ companyId: 1, name: 'x', level: 4, parentAreaId: 30 })).toThrow(/1, 2 or 3/);
    expect(() => checkNewArea({ companyId: 1, name: 'x', level: 1, parentAreaId: 10 })).toThrow(/no parent/);
    expect(() => checkNewArea({ companyId: 1, name: 'x', level: 3 })).toThrow(AreaRuleError);
  });

  it('needs a parent of the same company, one level up', () => {
    const input = { companyId: 1, name: 'x', level: 2, parentAreaId: 10 };
    expect(() => checkAreaParent(input, l1)).not.toThrow();
    expect(() => checkAreaParent(input, null)).toThrow(/not found in this company/);
    expect(() => checkAreaParent({ ...input, parentAreaId: 40 }, foreign)).toThrow(/not found in this company/);
    expect(() => checkAreaParent({ ...input, level: 3 }, l1)).toThrow(/parent must be at level 2/);
  });
});

describe('a placement', () => {
  const rows = [l1, l2, l3, foreign];

  it('accepts one path of the tree, from level 1 down, and no placement at all', () => {
    expect(() => checkPlacement(1, { areaLevel1Id: 10, areaLevel2Id: 20, areaLevel3Id: 30 }, rows)).not.toThrow();
    expect(() => checkPlacement(1, { areaLevel1Id: 10 }, rows)).not.toThrow();
    expect(() => checkPlacement(1, {}, [])).not.toThrow();
  });

  it('refuses a skipped level, a wrong level, a broken path and an area of another company', () => {
    const refused = (placement: Parameters<typeof checkPlacement>[1], message: RegExp, field: string) => {
      let err: unknown;
      try {
        checkPlacement(1, placement, rows);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AreaRuleError);
      expect((err as AreaRuleError).message).toMatch(message);
      expect(areaRuleField(err as AreaRuleError)).toBe(field);
    };
    refused({ areaLevel2Id: 20 }, /areaLevel1 is required/, 'areaLevel1Id');
    refused({ areaLevel1Id: 20 }, /areaLevel1: area 20 is at level 2/, 'areaLevel1Id');
    refused({ areaLevel1Id: 10, areaLevel2Id: 20, areaLevel3Id: 99 }, /areaLevel3: area 99 not found/, 'areaLevel3Id');
    refused({ areaLevel1Id: 40 }, /not found in this company/, 'areaLevel1Id');
    refused({ areaLevel1Id: 10, areaLevel2Id: 21 }, /area 21 not found/, 'areaLevel2Id');
  });

  it('refuses a child placed under another parent', () => {
    const other = area(11, 1, null);
    const child = area(21, 2, 11);
    expect(() => checkPlacement(1, { areaLevel1Id: 10, areaLevel2Id: 21 }, [l1, other, child])).toThrow(
      /areaLevel2: area 21 is not a child of areaLevel1 area 10/,
    );
  });
});
