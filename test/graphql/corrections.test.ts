// Corrections over real HTTP: an admin enters a player's prediction after kickoff with setPredictionFor, the
// prediction shows who entered it (to the player and to admins, not to colleagues), and auditLog answers the entry
// with its actor, target, reason and before/after as JSON objects; players are refused the log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let tokens: Record<'admin' | 'player' | 'player2', string>;
beforeAll(async () => {
  s = await startTestServer();
  tokens = await s.loginAll(['admin', 'player', 'player2']);
});
afterAll(() => s?.close());

const SET = `mutation($u: Int!, $m: Int!, $r: String!) {
  setPredictionFor(userId: $u, input: { matchId: $m, homeTeamGoals: 2, awayTeamGoals: 2 }, reason: $r) {
    id homeTeamGoals awayTeamGoals status enteredBy { id name } } }`;
const PREDICTIONS = `query($m: Int!) { match(id: $m) {
  predictions { homeTeamGoals user { id } enteredBy { id name } } } }`;
const LOG = `query($k: AuditKind, $u: Int) { auditLog(kind: $k, userId: $u, take: 10) {
  total entries { at kind reason before after actor { id name } targetUser { id } } } }`;

describe('setPredictionFor and auditLog', () => {
  it('an admin enters a prediction past kickoff; who entered it shows to the player and admins only', async () => {
    const matchId = s.demo.matches.final;
    await s.kickOff(matchId);
    const player1 = s.demo.users['player1@demo.test'];
    const admin = await s.t.db.prisma.user.findUniqueOrThrow({ where: { id: s.demo.users['admin@demo.test'] } });
    const seeded = await s.t.db.prisma.prediction.findUnique({
      where: { userId_matchId: { userId: player1, matchId } },
    });
    // Past kickoff the player can no longer do it themselves.
    const own = await s.gql(
      'mutation($m: Int!) { upsertPrediction(input: { matchId: $m, homeTeamGoals: 2, awayTeamGoals: 2 }) { id } }',
      { m: matchId },
      bearer(tokens.player),
    );
    expect(own.errors?.[0].extensions.code).toBe('FORBIDDEN');

    const set = await s.gql(SET, { u: player1, m: matchId, r: 'Handed in on paper' }, bearer(tokens.admin));
    expect(set.errors).toBeUndefined();
    expect(set.data.setPredictionFor).toMatchObject({
      homeTeamGoals: 2,
      awayTeamGoals: 2,
      enteredBy: { id: admin.id, name: admin.name },
    });

    const shown = async (token: string) =>
      (await s.gql(PREDICTIONS, { m: matchId }, bearer(token))).data.match.predictions.find(
        (p: { user: { id: number } | null }) => p.user?.id === player1,
      );
    expect((await shown(tokens.player)).enteredBy).toEqual({ id: admin.id, name: admin.name });
    expect((await shown(tokens.admin)).enteredBy).toEqual({ id: admin.id, name: admin.name });
    expect((await shown(tokens.player2)).enteredBy).toBeNull();

    const log = await s.gql(LOG, { k: 'PREDICTION_ENTERED', u: player1 }, bearer(tokens.admin));
    expect(log.errors).toBeUndefined();
    expect(log.data.auditLog.total).toBe(1);
    expect(log.data.auditLog.entries[0]).toMatchObject({
      kind: 'PREDICTION_ENTERED',
      reason: 'Handed in on paper',
      before: seeded && { matchId, homeTeamGoals: seeded.homeTeamGoals, awayTeamGoals: seeded.awayTeamGoals },
      after: { matchId, homeTeamGoals: 2, awayTeamGoals: 2, penaltiesWinner: null, isJoker: false },
      actor: { id: admin.id, name: admin.name },
      targetUser: { id: player1 },
    });
    const refused = await s.gql(LOG, {}, bearer(tokens.player));
    expect(refused.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(refused.data?.auditLog ?? null).toBeNull();
  });

  it('a reason is required', async () => {
    const r = await s.gql(
      SET,
      { u: s.demo.users['player2@demo.test'], m: s.demo.matches.final, r: ' ' },
      bearer(tokens.admin),
    );
    expect(r.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'reason' });
  });
});
