// Corrections and the audit log under attack, over real HTTP with real JWTs:
//   - an admin cannot use setPredictionFor to predict for themselves after seeing the result;
//   - players neither correct a colleague's prediction nor read the log;
//   - the log never carries a secret: no password hash, recovery or skip-login token of the people and company it
//     is about, whatever was changed;
//   - who entered a prediction is shown as a RankingUser (no e-mail), and not to colleagues.
// Which company's log a caller reads is the tenant-isolation matrix's (test/security/tenant-isolation).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let tokens: Record<'admin' | 'player' | 'player2', string>;
beforeAll(async () => {
  s = await startTestServer();
  tokens = await s.loginAll(['admin', 'player', 'player2']);
});
afterAll(() => s?.close());

const SET = `mutation($u: Int!, $m: Int!) {
  setPredictionFor(userId: $u, input: { matchId: $m, homeTeamGoals: 1, awayTeamGoals: 0 }, reason: "as agreed") {
    id enteredBy { id name } } }`;
const LOG = `{ auditLog(take: 100) {
  total entries { kind reason before after actor { id name } targetUser { id } } } }`;

describe('corrections and the audit log', () => {
  it('an admin cannot enter a prediction for themselves once the result is known', async () => {
    const matchId = s.demo.matches.final;
    await s.kickOff(matchId);
    const adminId = s.demo.users['admin@demo.test'];
    const before = await s.t.db.prisma.prediction.findUnique({
      where: { userId_matchId: { userId: adminId, matchId } },
    });
    const r = await s.gql(SET, { u: adminId, m: matchId }, bearer(tokens.admin));
    expect(r.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const after = await s.t.db.prisma.prediction.findUnique({
      where: { userId_matchId: { userId: adminId, matchId } },
    });
    expect(after).toEqual(before);
    expect(await s.t.db.prisma.auditEntry.count({ where: { targetUserId: adminId } })).toBe(0);
  });

  it('players neither correct a colleague nor read the log', async () => {
    const r = await s.gql(
      SET,
      { u: s.demo.users['player2@demo.test'], m: s.demo.matches.final },
      bearer(tokens.player),
    );
    expect(r.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const log = await s.gql(LOG, {}, bearer(tokens.player));
    expect(log.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(log.data?.auditLog ?? null).toBeNull();
  });

  it('the log carries no secret of the people and company it is about', async () => {
    const p = s.t.db.prisma;
    const demo = s.demo.companies.DEMO;
    const player2 = s.demo.users['player2@demo.test'];
    await p.company.update({ where: { id: demo }, data: { skipLoginToken: 'slt-audit-secret-1234567890' } });
    await p.user.update({ where: { id: player2 }, data: { recoverPasswordToken: 'rpt-audit-secret-1234567890' } });
    const admin = bearer(tokens.admin);
    const writes = [
      `mutation { updateCompany(companyId: ${demo}, input: { loginText: "Audit secrets check" }) { id } }`,
      `mutation { updateUser(userId: ${player2}, input: { role: admin }) { id } }`,
      `mutation { updateUser(userId: ${player2}, input: { role: player }) { id } }`,
      `mutation { deactivateUser(userId: ${player2}) { id } }`,
      `mutation { reactivateUser(userId: ${player2}) { id } }`,
      `mutation { updateScoringSettings(companyId: ${demo}, input: { exactScore: 4 }, confirm: true) {
        company { id } } }`,
    ];
    for (const w of writes) expect((await s.gql(w, {}, admin)).errors).toBeUndefined();
    await s.gql(SET, { u: player2, m: s.demo.matches.final }, admin);

    const log = await s.gql(LOG, {}, admin);
    expect(log.errors).toBeUndefined();
    const kinds = new Set(log.data.auditLog.entries.map((e: { kind: string }) => e.kind));
    for (const kind of ['COMPANY_SETTINGS_CHANGED', 'ROLE_CHANGED', 'USER_DEACTIVATED', 'SCORING_SETTINGS_CHANGED'])
      expect(kinds).toContain(kind);
    const text = JSON.stringify(log.data);
    const user = await p.user.findUniqueOrThrow({ where: { id: player2 } });
    expect(user.passwordHash).toBeTruthy();
    for (const secret of [user.passwordHash!, 'rpt-audit-secret', 'slt-audit-secret', 'passwordHash', 'Token'])
      expect(text).not.toContain(secret);
    // The stored rows hold none either: the API is not the only reader of a database.
    const stored = JSON.stringify(await p.auditEntry.findMany());
    for (const secret of [user.passwordHash!, 'rpt-audit-secret', 'slt-audit-secret'])
      expect(stored).not.toContain(secret);
  });

  it("who entered a prediction shows no e-mail, and colleagues don't see it", async () => {
    const schemaRefusal = await s.gql(
      'query($m: Int!) { match(id: $m) { predictions { enteredBy { email } } } }',
      { m: s.demo.matches.final },
      bearer(tokens.player),
    );
    expect(schemaRefusal.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const player1 = s.demo.users['player1@demo.test'];
    await s.gql(SET, { u: player1, m: s.demo.matches.final }, bearer(tokens.admin));
    const seen = await s.gql(
      'query($m: Int!) { match(id: $m) { predictions { user { id } enteredBy { id name } } } }',
      { m: s.demo.matches.final },
      // Signed in again: the role changes above ended player2's earlier sessions.
      bearer(await s.loginAs('player2')),
    );
    expect(seen.errors).toBeUndefined();
    type Shown = { user: { id: number } | null; enteredBy: { id: number } | null };
    const player2 = s.demo.users['player2@demo.test'];
    const predictions: Shown[] = seen.data.match.predictions;
    // Both were entered by the admin: player2 sees who entered their own, and nothing on player1's.
    expect(predictions.find((x) => x.user?.id === player2)?.enteredBy).toMatchObject({
      id: s.demo.users['admin@demo.test'],
    });
    const others = predictions.filter((x) => x.user?.id !== player2);
    expect(others.some((x) => x.user?.id === player1)).toBe(true);
    for (const x of others) expect(x.enteredBy).toBeNull();
  });
});
