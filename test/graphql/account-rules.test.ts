// Rules that keep accounts and roles where they belong: nobody handles an invitation for a role above their own,
// an accepted invitation proves its address, the reseller role lives in reseller companies only (and creating
// companies takes a reseller company, not just the role), anonymous sign-up ignores x-app-company, a reset link
// dies when the account's e-mail changes, and a sent e-mail's text (its link) is not kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';

let smtp: TestSmtp;
let s: TestServer;
let tokens: Record<'manager' | 'admin' | 'player', string>;
beforeAll(async () => {
  smtp = await startTestSmtp();
  s = await startTestServer({ env: { SMTP_URL: smtp.url, APP_URL: 'https://app.example.test' } });
  tokens = await s.loginAll(['manager', 'admin', 'player']);
});
afterAll(async () => {
  await s?.close();
  await smtp?.close();
});

const DEMO = { 'x-app-path': 'demo' };
const code = (r: { errors?: Array<{ extensions: { code: string } }> }) => r.errors?.[0]?.extensions.code;
const INVITE = 'mutation($i: CreateInvitationInput!) { createInvitation(input: $i) { token invitation { id } } }';

describe('account rules', () => {
  it('an admin neither changes nor revokes an invitation for a higher role', async () => {
    const created = await s.gql(
      INVITE,
      { i: { email: 'ops2@demo.test', role: 'manager' } },
      { ...bearer(tokens.manager), 'x-app-company': 'DEMO' },
    );
    const id = created.data.createInvitation.invitation.id;
    const admin = { ...bearer(tokens.admin), ...DEMO };
    const UPDATE = 'mutation($id: Int!) { updateInvitation(id: $id, input: { email: "me@demo.test" }) { id } }';
    expect(code(await s.gql(UPDATE, { id }, admin))).toBe('FORBIDDEN');
    expect(code(await s.gql('mutation($id: Int!) { revokeInvitation(id: $id) }', { id }, admin))).toBe('FORBIDDEN');
    const reseller = await s.gql(
      INVITE,
      { i: { email: 'r@demo.test', role: 'reseller' } },
      { ...bearer(tokens.manager), 'x-app-company': 'DEMO' },
    );
    expect(reseller.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'role' });
  });

  it('accepting an invitation sent to an address marks that address verified', async () => {
    const created = await s.gql(
      INVITE,
      { i: { email: 'newbie@demo.test', role: 'player' } },
      { ...bearer(tokens.admin), ...DEMO },
    );
    const accepted = await s.gql(
      `mutation($j: String!) { acceptInvitation(jwt: $j, name: "New Bie", password: "Newbie-pass-2026!",
        extraFields: [{ name: "employeeNumber", value: "E9000" }]) {
        user { emailVerified } } }`,
      { j: created.data.createInvitation.token },
    );
    expect(accepted.data.acceptInvitation.user.emailVerified).toBe(true);
  });

  it('creating companies takes a reseller company, not only the role', async () => {
    const p = s.t.db.prisma;
    await p.user.update({ where: { id: s.demo.users['player3@demo.test'] }, data: { role: 'reseller' } });
    const token = await s.login('player3@demo.test', 'demo');
    const r = await s.gql(
      'mutation { createCompany(input: { name: "Shadow", code: "SHADOW" }) { id } }',
      {},
      bearer(token),
    );
    expect(code(r)).toBe('FORBIDDEN');
  });

  it('anonymous sign-up ignores x-app-company', async () => {
    const r = await s.gql(
      'mutation { register(input: { name: "X", email: "x@x.test", password: "Xx-password-2026!" }) { token } }',
      {},
      { 'x-app-path': 'nowhere', 'x-app-company': 'DEMO' },
    );
    expect(code(r)).toBe('NOT_FOUND');
  });

  it("a reset link dies when the account's e-mail changes; a sent e-mail's text is not kept", async () => {
    const p = s.t.db.prisma;
    await s.gql('mutation { requestPasswordReset(email: "player1@demo.test") }', {}, DEMO);
    const [mail] = await smtp.waitFor('player1@demo.test');
    const token = /token=([\w-]+)/.exec(mail.text)![1];
    await s.app.mail.idle();
    const sent = await p.outgoingEmail.findFirstOrThrow({ where: { to: 'player1@demo.test', kind: 'passwordReset' } });
    expect(sent).toMatchObject({ status: 'SENT', text: '' });
    await p.company.update({ where: { id: s.demo.companies.DEMO }, data: { allowUserEmailEdit: true } });
    await s.gql(
      'mutation { updateMe(input: { email: "elsewhere@demo.test" }) { email } }',
      {},
      { ...bearer(tokens.player), ...DEMO },
    );
    const reset = await s.gql(
      'mutation($t: String!) { resetPassword(token: $t, password: "Taken-over-2026!") { token } }',
      { t: token },
    );
    expect(code(reset)).toBe('NOT_FOUND');
  });
});
