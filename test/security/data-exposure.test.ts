// What nested responses and searches reveal, over real HTTP with real JWTs on the demo data:
//   - a company's resellerCompany is the compact form with its lists cut off, for the company's users and for
//     anyone holding an invitation link (not the reseller's support e-mail, plan, admins, areas, tournaments);
//   - companiesSearch takes % and _ literally (they are LIKE wildcards), over GraphQL and REST, on either database;
//   - rankings and private leagues show colleagues as RankingUser (id, name, picture): no e-mail, extra fields,
//     role or login count; with disableRankingsUserNames a player sees no colleague in a ranking;
//   - a user's predictions are listed only for users of the request's tenant (docs/security.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { Loaders } from '../../src/loaders/registry.ts';
import { bearer, startTestServer, type GqlResult, type TestServer } from '../helpers/app.ts';
import { forgeInvitationLink } from '../helpers/tokens.ts';

let s: TestServer;
let tokens: Record<'player' | 'player2' | 'admin' | 'reseller' | 'manager', string>;
let ids: {
  demo: number;
  globex: number;
  partners: number;
  demoCup: number;
  player1: number;
  player2: number;
  demoAdmin: number;
  league: number;
};
let globexLink: string;

const PARTNERS_SECRETS = /support@partners\.test|partner\.admin@partners\.test|Partners Vault|partnerCode/;
/** Companies whose names carry LIKE's wildcards, the escape character used for them, and a backslash. */
const ODD_NAMES = ['Hundred% Club', 'Under_score Inc', 'Bang! Ltd', 'Back\\slash Co'];

beforeAll(async () => {
  s = await startTestServer();
  const p = s.t.db.prisma;
  const { companies, users, tournament: demoCup } = s.demo;
  const [demo, globex, partners] = [companies.DEMO, companies.GLOBEX, companies.PARTNERS];
  const [player1, player2] = [users['player1@demo.test'], users['player2@demo.test']];
  const demoAdmin = await p.user.findUniqueOrThrow({ where: { id: users['admin@demo.test'] } });

  // The reseller gets what its full form would show: a support e-mail, an admin, an area, an extra field and a
  // tournament it takes part in.
  await p.company.update({
    where: { id: partners },
    data: { supportEmail: 'support@partners.test', purchasedPlan: 'full' },
  });
  await p.user.create({
    data: {
      ...DEFAULT_USER_JSON,
      companyId: partners,
      email: 'partner.admin@partners.test',
      name: 'Pat Partner',
      role: 'admin',
      passwordHash: demoAdmin.passwordHash,
      externalId: 'partner-admin',
      loginProviderId: 'partner.admin@partners.test',
    },
  });
  await p.area.create({ data: { companyId: partners, name: 'Partners Vault', level: 1 } });
  await p.companyExtraField.create({
    data: {
      id: 'partners-code',
      companyId: partners,
      name: 'partnerCode',
      kind: 'profile',
      order: 1,
      isRequired: false,
      type: 'string',
    },
  });
  await p.companyTournament.create({ data: { companyId: partners, tournamentId: demoCup } });

  for (const [i, name] of ODD_NAMES.entries()) {
    await p.company.create({
      data: { ...DEFAULT_COMPANY_JSON, name, code: `ODD${i}`, appPath: `odd-${i}`, resellerCompanyId: partners },
    });
  }

  const league = await p.internalRanking.create({
    data: {
      companyId: demo,
      tournamentId: demoCup,
      ownerId: player1,
      name: 'Exposure League',
      memberships: { create: [{ userId: player1 }, { userId: player2 }] },
    },
  });
  await p.internalRankingInvitation.create({
    data: { rankingId: league.id, invitedUserId: users['player3@demo.test'], invitedById: player1 },
  });

  globexLink = await forgeInvitationLink(s.demo.invitations['new.hire@globex.test']);
  ids = { demo, globex, partners, demoCup, player1, player2, demoAdmin: demoAdmin.id, league: league.id };
  tokens = {
    player: await s.loginAs('player'),
    player2: await s.login('player3@demo.test', 'demo'),
    admin: await s.loginAs('admin'),
    reseller: await s.loginAs('reseller'),
    manager: await s.loginAs('manager'),
  };
});
afterAll(() => s?.close());

