// Companies as operators run them, over real HTTP: who creates, changes and closes a company, and which setting
// each role may change. Refusals name the field and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY_JSON } from '../../src/domain/defaults.ts';
import { isUniqueViolation } from '../../src/db/errors.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

const CREATE = `mutation($i: CreateCompanyInput!) {
  createCompany(input: $i) { id code appPath isReseller maxUsersAmount resellerCompany { id } featureSettings {
    rankings { visibleAreaRankings } } }
}`;
const UPDATE = `mutation($id: Int!, $i: UpdateCompanyInput!) {
  updateCompany(companyId: $id, input: $i) {
    id name logoUrl maxUsersAmount passwordPolicy banners { type link }
    featureSettings { areas { selfAssignOnSignUp minUsersForAreaRanking } rankings { visibleAreaRankings } }
  }
}`;
const DELETE = 'mutation($id: Int!) { deleteCompany(companyId: $id) }';

let s: TestServer;
let tokens: Record<'manager' | 'reseller' | 'admin' | 'player' | 'globexAdmin', string>;
beforeAll(async () => {
  s = await startTestServer();
  tokens = await s.loginAll(['manager', 'reseller', 'admin', 'player', 'globexAdmin']);
});
afterAll(() => s?.close());

type Errors = { errors?: Array<{ message: string; extensions: { code: string; argumentName?: string } }> };
const refusal = (r: Errors) =>
  r.errors?.[0] && { code: r.errors[0].extensions.code, field: r.errors[0].extensions.argumentName };
const as = (who: keyof typeof tokens) => bearer(tokens[who]);
const demoId = () => s.demo.companies.DEMO;

describe('createCompany', () => {
  it('managers create any company; its defaults are the spec shapes', async () => {
    const r = await s.gql(
      CREATE,
      { i: { name: 'Acme', code: 'ACME', appPath: 'Acme', isReseller: true } },
      as('manager'),
    );
    expect(refusal(r)).toBeUndefined();
    expect(r.data.createCompany).toMatchObject({
      code: 'ACME',
      appPath: 'acme',
      isReseller: true,
      maxUsersAmount: 100,
      resellerCompany: null,
      featureSettings: { rankings: { visibleAreaRankings: 'all' } },
    });
  });

  it('a reseller creates a company its own company manages, and may not make it a reseller', async () => {
    const r = await s.gql(CREATE, { i: { name: 'Initech', code: 'INITECH', appPath: 'initech' } }, as('reseller'));
    expect(r.data.createCompany.resellerCompany).toEqual({ id: s.demo.companies.PARTNERS });
    const reselling = await s.gql(CREATE, { i: { name: 'X', code: 'X1', isReseller: true } }, as('reseller'));
    expect(refusal(reselling)).toEqual({ code: 'FORBIDDEN', field: undefined });
    const elsewhere = await s.gql(
      CREATE,
      { i: { name: 'X', code: 'X2', resellerCompanyId: demoId() } },
      as('reseller'),
    );
    expect(refusal(elsewhere)?.code).toBe('FORBIDDEN');
  });

  it('refuses admins and players, taken or malformed codes, paths and domains, naming the field', async () => {
    const before = await s.t.db.prisma.company.count();
    expect(refusal(await s.gql(CREATE, { i: { name: 'X', code: 'X3' } }, as('admin')))?.code).toBe('FORBIDDEN');
    expect(refusal(await s.gql(CREATE, { i: { name: 'X', code: 'X4' } }, as('player')))?.code).toBe('FORBIDDEN');
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ code: 'DEMO' }, 'CONFLICT', 'code'],
      [{ code: 'NEW1', appPath: 'demo' }, 'CONFLICT', 'appPath'],
      [{ code: 'NEW2', appCustomDomain: 'prode.globex.test' }, 'CONFLICT', 'appCustomDomain'],
      [{ code: 'a b' }, 'BAD_USER_INPUT', 'code'],
      [{ code: 'NEW3', appPath: '-bad-' }, 'BAD_USER_INPUT', 'appPath'],
      [{ code: 'NEW4', appCustomDomain: 'not a domain' }, 'BAD_USER_INPUT', 'appCustomDomain'],
      [{ code: 'NEW5', maxUsersAmount: 0 }, 'BAD_USER_INPUT', 'maxUsersAmount'],
      [{ code: 'NEW6', resellerCompanyId: demoId() }, 'BAD_USER_INPUT', 'resellerCompanyId'],
    ];
    for (const [input, code, field] of cases) {
      const r = await s.gql(CREATE, { i: { name: 'New', ...input } }, as('manager'));
      expect(refusal(r), JSON.stringify(input)).toEqual({ code, field });
    }
    expect(await s.t.db.prisma.company.count()).toBe(before);
  });

  it('refuses a code that differs only in case from a taken one, on create and on update', async () => {
    const before = await s.t.db.prisma.company.count();
    for (const code of ['demo', 'Demo', 'gLoBeX']) {
      const r = await s.gql(CREATE, { i: { name: 'Case', code } }, as('manager'));
      expect(refusal(r), code).toEqual({ code: 'CONFLICT', field: 'code' });
      expect(r.errors![0].message).toMatch(/differs only in case from "(DEMO|GLOBEX)"/);
    }
    expect(await s.t.db.prisma.company.count()).toBe(before);
    const renamed = await s.gql(UPDATE, { id: demoId(), i: { code: 'globex' } }, as('manager'));
    expect(refusal(renamed)).toEqual({ code: 'CONFLICT', field: 'code' });
    // Its own code in another case is no conflict.
    const own = await s.gql(UPDATE, { id: demoId(), i: { code: 'Demo' } }, as('manager'));
    expect(own.errors).toBeUndefined();
    await s.gql(UPDATE, { id: demoId(), i: { code: 'DEMO' } }, as('manager'));
    // The database refuses it too, should a write skip the check (the unique index on lower("code")).
    const direct = s.t.db.prisma.company.create({ data: { ...DEFAULT_COMPANY_JSON, name: 'Case', code: 'globex' } });
    await expect(direct).rejects.toSatisfy(isUniqueViolation);
  });
});

