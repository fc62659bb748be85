import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let admin: string;
let player: string;
let demoId: number;
let areas: { l1: number; l2: number };
const code = (r: { errors?: Array<{ extensions: { code: string } }> }) => r.errors?.[0]?.extensions.code;

const CREATE =
  'mutation($input: CreateInvitationInput!) { createInvitation(input: $input) { token invitation { id email role ' +
  'areaLevel1 { id } } } }';
const ACCEPT =
  'mutation($jwt: String!, $name: String!, $password: String!) { acceptInvitation(jwt: $jwt, name: $name, password: ' +
  '$password, extraFields: [{ name: "employeeNumber", value: "E9000" }]) { token user { id email role ' +
  'areaLevel1 { id } areaLevel2 { id } company { name } } } }';

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.loginAs('admin');
  player = await s.loginAs('player');
  demoId = s.demo.companies.DEMO;
  areas = { l1: s.demo.areas.Argentina, l2: s.demo.areas['Buenos Aires'] };
});
afterAll(() => s.close());

describe('invitations to users', () => {
  it(
    "an admin invites; the invitee accepts with the company's password policy and is logged in with the invited " +
      'role and areas',
    async () => {
      await s.t.db.prisma.company.update({ where: { id: demoId }, data: { passwordPolicy: 'strong' } });
      const created = await s.gql(
        CREATE,
        {
          input: {
            email: 'Newbie@Demo.test',
            name: 'Newbie',
            role: 'player',
            areaLevel1: { id: areas.l1 },
            areaLevel2: { id: areas.l2 },
          },
        },
        bearer(admin),
      );
      expect(created.errors).toBeUndefined();
      const { token } = created.data.createInvitation;
      expect(
        (await s.gql('query($j: String!) { invitationByJwt(jwt: $j) { email } }', { j: token })).data.invitationByJwt
          .email,
      ).toBe('newbie@demo.test');
      const weak = await s.gql(ACCEPT, { jwt: token, name: 'Newbie', password: 'weakpassword' });
      expect(code(weak)).toBe('BAD_USER_INPUT');
      expect(weak.errors![0].extensions.argumentName).toBe('password');
      const ok = await s.gql(ACCEPT, { jwt: token, name: 'Newbie', password: 'Str0ng-enough!' });
      expect(ok.errors).toBeUndefined();
      expect(ok.data.acceptInvitation.user).toMatchObject({
        email: 'newbie@demo.test',
        role: 'player',
        areaLevel1: { id: areas.l1 },
        areaLevel2: { id: areas.l2 },
        company: { name: 'Demo Corp' },
      });
      expect((await s.gql('{ me { email } }', {}, bearer(ok.data.acceptInvitation.token))).data.me.email).toBe(
        'newbie@demo.test',
      );
      expect(code(await s.gql(ACCEPT, { jwt: token, name: 'Again', password: 'Str0ng-enough!' }))).toBe('NOT_FOUND');
      await s.t.db.prisma.company.update({ where: { id: demoId }, data: { passwordPolicy: 'base' } });
    },
  );

  it('refuses a full company and consumes nothing; allowExceedMaxUsers lets them in', async () => {
    const created = (await s.gql(CREATE, { input: { email: 'late@demo.test' } }, bearer(admin))).data.createInvitation;
    const users = await s.t.db.prisma.user.count({ where: { companyId: demoId } });
    await s.t.db.prisma.company.update({ where: { id: demoId }, data: { maxUsersAmount: users } });
    const full = await s.gql(ACCEPT, { jwt: created.token, name: 'Late', password: 'long-enough-1' });
    expect(code(full)).toBe('FORBIDDEN');
    expect(full.errors![0].message).toMatch(/maximum of/);
    expect(await s.t.db.prisma.user.count({ where: { companyId: demoId } })).toBe(users);
    await s.t.db.prisma.company.update({ where: { id: demoId }, data: { allowExceedMaxUsers: true } });
    expect(
      (await s.gql(ACCEPT, { jwt: created.token, name: 'Late', password: 'long-enough-1' })).errors,
    ).toBeUndefined();
    await s.t.db.prisma.company.update({
      where: { id: demoId },
      data: { allowExceedMaxUsers: false, maxUsersAmount: 50 },
    });
  });

  it(
    'revoking kills the link; players may not invite; nobody invites above their role; e-mails are ' + 'unique',
    async () => {
      const created = (await s.gql(CREATE, { input: { email: 'gone@demo.test' } }, bearer(admin))).data
        .createInvitation;
      expect(
        (await s.gql('mutation($id: Int!) { revokeInvitation(id: $id) }', { id: created.invitation.id }, bearer(admin)))
          .data.revokeInvitation,
      ).toBe(true);
      expect(code(await s.gql(ACCEPT, { jwt: created.token, name: 'Gone', password: 'long-enough-1' }))).toBe(
        'NOT_FOUND',
      );
      expect(code(await s.gql(CREATE, { input: { email: 'x@demo.test' } }, bearer(player)))).toBe('FORBIDDEN');
      expect(code(await s.gql(CREATE, { input: { email: 'x@demo.test', role: 'manager' } }, bearer(admin)))).toBe(
        'FORBIDDEN',
      );
      expect(code(await s.gql(CREATE, { input: { email: 'player3@demo.test' } }, bearer(admin)))).toBe('CONFLICT');
      expect(code(await s.gql(CREATE, { input: { email: 'not-an-email' } }, bearer(admin)))).toBe('BAD_USER_INPUT');
    },
  );
});
