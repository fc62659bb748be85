// updateInvitation: every rule, and nothing written when any check fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let tokens: Record<string, string>;
let demo: { id: number };
let globex: { id: number };
let inv: { id: number };
let areas: { l1: number; l2: number; l3: number; otherL2: number; globexL1: number };

const M = `mutation($id: Int!, $input: UpdateInvitationInput!) { updateInvitation(id: $id, input: $input) {
  id externalId name email role areaLevel1 { id } areaLevel2 { id } areaLevel3 { id }
  company { id name users invitations areas { id } } } }`;
const code = (r: { errors?: Array<{ extensions: { code: string } }> }) => r.errors?.[0]?.extensions.code;

beforeAll(async () => {
  s = await startTestServer();
  tokens = await s.loginAll(['admin', 'player', 'reseller', 'globexAdmin']);
  demo = { id: s.demo.companies.DEMO };
  globex = { id: s.demo.companies.GLOBEX };
  inv = { id: s.demo.invitations['new.hire1@demo.test'] };
  // Argentina > Buenos Aires > Sales, and a city of another country.
  const { areas: named } = s.demo;
  areas = {
    l1: named.Argentina,
    l2: named['Buenos Aires'],
    l3: named.Sales,
    otherL2: named['São Paulo'],
    globexL1: named.Headquarters,
  };
});
afterAll(() => s.close());

const snapshot = () => s.t.db.prisma.invitation.findUniqueOrThrow({ where: { id: inv.id } });

describe('updateInvitation', () => {
  it('an admin changes name, e-mail, role and areas; the response has the compact company', async () => {
    const r = await s.gql(
      M,
      {
        id: inv.id,
        input: {
          name: 'Ada Lovelace',
          email: 'Ada@Demo.test',
          role: 'admin',
          externalId: 'EXT-1',
          areaLevel1: { id: areas.l1 },
          areaLevel2: { id: areas.l2 },
          areaLevel3: { id: areas.l3 },
        },
      },
      bearer(tokens.admin),
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.updateInvitation).toMatchObject({
      id: inv.id,
      externalId: 'EXT-1',
      name: 'Ada Lovelace',
      email: 'ada@demo.test',
      role: 'admin',
      areaLevel1: { id: areas.l1 },
      areaLevel2: { id: areas.l2 },
      areaLevel3: { id: areas.l3 },
      company: { id: demo.id, name: 'Demo Corp', users: [], invitations: [] },
    });
    expect(await snapshot()).toMatchObject({ name: 'Ada Lovelace', email: 'ada@demo.test', role: 'admin' });
  });

  it('refuses each bad input and writes nothing', async () => {
    const before = await snapshot();
    const cases: Array<[object, string, RegExp?]> = [
      [{ role: 'superuser' }, 'BAD_USER_INPUT', /role|Role/],
      [{ email: 'not-an-email' }, 'BAD_USER_INPUT', /email/],
      [{ areaLevel1: { id: areas.globexL1 } }, 'BAD_USER_INPUT', /not found in this company/],
      [{ areaLevel1: { id: areas.l2 } }, 'BAD_USER_INPUT', /level 2, not 1/],
      [{ areaLevel2: { id: areas.otherL2 } }, 'BAD_USER_INPUT', /not a child/],
      [{ email: 'player3@demo.test' }, 'CONFLICT'],
      [{ email: 'new.hire2@demo.test' }, 'CONFLICT'],
      [{ role: 'manager' }, 'FORBIDDEN', /may not grant/],
      [{ company: { id: globex.id } }, 'FORBIDDEN', /not managed/],
      [{ name: 'Changed', email: 'bad email' }, 'BAD_USER_INPUT'],
    ];
    for (const [input, expected, message] of cases) {
      const r = await s.gql(M, { id: inv.id, input }, bearer(tokens.admin));
      expect(code(r), JSON.stringify(input)).toBe(expected);
      if (message) expect(r.errors![0].message).toMatch(message);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a player may not; another tenant sees no such invitation', async () => {
    expect(code(await s.gql(M, { id: inv.id, input: { name: 'x' } }, bearer(tokens.player)))).toBe('FORBIDDEN');
    expect(code(await s.gql(M, { id: inv.id, input: { name: 'x' } }, bearer(tokens.globexAdmin)))).toBe('NOT_FOUND');
  });

  it('the reseller moves it to another managed company; areas of the old company are cleared', async () => {
    const r = await s.gql(
      M,
      { id: inv.id, input: { company: { id: globex.id }, areaLevel1: { id: areas.globexL1 } } },
      { ...bearer(tokens.reseller), 'x-app-path': 'demo' },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.updateInvitation).toMatchObject({
      company: { id: globex.id },
      areaLevel1: { id: areas.globexL1 },
      areaLevel2: null,
      areaLevel3: null,
    });
  });
});