describe('updateCompany', () => {
  it("an admin changes their company's look and game options, in part", async () => {
    const r = await s.gql(
      UPDATE,
      {
        id: demoId(),
        i: {
          logoUrl: 'https://cdn.example.test/logo.png',
          passwordPolicy: 'strong',
          banners: [{ type: 'superior', link: 'https://example.test' }],
          featureSettings: { areas: { selfAssignOnSignUp: true } },
        },
      },
      as('admin'),
    );
    expect(refusal(r)).toBeUndefined();
    expect(r.data.updateCompany).toMatchObject({
      logoUrl: 'https://cdn.example.test/logo.png',
      passwordPolicy: 'strong',
      banners: [{ type: 'superior', link: 'https://example.test' }],
      // What was left out keeps its value.
      featureSettings: {
        areas: { selfAssignOnSignUp: true, minUsersForAreaRanking: 3 },
        rankings: { visibleAreaRankings: 'all' },
      },
    });
  });

  it("an admin may not change the plan, limits or domains; the company's reseller may", async () => {
    const denied = await s.gql(UPDATE, { id: demoId(), i: { maxUsersAmount: 5000, name: 'Mine' } }, as('admin'));
    expect(refusal(denied)?.code).toBe('FORBIDDEN');
    expect(denied.errors?.[0].message).toMatch(/name, maxUsersAmount are changed only by the company's reseller/);
    const allowed = await s.gql(UPDATE, { id: demoId(), i: { maxUsersAmount: 5000 } }, as('reseller'));
    expect(allowed.data.updateCompany.maxUsersAmount).toBe(5000);
    const resells = await s.gql(UPDATE, { id: demoId(), i: { isReseller: true } }, as('reseller'));
    expect(refusal(resells)?.code).toBe('FORBIDDEN');
  });

  it("another company's admin gets NOT_FOUND, a player FORBIDDEN, and nothing changes", async () => {
    const before = await s.t.db.prisma.company.findUniqueOrThrow({ where: { id: demoId() } });
    expect(refusal(await s.gql(UPDATE, { id: demoId(), i: { logoUrl: null } }, as('globexAdmin')))?.code).toBe(
      'NOT_FOUND',
    );
    expect(refusal(await s.gql(UPDATE, { id: demoId(), i: { logoUrl: null } }, as('player')))?.code).toBe('FORBIDDEN');
    expect(refusal(await s.gql(UPDATE, { id: 999_999, i: { logoUrl: null } }, as('manager')))?.code).toBe('NOT_FOUND');
    expect(await s.t.db.prisma.company.findUniqueOrThrow({ where: { id: demoId() } })).toEqual(before);
  });

  it("admins set their company's dream finals; once people have picked, only isEnabled changes", async () => {
    const p = s.t.db.prisma;
    const setting = await p.dreamFinalsSetting.findFirstOrThrow({
      where: { companyId: demoId() },
      include: { _count: { select: { picks: true } } },
    });
    expect(setting._count.picks).toBeGreaterThan(0);
    const DREAMS = `mutation($id: Int!, $d: [DreamFinalsSettingInput!]) {
      updateCompany(companyId: $id, input: { dreamFinalsSettings: $d }) {
        dreamFinalsSettings { isEnabled awardedPoints } } }`;
    const same = {
      tournamentId: setting.tournamentId,
      awardedPositions: setting.awardedPositions,
      limitRoundId: setting.limitRoundId,
    };
    const changed = await s.gql(DREAMS, { id: demoId(), d: [{ ...same, awardedPoints: 99 }] }, as('admin'));
    expect(refusal(changed)).toEqual({ code: 'CONFLICT', field: 'dreamFinalsSettings' });
    const off = await s.gql(
      DREAMS,
      { id: demoId(), d: [{ ...same, awardedPoints: setting.awardedPoints, isEnabled: false }] },
      as('admin'),
    );
    expect(off.data.updateCompany.dreamFinalsSettings).toEqual([
      { isEnabled: false, awardedPoints: setting.awardedPoints },
    ]);
    const foreign = await p.tournament.create({
      data: { name: 'Not played', countryId: (await p.country.findFirstOrThrow()).id },
    });
    const notPlayed = await s.gql(
      DREAMS,
      { id: demoId(), d: [{ ...same, tournamentId: foreign.id, awardedPoints: 5 }] },
      as('admin'),
    );
    expect(refusal(notPlayed)).toEqual({ code: 'BAD_USER_INPUT', field: 'dreamFinalsSettings' });
    expect(refusal(await s.gql(DREAMS, { id: demoId(), d: [] }, as('player')))?.code).toBe('FORBIDDEN');
  });

  it('bad values are refused naming the setting', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ logoUrl: 'javascript:alert(1)' }, 'logoUrl'],
      [{ featureSettings: { rankings: { visibleAreaRankings: 'some' } } }, 'featureSettings'],
      [{ banners: [{ type: 'footer' }] }, 'banners'],
      [{ banners: [{ type: 'side' }, { type: 'side' }] }, 'banners'],
      [{ supportedLanguages: ['spanish'] }, 'supportedLanguages'],
      [{ combinedRoundsRankingDefinitions: ['Groups:1,x'] }, 'combinedRoundsRankingDefinitions'],
      [{ comingSoonModeTextColor: 'red' }, 'comingSoonModeTextColor'],
      [{ loginAnnouncementSeverity: 'loud' }, 'loginAnnouncementSeverity'],
      [{ disableAreas: null }, 'disableAreas'],
    ];
    for (const [input, field] of cases) {
      const r = await s.gql(UPDATE, { id: demoId(), i: input }, as('admin'));
      expect(refusal(r), JSON.stringify(input)).toEqual({ code: 'BAD_USER_INPUT', field });
    }
  });
});

describe('deleteCompany', () => {
  it('managers close a company: its users can no longer log in; others may not', async () => {
    const created = await s.gql(CREATE, { i: { name: 'Short-lived', code: 'GONE', appPath: 'gone' } }, as('manager'));
    const id = created.data.createCompany.id;
    expect(refusal(await s.gql(DELETE, { id }, as('reseller')))?.code).toBe('FORBIDDEN');
    expect((await s.gql(DELETE, { id }, as('manager'))).data).toEqual({ deleteCompany: true });
    expect(refusal(await s.gql(DELETE, { id }, as('manager')))?.code).toBe('NOT_FOUND');
    const own = await s.gql(DELETE, { id: s.demo.companies.PARTNERS }, as('manager'));
    expect(refusal(own)?.code).toBe('CONFLICT');
    // The admin of a closed company is logged out at once.
    const admin = await s.gql(DELETE, { id: demoId() }, as('manager'));
    expect(admin.data).toEqual({ deleteCompany: true });
    expect(refusal(await s.gql('{ me { id } }', {}, as('admin')))?.code).toBe('UNAUTHENTICATED');
  });
});
