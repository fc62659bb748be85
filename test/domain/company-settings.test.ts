// The rules of company settings, without I/O: every setting the API takes has one authority and one check, and
// the checks accept what the spec allows and refuse the rest.
import { isInputObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { checkCompanySettings, COMPANY_SETTINGS } from '../../src/domain/company-settings.ts';
import { getSchema } from '../../src/graphql/schema.ts';

describe('company settings', () => {
  it('every field of UpdateCompanyInput has a rule, and every rule a field', () => {
    const input = getSchema().getType('UpdateCompanyInput');
    if (!isInputObjectType(input)) throw new Error('UpdateCompanyInput is missing');
    // Who manages the company and its dream finals are checked against other rows (src/app/company-admin.ts).
    const fields = Object.keys(input.getFields()).filter(
      (f) => !['resellerCompanyId', 'dreamFinalsSettings'].includes(f),
    );
    expect(fields.sort()).toEqual(Object.keys(COMPANY_SETTINGS).sort());
  });

  const current = { featureSettings: { rankings: { visibleAreaRankings: 'own' } } };
  const cases: Array<[string, Record<string, unknown>, 'ok' | string]> = [
    [
      'a partial featureSettings merges into the stored one',
      { featureSettings: { areas: { selfAssignOnSignUp: true } } },
      'ok',
    ],
    ['an unknown featureSettings path', { featureSettings: { areas: { colour: 'red' } } }, 'featureSettings'],
    [
      'minUsersForAreaRanking below zero',
      { featureSettings: { areas: { minUsersForAreaRanking: -1 } } },
      'featureSettings',
    ],
    ['an app path is lower-cased', { appPath: 'Sales-Team' }, 'ok'],
    ['an app path with a slash', { appPath: 'a/b' }, 'appPath'],
    ['loginStrategy 2', { loginStrategy: 2 }, 'loginStrategy'],
    ['a plan outside full and lite', { purchasedPlan: 'gold' }, 'purchasedPlan'],
    ['an http logo', { logoUrl: 'http://cdn.example.test/l.png' }, 'ok'],
    ['a data: logo', { logoUrl: 'data:image/png;base64,AAAA' }, 'logoUrl'],
    [
      'a forbidden type that is not a notification',
      { notificationSettings: { forbiddenTypes: ['spam'] } },
      'notificationSettings',
    ],
    ['a theme of 5 KB', { theme: { css: 'x'.repeat(5000) } }, 'theme'],
    ['a rounds definition with a label', { combinedRoundsRankingDefinitions: ['Knockouts:4,5,6'] }, 'ok'],
    ['an empty name', { name: ' ' }, 'name'],
    ['an unknown setting', { skipLoginToken: 'x' }, 'skipLoginToken'],
  ];
  it.each(cases)('%s', (_what, input, expected) => {
    const r = checkCompanySettings(input, current);
    if (expected === 'ok') expect(r.ok).toBe(true);
    else expect(r).toMatchObject({ ok: false, field: expected });
  });

  it('keeps what a partial object leaves out, and says which authorities a change needs', () => {
    const r = checkCompanySettings(
      { featureSettings: { areas: { selfAssignOnSignUp: true } }, maxUsersAmount: 10 },
      current,
    );
    if (!r.ok) throw new Error(r.message);
    expect((r.data.featureSettings as { rankings: unknown }).rankings).toMatchObject({ visibleAreaRankings: 'own' });
    expect([...r.authorities].sort()).toEqual(['admin', 'reseller']);
  });
});
