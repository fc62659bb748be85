// Moves re-check: changing an invitation's company, role or areas (updateInvitation, PATCH /invitations/:id) checks
// everything creating it there would check. The attack: a reseller makes a reseller invitation in its own (reseller)
// company, moves it to a managed company that is no reseller and accepts it, planting an account there that the
// company's admins cannot manage (a role above theirs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let tokens: Record<'reseller' | 'admin', string>;
let ids: { partners: number; demo: number; globex: number; demoArea: number; globexArea: number };

const CREATE = `mutation($i: CreateInvitationInput!) { createInvitation(input: $i) { token invitation { id } } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateInvitationInput!) {
  updateInvitation(id: $id, input: $input) { id role company { id } areaLevel1 { id } } }`;
type Errors = { errors?: Array<{ message: string; extensions: { code: string } }> };
const refusal = (r: Errors) => [r.errors?.[0]?.extensions.code, r.errors?.[0]?.message];

beforeAll(async () => {
  s = await startTestServer();
  tokens = await s.loginAll(['reseller', 'admin']);
  const { companies, areas } = s.demo;
  ids = {
    partners: companies.PARTNERS,
    demo: companies.DEMO,
    globex: companies.GLOBEX,
    demoArea: areas.Argentina,
    globexArea: areas.Headquarters,
  };
});
afterAll(() => s.close());

let n = 0;
/** An invitation the reseller makes in `path`'s company. */
async function invite(path: string, role: string) {
  const email = `moved${++n}@example.test`;
  const r = await s.gql(CREATE, { i: { email, role } }, { ...bearer(tokens.reseller), 'x-app-path': path });
  expect(r.errors).toBeUndefined();
  return r.data.createInvitation as { token: string; invitation: { id: number } };
}
const row = (id: number) => s.t.db.prisma.invitation.findUniqueOrThrow({ where: { id } });
const asReseller = (path: string) => ({ ...bearer(tokens.reseller), 'x-app-path': path });