const refused = (r: GqlResult<unknown>, field: string) => {
  expect(r.data ?? null, JSON.stringify(r.data)).toBeNull();
  expect(r.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  expect(r.errors?.[0].message).toContain(`"${field}"`);
};

async function rest(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}${path}`, { headers });
  return { status: res.status, text: await res.text() };
}

describe('Company.resellerCompany', () => {
  const COMPACT =
    `__typename id name appPath isReseller users invitations news areas { id name } tournaments { id ` +
    `name } dreamFinalsSettings { id } extraFields managerUsers { email }`;
  const cutOff = {
    __typename: 'CompanyCompact',
    name: 'Channel Partners',
    isReseller: true,
    users: [],
    invitations: [],
    news: [],
    areas: [],
    tournaments: [],
    dreamFinalsSettings: [],
    extraFields: {},
    managerUsers: null,
  };

  it(
    "is the compact form with its lists cut off for a managed company's player: no support e-mail, plan, admins, " +
      'areas or tournaments',
    async () => {
      for (const field of [
        'supportEmail',
        'purchasedPlan',
        'featureSettings',
        'managedCompanies',
        'customTournaments',
      ]) {
        refused(await s.gql(`{ company { resellerCompany { ${field} } } }`, {}, bearer(tokens.player)), field);
      }
      const r = await s.gql(`{ company { name resellerCompany { ${COMPACT} } } }`, {}, bearer(tokens.player));
      expect(r.errors).toBeUndefined();
      expect(r.data.company.name).toBe('Demo Corp');
      expect(r.data.company.resellerCompany).toMatchObject({ ...cutOff, id: ids.partners, appPath: 'partners' });
      expect(JSON.stringify(r.data)).not.toMatch(PARTNERS_SECRETS);
    },
  );

  it('is the same cut-off compact form under a public invitation link, over GraphQL and REST', async () => {
    refused(
      await s.gql(
        'query($jwt: String!) { invitationByJwt(jwt: $jwt) { company { resellerCompany { supportEmail } } } }',
        { jwt: globexLink },
      ),
      'supportEmail',
    );
    const r = await s.gql(
      `query($jwt: String!) { invitationByJwt(jwt: $jwt) { company { name resellerCompany { ${COMPACT} } } } }`,
      { jwt: globexLink },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.invitationByJwt.company.name).toBe('Globex');
    expect(r.data.invitationByJwt.company.resellerCompany).toMatchObject(cutOff);
    expect(JSON.stringify(r.data)).not.toMatch(PARTNERS_SECRETS);
    const viaRest = await rest(`/invitations/jwt/${globexLink}`);
    expect(viaRest.status).toBe(200);
    expect(viaRest.text).not.toMatch(PARTNERS_SECRETS);
  });

  it('the OpenAPI document never describes it beyond the compact form', async () => {
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as {
      components: { schemas: Record<string, any> };
    };
    // The REST company is closed: a key its stored operation does not select (resellerCompany among them) is refused.
    expect(doc.components.schemas.CompanyFull.additionalProperties).toBe(false);
    // Wherever a route's schema holds the reseller's company, it is the compact form.
    const described: unknown[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const { properties } = node as { properties?: Record<string, unknown> };
        if (properties?.resellerCompany) described.push(properties.resellerCompany);
        Object.values(node).forEach(walk);
      }
    };
    walk(doc);
    for (const schema of described) expect(JSON.stringify(schema)).toContain('#/components/schemas/CompanyCompact');
    expect(JSON.stringify(doc)).not.toMatch(/"resellerCompany":\{"\$ref":"#\/components\/schemas\/CompanyFull"/);
  });

  it("the reseller's own lists still return data where the reseller company is reached as itself", async () => {
    const r = await s.gql('{ company { name areas { name } managedCompanies { name } } }', {}, bearer(tokens.reseller));
    expect(r.errors).toBeUndefined();
    expect(r.data.company.areas).toEqual([{ name: 'Partners Vault' }]);
    const search = await s.gql(
      '{ companiesSearch(search: "partners") { name managerUsers { email } areas { name } } }',
      {},
      bearer(tokens.reseller),
    );
    expect(search.data.companiesSearch).toEqual([
      {
        name: 'Channel Partners',
        managerUsers: [{ email: 'partner.admin@partners.test' }],
        areas: [{ name: 'Partners Vault' }],
      },
    ]);
  });
});

describe('companiesSearch: % and _ are literal characters', () => {
  const SEARCH = 'query($search: String) { companiesSearch(search: $search, take: 100) { name } }';
  const names = (r: GqlResult<any>) => {
    expect(r.errors).toBeUndefined();
    return r.data.companiesSearch.map((c: { name: string }) => c.name).sort();
  };

  it('GraphQL: each term matches only the names that contain it, case-insensitively', async () => {
    const cases: Array<[string, string[]]> = [
      ['%', ['Hundred% Club']],
      ['_', ['Under_score Inc']],
      ['%%', []],
      ['__', []],
      ['d%', ['Hundred% Club']],
      ['D% cL', ['Hundred% Club']],
      ['r_s', ['Under_score Inc']],
      ['r%s', []],
      ['e_s', []],
      ['!', ['Bang! Ltd']],
      ['!%', []],
      ['\\', ['Back\\slash Co']],
      ['k\\s', ['Back\\slash Co']],
      ['\\%', []],
      ['corp', ['Demo Corp']],
    ];
    for (const [term, expected] of cases)
      expect(names(await s.gql(SEARCH, { search: term }, bearer(tokens.manager))), `manager: ${term}`).toEqual(
        expected,
      );
    // A player sees only their own company, whose name has neither character.
    for (const term of ['%', '_', '%_%'])
      expect(names(await s.gql(SEARCH, { search: term }, bearer(tokens.player))), `player: ${term}`).toEqual([]);
    expect(names(await s.gql(SEARCH, { search: 'o' }, bearer(tokens.player)))).toEqual(['Demo Corp']);
  });

  it(
    'a NUL character is refused with BAD_USER_INPUT (PostgreSQL cannot take it, SQLite ended the pattern there and ' +
      'matched all)',
    async () => {
      for (const term of ['\0', 'x\0y']) {
        const r = await s.gql(SEARCH, { search: term }, bearer(tokens.manager));
        expect(r.data?.companiesSearch ?? null).toBeNull();
        expect(r.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'search' });
      }
      for (const q of ['%00', 'x%00y']) {
        const r = await rest(`/companies/search?search=${q}`, bearer(tokens.reseller));
        expect(r.status, r.text).toBe(400);
        expect(JSON.parse(r.text)).toEqual({
          statusCode: 400,
          error: 'Bad Request',
          code: 'BAD_USER_INPUT',
          message: expect.stringContaining('search'),
        });
      }
    },
  );

  it('REST: the same through GET /companies/search', async () => {
    const search = async (q: string) => {
      const r = await rest(`/companies/search?take=100&search=${q}`, {
        ...bearer(tokens.reseller),
        'x-app-path': 'partners',
      });
      expect(r.status, r.text).toBe(200);
      return (JSON.parse(r.text) as Array<{ name: string }>).map((c) => c.name).sort();
    };
    expect(await search('%25')).toEqual(['Hundred% Club']);
    expect(await search('_')).toEqual(['Under_score Inc']);
    expect(await search('HUNDRED%25')).toEqual(['Hundred% Club']);
    expect(await search('%25_')).toEqual([]);
    expect(await search('!')).toEqual(['Bang! Ltd']);
    expect(await search('%5C')).toEqual(['Back\\slash Co']);
    expect(await search('odd-')).toEqual([...ODD_NAMES].sort());
  });
});

describe('rankings and private leagues show colleagues as ranking users', () => {
  const RANKING =
    'query($t: Int!, $league: Int) { ranking(tournamentId: $t, internalRankingId: $league, take: 100) { total ' +
    'entries { position points user { __typename id name profilePictureUrl } } } }';

  it(
    "a player's ranking returns id, name and picture only; e-mail, extra fields, role and login count are not " +
      'fields',
    async () => {
      const r = await s.gql(RANKING, { t: ids.demoCup }, bearer(tokens.player));
      expect(r.errors).toBeUndefined();
      expect(r.data.ranking.total).toBe(21);
      for (const e of r.data.ranking.entries)
        expect(Object.keys(e.user).sort()).toEqual(['__typename', 'id', 'name', 'profilePictureUrl']);
      expect(new Set(r.data.ranking.entries.map((e: any) => e.user.__typename))).toEqual(new Set(['RankingUser']));
      expect(JSON.stringify(r.data)).not.toMatch(/@demo\.test|E00\d\d/);
      for (const field of ['email', 'extraFields', 'role', 'loginCount', 'externalId', 'company', 'predictions']) {
        refused(
          await s.gql(
            `query($t: Int!) { ranking(tournamentId: $t) { entries { user { ${field} } } } }`,
            { t: ids.demoCup },
            bearer(tokens.player),
          ),
          field,
        );
      }
    },
  );

  it("a private league's owner, members and inviter are ranking users too", async () => {
    const r = await s.gql(
      '{ myInternalRankings { name owner { __typename id name } members { __typename id name } } }',
      {},
      bearer(tokens.player),
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.myInternalRankings).toEqual([
      {
        name: 'Exposure League',
        owner: { __typename: 'RankingUser', id: ids.player1, name: 'Demo Player 1' },
        members: [
          { __typename: 'RankingUser', id: ids.player1, name: 'Demo Player 1' },
          { __typename: 'RankingUser', id: ids.player2, name: 'Demo Player 2' },
        ],
      },
    ]);
    const invited = await s.gql(
      '{ myInternalRankingInvitations { invitedBy { __typename name } ranking { members { name } } } }',
      {},
      bearer(tokens.player2),
    );
    expect(invited.data.myInternalRankingInvitations).toEqual([
      {
        invitedBy: { __typename: 'RankingUser', name: 'Demo Player 1' },
        ranking: { members: [{ name: 'Demo Player 1' }, { name: 'Demo Player 2' }] },
      },
    ]);
    for (const [doc, field] of [
      ['{ myInternalRankings { members { email } } }', 'email'],
      ['{ myInternalRankings { owner { extraFields } } }', 'extraFields'],
      ['{ myInternalRankingInvitations { invitedBy { email } } }', 'email'],
    ])
      refused(await s.gql(doc, {}, bearer(tokens.player)), field);
  });

  it(
    "disableRankingsUserNames: a player sees only their own entry's user, in every ranking; admins see " + 'everyone',
    async () => {
      const p = s.t.db.prisma;
      await p.company.update({ where: { id: ids.demo }, data: { disableRankingsUserNames: true } });
      try {
        for (const league of [undefined, ids.league]) {
          const r = await s.gql(RANKING, { t: ids.demoCup, league }, bearer(tokens.player));
          expect(r.errors).toBeUndefined();
          const entries = r.data.ranking.entries as Array<{
            points: number;
            user: { id: number; name: string } | null;
          }>;
          expect(entries.length).toBe(league ? 2 : 21);
          expect(entries.filter((e) => e.user !== null)).toEqual([
            expect.objectContaining({ user: expect.objectContaining({ id: ids.player1, name: 'Demo Player 1' }) }),
          ]);
          expect(entries.every((e) => typeof e.points === 'number')).toBe(true);
          expect(JSON.stringify(r.data)).not.toMatch(/Demo Player (?!1")|Dana Admin/);
        }
        const admin = await s.gql(RANKING, { t: ids.demoCup }, bearer(tokens.admin));
        expect(admin.data.ranking.entries.filter((e: any) => e.user === null)).toEqual([]);
      } finally {
        await p.company.update({ where: { id: ids.demo }, data: { disableRankingsUserNames: false } });
      }
      const again = await s.gql(RANKING, { t: ids.demoCup }, bearer(tokens.player));
      expect(again.data.ranking.entries.filter((e: any) => e.user === null)).toEqual([]);
    },
  );
});

describe("User.predictions / UserCompact.predictions: only the tenant's users", () => {
  const Q = '{ companiesSearch(search: "demo") { name managerUsers { email predictions { id points } } } }';
  const danaPredictions = (r: GqlResult<any>) => {
    expect(r.errors).toBeUndefined();
    const [demo] = r.data.companiesSearch;
    expect(demo.managerUsers.map((u: { email: string }) => u.email)).toEqual(['admin@demo.test']);
    return demo.managerUsers[0].predictions as unknown[];
  };

  it(
    "a reseller acting on Globex (or on its own company) sees Demo Corp's admin but none of her " + 'predictions',
    async () => {
      expect(
        await danaPredictions(await s.gql(Q, {}, { ...bearer(tokens.reseller), 'x-app-host': 'prode.globex.test' })),
      ).toEqual([]);
      expect(await danaPredictions(await s.gql(Q, {}, bearer(tokens.reseller)))).toEqual([]);
      // Acting on Demo Corp, her predictions of matches that have kicked off are the tenant's.
      expect(
        (await danaPredictions(await s.gql(Q, {}, { ...bearer(tokens.reseller), 'x-app-path': 'demo' }))).length,
      ).toBeGreaterThan(0);
    },
  );

  it('the loader itself filters by the tenant', async () => {
    const load = (tenantId: number | null, viewerId: number | null) =>
      new Loaders(s.t.db.prisma, { tenantId, viewerId, now: new Date() }).visiblePredictionsByUser.load(ids.demoAdmin);
    expect(await load(ids.globex, null)).toEqual([]);
    expect(await load(null, null)).toEqual([]);
    expect(await load(ids.globex, ids.demoAdmin)).toEqual([]);
    const own = await load(ids.demo, ids.demoAdmin);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((p) => p.userId === ids.demoAdmin)).toBe(true);
  });
});
