// Required extra fields over real HTTP: register and acceptInvitation refuse without them (BAD_USER_INPUT naming the
// field, nothing created), and the invitation's public lookup lists the ones its holder must answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { DEMO_EXTRA_FIELDS } from '../helpers/demo.ts';

const REGISTER = 'mutation($i: RegisterInput!) { register(input: $i) { user { email extraFields { name value } } } }';
const INVITE = 'mutation($i: CreateInvitationInput!) { createInvitation(input: $i) { token } }';
const LOOKUP = 'query($j: String!) { invitationByJwt(jwt: $j) { requiredExtraFields { name type isRequired } } }';
const ACCEPT = `mutation($j: String!, $f: [ExtraFieldValueInput!]) {
  acceptInvitation(jwt: $j, name: "Ines Vited", password: "Invited-pass-2026!", extraFields: $f) {
    user { email extraFields { name value } } } }`;
const DEMO = { 'x-app-path': 'demo' };

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const users = (email: string) => s.t.db.prisma.user.count({ where: { email } });

describe('required extra fields', () => {
  it('register refuses a sign-up without the required employeeNumber, naming it', async () => {
    const person = { name: 'Reg Ister', email: 'reg@demo.test', password: 'Register-pass-2026!' };
    const refused = await s.gql(REGISTER, { i: person }, DEMO);
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'extraFields' });
    expect(refused.errors?.[0].message).toMatch(/"employeeNumber" is required/);
    expect(await users('reg@demo.test')).toBe(0);
    const ok = await s.gql(REGISTER, { i: { ...person, extraFields: DEMO_EXTRA_FIELDS } }, DEMO);
    expect(ok.data.register.user.extraFields).toEqual(DEMO_EXTRA_FIELDS);
  });

  it('the invitation lists what its holder must answer; acceptInvitation refuses without it', async () => {
    const admin = { ...bearer(await s.loginAs('admin')), ...DEMO };
    const jwt = (await s.gql(INVITE, { i: { email: 'ines@demo.test' } }, admin)).data.createInvitation.token;
    expect((await s.gql(LOOKUP, { j: jwt })).data.invitationByJwt.requiredExtraFields).toEqual([
      { name: 'employeeNumber', type: 'string', isRequired: true },
    ]);
    const refused = await s.gql(ACCEPT, { j: jwt });
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'extraFields' });
    expect(refused.errors?.[0].message).toMatch(/"employeeNumber" is required/);
    expect(await users('ines@demo.test')).toBe(0);
    const ok = await s.gql(ACCEPT, { j: jwt, f: [{ name: 'employeeNumber', value: 'E4242' }] });
    expect(ok.data.acceptInvitation.user).toEqual({
      email: 'ines@demo.test',
      extraFields: [{ name: 'employeeNumber', value: 'E4242' }],
    });
  });
});
