// A multi-row write that fails half-way leaves nothing behind. The failure is real: a database trigger refuses
// the last write of the operation (the predictions' new scores, after the match, the standings and the outbox),
// so everything before it must be rolled back with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { suiteProvider } from '../helpers/db.ts';

const TRIGGER =
  suiteProvider === 'postgresql'
    ? [
        `CREATE FUNCTION prode_test_fail() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$ ` +
          `LANGUAGE plpgsql`,
        `CREATE TRIGGER prode_test_fail BEFORE UPDATE ON "Prediction" FOR EACH ROW EXECUTE FUNCTION ` +
          `prode_test_fail()`,
      ]
    : [
        `CREATE TRIGGER prode_test_fail BEFORE UPDATE ON "Prediction" BEGIN SELECT RAISE(ABORT, 'injected ` +
          `failure'); END`,
      ];
const UNTRIGGER =
  suiteProvider === 'postgresql'
    ? ['DROP TRIGGER prode_test_fail ON "Prediction"', 'DROP FUNCTION prode_test_fail()']
    : ['DROP TRIGGER prode_test_fail'];

const SET_RESULT =
  'mutation($m: Int!, $h: Int!, $a: Int!) { setMatchResult(input: { matchId: $m, status: FINISHED, homeTeamGoals: ' +
  '$h, awayTeamGoals: $a }) { id homeTeamGoals awayTeamGoals } }';

describe('a result that fails half-way', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  async function snapshot(matchId: number, tournamentId: number) {
    const p = s.t.db.prisma;
    return {
      match: await p.match.findUniqueOrThrow({
        where: { id: matchId },
        select: { status: true, homeTeamGoals: true, awayTeamGoals: true },
      }),
      predictions: await p.prediction.findMany({
        where: { matchId },
        orderBy: { id: 'asc' },
        select: { id: true, points: true, status: true },
      }),
      standings: await p.tournamentStanding.findMany({ where: { tournamentId }, orderBy: { userId: 'asc' } }),
      notifications: await p.notification.count(),
    };
  }

  it(
    "rolls back the match, the standings and the outbox when the predictions' rewrite fails, and works once the " +
      'failure is gone',
    async () => {
      const p = s.t.db.prisma;
      const match = await p.match.findFirstOrThrow({
        where: { status: 'FINISHED', predictions: { some: { points: { gt: 0 } } } },
        orderBy: { id: 'asc' },
      });
      const manager = await s.login('manager@partners.test');
      const before = await snapshot(match.id, match.tournamentId);
      // A score nobody predicted: no exact hit is left, so the points move.
      const [h, a] = [9, 8];

      for (const sql of TRIGGER) await p.$executeRawUnsafe(sql);
      const failed = await s.gql(SET_RESULT, { m: match.id, h, a }, bearer(manager));
      expect(failed.errors?.[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
      expect(failed.errors?.[0].message).not.toMatch(/injected failure/); // no internals outside development
      expect(await snapshot(match.id, match.tournamentId)).toEqual(before);

      for (const sql of UNTRIGGER) await p.$executeRawUnsafe(sql);
      const ok = await s.gql(SET_RESULT, { m: match.id, h, a }, bearer(manager));
      expect(ok.errors).toBeUndefined();
      const after = await snapshot(match.id, match.tournamentId);
      expect(after.match).toMatchObject({ homeTeamGoals: h, awayTeamGoals: a });
      expect(after.predictions).not.toEqual(before.predictions);
      expect(after.standings).not.toEqual(before.standings);
    },
  );
});