describe('moving an invitation', () => {
  it('a reseller invitation moved to a company that is no reseller: refused over GraphQL and REST', async () => {
    const { token, invitation } = await invite('partners', 'reseller');
    const before = await row(invitation.id);
    const moved = await s.gql(
      UPDATE,
      { id: invitation.id, input: { company: { id: ids.demo } } },
      asReseller('partners'),
    );
    expect(refusal(moved)).toEqual(['BAD_USER_INPUT', expect.stringMatching(/reseller role exists in reseller/)]);
    const rest = await fetch(`${s.url}/invitations/${invitation.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', ...asReseller('partners') },
      body: JSON.stringify({ company: { id: ids.demo } }),
    });
    expect(rest.status).toBe(400);
    expect(((await rest.json()) as { code: string }).code).toBe('BAD_USER_INPUT');
    expect(await row(invitation.id)).toEqual(before);

    // Accepting it still makes a reseller of the reseller company, not one planted in Demo Corp.
    const accepted = await s.gql(
      'mutation($j: String!) { acceptInvitation(jwt: $j, name: "Planted", password: "Planted-password-2026!") ' +
        '{ user { role company { id } } } }',
      { j: token },
    );
    expect(accepted.data?.acceptInvitation.user).toEqual({ role: 'reseller', company: { id: ids.partners } });
  });

  it('a player invitation moved while made a reseller: refused (the role is checked in the target)', async () => {
    const { invitation } = await invite('partners', 'player');
    const before = await row(invitation.id);
    const r = await s.gql(
      UPDATE,
      { id: invitation.id, input: { company: { id: ids.demo }, role: 'reseller' } },
      asReseller('partners'),
    );
    expect(refusal(r)[0]).toBe('BAD_USER_INPUT');
    expect(await row(invitation.id)).toEqual(before);
  });

  it("areas must be the target's", async () => {
    const { invitation } = await invite('demo', 'player');
    const before = await row(invitation.id);
    const r = await s.gql(
      UPDATE,
      { id: invitation.id, input: { company: { id: ids.globex }, areaLevel1: { id: ids.demoArea } } },
      asReseller('demo'),
    );
    expect(refusal(r)).toEqual(['BAD_USER_INPUT', expect.stringMatching(/not found in this company/)]);
    expect(await row(invitation.id)).toEqual(before);
    const ok = await s.gql(
      UPDATE,
      { id: invitation.id, input: { company: { id: ids.globex }, areaLevel1: { id: ids.globexArea } } },
      asReseller('demo'),
    );
    expect(ok.errors).toBeUndefined();
    expect(ok.data.updateInvitation).toMatchObject({ company: { id: ids.globex }, areaLevel1: { id: ids.globexArea } });
  });

  it('the caller must have rights over the target: a company another reseller manages, a deleted one', async () => {
    const p = s.t.db.prisma;
    const globex = await p.company.findUniqueOrThrow({ where: { id: ids.globex } });
    const { id: _id, ...template } = globex;
    const otherReseller = await p.company.create({
      data: { ...template, code: 'OTHERRES', appPath: 'otherres', appCustomDomain: null, isReseller: true } as never,
    });
    const foreign = await p.company.create({
      data: {
        ...template,
        code: 'FOREIGN',
        appPath: 'foreign',
        appCustomDomain: null,
        resellerCompanyId: otherReseller.id,
      } as never,
    });
    const closed = await p.company.create({
      data: {
        ...template,
        code: 'CLOSEDCO',
        appPath: 'closedco',
        appCustomDomain: null,
        deletedAt: new Date(),
      } as never,
    });
    const { invitation } = await invite('demo', 'player');
    const before = await row(invitation.id);
    const toForeign = await s.gql(
      UPDATE,
      { id: invitation.id, input: { company: { id: foreign.id } } },
      asReseller('demo'),
    );
    expect(refusal(toForeign)).toEqual(['FORBIDDEN', expect.stringMatching(/not managed by the caller/)]);
    const toClosed = await s.gql(
      UPDATE,
      { id: invitation.id, input: { company: { id: closed.id } } },
      asReseller('demo'),
    );
    expect(refusal(toClosed)[0]).toBe('BAD_USER_INPUT');
    // An admin manages no other company.
    const byAdmin = await s.gql(
      UPDATE,
      { id: invitation.id, input: { company: { id: ids.globex } } },
      { ...bearer(tokens.admin), 'x-app-path': 'demo' },
    );
    expect(refusal(byAdmin)[0]).toBe('FORBIDDEN');
    expect(await row(invitation.id)).toEqual(before);
  });

  it('the target must have a free seat, as an invitation made there must', async () => {
    const p = s.t.db.prisma;
    const { invitation } = await invite('demo', 'player');
    const before = await row(invitation.id);
    const seated = await p.user.count({ where: { companyId: ids.globex, deletedAt: null } });
    const globex = await p.company.findUniqueOrThrow({ where: { id: ids.globex } });
    await p.company.update({ where: { id: ids.globex }, data: { maxUsersAmount: seated } });
    try {
      const moved = await s.gql(
        UPDATE,
        { id: invitation.id, input: { company: { id: ids.globex } } },
        asReseller('demo'),
      );
      expect(refusal(moved)).toEqual(['FORBIDDEN', expect.stringMatching(/reached its maximum/)]);
      const made = await s.gql(
        CREATE,
        { i: { email: 'full@example.test', role: 'player' } },
        {
          ...bearer(tokens.reseller),
          'x-app-company': String(ids.globex),
        },
      );
      expect(refusal(made)).toEqual(['FORBIDDEN', expect.stringMatching(/reached its maximum/)]);
      // One already there keeps its place: its name still changes.
      const renamed = await s.gql(
        UPDATE,
        { id: s.demo.invitations['new.hire@globex.test'], input: { name: 'Renamed' } },
        { ...bearer(tokens.reseller), 'x-app-company': String(ids.globex) },
      );
      expect(renamed.errors).toBeUndefined();
      expect(await row(invitation.id)).toEqual(before);
    } finally {
      await p.company.update({ where: { id: ids.globex }, data: { maxUsersAmount: globex.maxUsersAmount } });
    }
  });

  it("the e-mail must be free in the target, and the role no higher than the caller's", async () => {
    const { invitation } = await invite('demo', 'player');
    const before = await row(invitation.id);
    const taken = await s.gql(
      UPDATE,
      { id: invitation.id, input: { company: { id: ids.globex }, email: 'new.hire@globex.test' } },
      asReseller('demo'),
    );
    expect(refusal(taken)[0]).toBe('CONFLICT');
    const higher = await s.gql(
      UPDATE,
      { id: invitation.id, input: { company: { id: ids.globex }, role: 'manager' } },
      asReseller('demo'),
    );
    expect(refusal(higher)).toEqual(['FORBIDDEN', expect.stringMatching(/may not grant the role manager/)]);
    expect(await row(invitation.id)).toEqual(before);
  });
});
