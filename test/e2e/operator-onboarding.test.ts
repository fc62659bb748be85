// A company onboarded end to end, as a new operator would do it, over real HTTP with a real SMTP server: a manager
// creates the company and invites its admin; the admin accepts from the e-mail, logs in under the company's path,
// sets it up (an area, settings, an extra field, a global tournament entered, a custom one built) and opens
// sign-up; a person registers, verifies from the e-mail, predicts, and resets a forgotten password by e-mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';

const APP = 'https://prode.example.test';
let smtp: TestSmtp;
let s: TestServer;
beforeAll(async () => {
  smtp = await startTestSmtp();
  s = await startTestServer({ env: { SMTP_URL: smtp.url, APP_URL: APP } });
});
afterAll(async () => {
  await s?.close();
  await smtp?.close();
});

/** A call that must succeed: its data, or the test fails with the errors. */
async function ok<T = any>(
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<T> {
  const r = await s.gql(query, variables, headers);
  expect(r.errors, `${query.slice(0, 60)}: ${JSON.stringify(r.errors)}`).toBeUndefined();
  return r.data as T;
}
const linkToken = (text: string, path: string) => new RegExp(`${APP}/${path}([\\w.-]+)`).exec(text)?.[1];

describe('onboarding a company', () => {
  it('from an empty company to a person predicting, by API and e-mail only', async () => {
    // 1. The operator creates the company (sign-up closed for now) and invites its admin.
    const manager = { ...bearer(await s.loginAs('manager')) };
    const { createCompany: company } = await ok(
      'mutation($i: CreateCompanyInput!) { createCompany(input: $i) { id code appPath } }',
      { i: { name: 'Initrode', code: 'INITRODE', appPath: 'initrode', disableRegister: true, maxUsersAmount: 50 } },
      manager,
    );
    await ok(
      'mutation($i: CreateInvitationInput!) { createInvitation(input: $i) { invitation { id } } }',
      { i: { email: 'boss@initrode.test', name: 'Ines Boss', role: 'admin' } },
      { ...manager, 'x-app-company': 'INITRODE' },
    );

    // 2. The admin opens the e-mailed link (as the app would, through the REST route), accepts and logs in.
    const [invite] = await smtp.waitFor('boss@initrode.test');
    expect(invite.subject).toBe("You are invited to Initrode's prediction game");
    const jwt = linkToken(invite.text, 'accept-invitation\\?token=')!;
    const lookup = await fetch(`${s.url}/invitations/jwt/${jwt}`, { headers: { 'x-app-path': 'initrode' } });
    expect(lookup.status).toBe(200);
    expect(((await lookup.json()) as { company: { name: string } }).company.name).toBe('Initrode');
    await ok(
      'mutation($j: String!) { acceptInvitation(jwt: $j, name: "Ines Boss", password: "Boss-password-2026!") { token ' +
        '} }',
      { j: jwt },
      {},
    );
    const boss = {
      ...bearer(await s.login('boss@initrode.test', 'initrode', 'Boss-password-2026!')),
      'x-app-path': 'initrode',
    };

    // 3. The admin sets the company up.
    const { createArea: area } = await ok('mutation { createArea(input: { name: "Engineering" }) { id } }', {}, boss);
    await ok(
      'mutation($id: Int!, $i: UpdateCompanyInput!) { updateCompany(companyId: $id, input: $i) { id } }',
      {
        id: company.id,
        i: {
          loginText: 'Welcome to the Initrode prode',
          requiresEmailVerification: true,
          featureSettings: { areas: { selfAssignOnSignUp: true } },
        },
      },
      boss,
    );
    await ok(
      'mutation { createExtraField(input: { name: "team", kind: "profile", type: select, settings: { options: ' +
        '["Red", "Blue"] } }) { id } }',
      {},
      boss,
    );
    const { availableTournaments } = await ok('{ availableTournaments { id name } }', {}, boss);
    const demoCup = availableTournaments.find((t: { name: string }) => t.name === 'Prode Demo Cup');
    await ok('mutation($id: Int!) { enterTournament(tournamentId: $id) { id } }', { id: demoCup.id }, boss);
    const { createCustomTournament: cup } = await ok(
      'mutation { createCustomTournament(input: { name: "Initrode Cup" }) { id } }',
      {},
      boss,
    );
    const { createCustomRound: round } = await ok(
      'mutation($t: Int!) { createCustomRound(tournamentId: $t, input: { name: "Day 1", date: ' +
        '"2031-03-01T18:00:00.000Z" }) { id } }',
      { t: cup.id },
      boss,
    );
    const team = async (name: string) =>
      (await ok('mutation($n: String!) { createCustomTeam(input: { name: $n }) { id } }', { n: name }, boss))
        .createCustomTeam.id;
    const [red, blue] = [await team('Red'), await team('Blue')];
    const { createCustomMatch: match } = await ok(
      'mutation($i: CustomMatchInput!) { createCustomMatch(input: $i) { id } }',
      { i: { roundId: round.id, homeTeamId: red, awayTeamId: blue, date: '2031-03-01T18:00:00.000Z' } },
      boss,
    );

    // 4. Sign-up opens; a person registers into their area and verifies from the e-mail.
    const REGISTER = `mutation($i: RegisterInput!) { register(input: $i) { token emailVerificationRequired } }`;
    const person = {
      name: 'Pat Person',
      email: 'pat@initrode.test',
      password: 'Pat-password-2026!',
      areaLevel1Id: area.id,
    };
    const closed = await s.gql(REGISTER, { i: person }, { 'x-app-path': 'initrode' });
    expect(closed.errors?.[0].extensions.code).toBe('FORBIDDEN');
    await ok(
      'mutation($id: Int!) { updateCompany(companyId: $id, input: { disableRegister: false }) { id } }',
      { id: company.id },
      boss,
    );
    const registered = await ok(REGISTER, { i: person }, { 'x-app-path': 'initrode' });
    expect(registered.register).toEqual({ token: null, emailVerificationRequired: true });
    const [welcome] = await smtp.waitFor('pat@initrode.test');
    const verified = await ok(
      'mutation($t: String!) { verifyEmail(token: $t) { token user { areaLevel1Id company { code } } } }',
      { t: linkToken(welcome.text, 'verify-email\\?token=') },
      {},
    );
    expect(verified.verifyEmail.user).toEqual({ areaLevel1Id: area.id, company: { code: 'INITRODE' } });
    const pat = { ...bearer(verified.verifyEmail.token), 'x-app-path': 'initrode' };

    // 5. The person sees both tournaments and predicts.
    const { myTournaments } = await ok('{ myTournaments { id name rounds { matches { id date status } } } }', {}, pat);
    expect(myTournaments.map((t: { name: string }) => t.name).sort()).toEqual(['Initrode Cup', 'Prode Demo Cup']);
    const openDemoMatch = myTournaments
      .find((t: { name: string }) => t.name === 'Prode Demo Cup')
      .rounds.flatMap((r: { matches: Array<{ id: number; date: string }> }) => r.matches)
      .find((m: { date: string }) => new Date(m.date) > new Date());
    const PREDICT =
      `mutation($m: Int!) { upsertPrediction(input: { matchId: $m, homeTeamGoals: 2, awayTeamGoals: 1 ` + `}) { id } }`;
    await ok(PREDICT, { m: match.id }, pat);
    await ok(PREDICT, { m: openDemoMatch.id }, pat);
    expect(await s.t.db.prisma.prediction.count({ where: { user: { email: 'pat@initrode.test' } } })).toBe(2);

    // 6. The person forgets the password and resets it by e-mail.
    await ok('mutation { requestPasswordReset(email: "pat@initrode.test") }', {}, { 'x-app-path': 'initrode' });
    const [, reset] = await smtp.waitFor('pat@initrode.test', 2);
    expect(reset.subject).toBe('Reset your password for Initrode');
    await ok(
      'mutation($t: String!) { resetPassword(token: $t, password: "Pat-new-password-2026!") { token } }',
      { t: linkToken(reset.text, 'reset-password\\?token=') },
      {},
    );
    expect(await s.login('pat@initrode.test', 'initrode', 'Pat-new-password-2026!')).toMatch(/^ey/);
  });
});
