// Predictions and results over HTTP: locking at kickoff, validation, concurrency, rescoring on results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
let tokens: Record<string, string>;
let ids: {
  player1: number;
  final: number;
  groupFuture: number;
  finished: number;
  shootout: number;
  tournament: number;
  round: number;
};

const UPSERT =
  'mutation($input: UpsertPredictionInput!) { upsertPrediction(input: $input) { id homeTeamGoals awayTeamGoals ' +
  'penaltiesWinner status points } }';
const RESULT =
  'mutation($input: SetMatchResultInput!) { setMatchResult(input: $input) { id status homeTeamGoals awayTeamGoals ' +
  'penaltiesWinner } }';
const code = (r: { errors?: Array<{ extensions: { code: string } }> }) => r.errors?.[0]?.extensions.code;

beforeAll(async () => {
  s = await startTestServer();
  const p = s.t.db.prisma;
  tokens = await s.loginAll(['player', 'player2', 'admin', 'manager']);
  const { matches, users, tournament } = s.demo;
  const finished = await p.match.findUniqueOrThrow({ where: { id: matches.opener } });
  // A group match in the future, to test penaltiesWinner on a match that cannot go to penalties.
  const groupFuture = await p.match.create({
    data: {
      roundId: finished.roundId,
      tournamentId: finished.tournamentId,
      date: new Date(Date.now() + 86400e3),
      homeTeamId: finished.homeTeamId,
      awayTeamId: finished.awayTeamId,
      group: 'Group A',
      hasPenalties: false,
    },
  });
  ids = {
    player1: users['player1@demo.test'],
    final: matches.final,
    groupFuture: groupFuture.id,
    finished: finished.id,
    shootout: matches.shootout,
    tournament,
    round: finished.roundId,
  };
});
afterAll(() => s.close());

/** Two teams for a match the test makes up: which ones does not matter. */
const anyTeams = () => ({ homeTeamId: s.demo.teams.Argentina, awayTeamId: s.demo.teams.Japan });

const predictionRow = (matchId: number, userId = ids.player1) =>
  s.t.db.prisma.prediction.findUnique({ where: { userId_matchId: { userId, matchId } } });

describe('upsertPrediction', () => {
  it('creates, then updates the same row', async () => {
    const a = await s.gql(
      UPSERT,
      { input: { matchId: ids.final, homeTeamGoals: 2, awayTeamGoals: 2, penaltiesWinner: 'home' } },
      bearer(tokens.player),
    );
    expect(a.errors).toBeUndefined();
    expect(a.data.upsertPrediction).toMatchObject({
      homeTeamGoals: 2,
      awayTeamGoals: 2,
      penaltiesWinner: 'home',
      status: 'PENDING',
      points: null,
    });
    const b = await s.gql(
      UPSERT,
      { input: { matchId: ids.final, homeTeamGoals: 3, awayTeamGoals: 1 } },
      bearer(tokens.player),
    );
    expect(b.data.upsertPrediction).toMatchObject({
      id: a.data.upsertPrediction.id,
      homeTeamGoals: 3,
      awayTeamGoals: 1,
      penaltiesWinner: null,
    });
  });

  it('refuses bad values with the argument named, and writes nothing', async () => {
    const before = await predictionRow(ids.final);
    const cases: Array<[object, string]> = [
      [{ homeTeamGoals: 100, awayTeamGoals: 0 }, 'homeTeamGoals'],
      [{ homeTeamGoals: 1, awayTeamGoals: -1 }, 'awayTeamGoals'],
      [{ homeTeamGoals: 2, awayTeamGoals: 1, penaltiesWinner: 'home' }, 'penaltiesWinner'],
    ];
    for (const [values, arg] of cases) {
      const r = await s.gql(UPSERT, { input: { matchId: ids.final, ...values } }, bearer(tokens.player));
      expect(code(r)).toBe('BAD_USER_INPUT');
      expect(r.errors![0].extensions.argumentName).toBe(arg);
    }
    const r = await s.gql(
      UPSERT,
      { input: { matchId: ids.groupFuture, homeTeamGoals: 1, awayTeamGoals: 1, penaltiesWinner: 'away' } },
      bearer(tokens.player),
    );
    expect(r.errors![0].message).toMatch(/cannot go to penalties/);
    expect(await predictionRow(ids.final)).toEqual(before);
  });

  it('locks at kickoff: one second late is refused and nothing changes', async () => {
    const p = s.t.db.prisma;
    const soon = await p.match.create({
      data: {
        roundId: ids.round,
        tournamentId: ids.tournament,
        date: new Date(Date.now() + 1500),
        ...anyTeams(),
        hasPenalties: false,
      },
    });
    const ok = await s.gql(
      UPSERT,
      { input: { matchId: soon.id, homeTeamGoals: 1, awayTeamGoals: 0 } },
      bearer(tokens.player),
    );
    expect(ok.errors).toBeUndefined();
    // Kicked off a second ago.
    await p.match.update({ where: { id: soon.id }, data: { date: new Date(Date.now() - 1000) } });
    const late = await s.gql(
      UPSERT,
      { input: { matchId: soon.id, homeTeamGoals: 5, awayTeamGoals: 5 } },
      bearer(tokens.player),
    );
    expect(code(late)).toBe('FORBIDDEN');
    expect(late.errors![0].message).toMatch(/closed at kickoff/);
    expect(await predictionRow(soon.id)).toMatchObject({ homeTeamGoals: 1, awayTeamGoals: 0 });
    const finished = await s.gql(
      UPSERT,
      { input: { matchId: ids.finished, homeTeamGoals: 1, awayTeamGoals: 0 } },
      bearer(tokens.player),
    );
    expect(code(finished)).toBe('FORBIDDEN');
  });

  it('concurrent upserts of one user and match leave exactly one row', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        s.gql(
          UPSERT,
          { input: { matchId: ids.groupFuture, homeTeamGoals: i % 4, awayTeamGoals: 1 } },
          bearer(tokens.player2),
        ),
      ),
    );
    for (const r of results) expect(r.errors).toBeUndefined();
    const user2 = s.demo.users['player2@demo.test'];
    expect(await s.t.db.prisma.prediction.count({ where: { userId: user2, matchId: ids.groupFuture } })).toBe(1);
  });

  it(
    'a match of a tournament the company does not play is not found; a reseller cannot predict for a ' + 'company',
    async () => {
      const p = s.t.db.prisma;
      const country = await p.country.create({ data: { name: 'Nowhere' } });
      const t = await p.tournament.create({ data: { name: 'Other Cup', countryId: country.id } });
      const r = await p.round.create({ data: { tournamentId: t.id, name: 'R', date: new Date(), position: 1 } });
      const m = await p.match.create({
        data: { roundId: r.id, tournamentId: t.id, date: new Date(Date.now() + 86400e3), ...anyTeams() },
      });
      expect(
        code(
          await s.gql(UPSERT, { input: { matchId: m.id, homeTeamGoals: 1, awayTeamGoals: 0 } }, bearer(tokens.player)),
        ),
      ).toBe('NOT_FOUND');
      const reseller = await s.loginAs('reseller');
      expect(
        code(
          await s.gql(
            UPSERT,
            { input: { matchId: ids.final, homeTeamGoals: 1, awayTeamGoals: 0 } },
            { ...bearer(reseller), 'x-app-path': 'demo' },
          ),
        ),
      ).toBe('FORBIDDEN');
    },
  );
});

describe('setMatchResult', () => {
  it('players and admins of a global tournament may not', async () => {
    for (const t of [tokens.player, tokens.admin]) {
      expect(
        code(
          await s.gql(
            RESULT,
            { input: { matchId: ids.final, status: 'FINISHED', homeTeamGoals: 1, awayTeamGoals: 0 } },
            bearer(t),
          ),
        ),
      ).toBe('FORBIDDEN');
    }
  });

  it(
    'a manager sets the final after a shoot-out; every prediction is rescored, and again on a ' + 'correction',
    async () => {
      await s.gql(
        UPSERT,
        { input: { matchId: ids.final, homeTeamGoals: 1, awayTeamGoals: 1, penaltiesWinner: 'away' } },
        bearer(tokens.player),
      );
      await s.kickOff(ids.final);
      const r = await s.gql(
        RESULT,
        {
          input: {
            matchId: ids.final,
            status: 'FINISHED',
            homeTeamGoals: 1,
            awayTeamGoals: 1,
            homeTeamPenaltyGoals: 3,
            awayTeamPenaltyGoals: 4,
          },
        },
        { ...bearer(tokens.manager), 'x-app-path': 'demo' },
      );
      expect(r.errors).toBeUndefined();
      expect(r.data.setMatchResult).toMatchObject({ status: 'FINISHED', penaltiesWinner: 'away' });
      expect(await predictionRow(ids.final)).toMatchObject({ status: 'SCORED', points: 4, exactHit: true });
      const pending = await s.t.db.prisma.prediction.count({ where: { matchId: ids.final, status: 'PENDING' } });
      expect(pending).toBe(0);
      // A correction that leaves the shoot-out out is refused; one saying there was none is taken.
      const leftOut = await s.gql(
        RESULT,
        { input: { matchId: ids.final, status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 1 } },
        { ...bearer(tokens.manager), 'x-app-path': 'demo' },
      );
      expect(leftOut.errors?.[0].extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        argumentName: 'homeTeamPenaltyGoals',
      });
      expect(await predictionRow(ids.final)).toMatchObject({ status: 'SCORED', points: 4 });
      const corrected = await s.gql(
        RESULT,
        { input: { matchId: ids.final, status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 1, noShootOut: true } },
        { ...bearer(tokens.manager), 'x-app-path': 'demo' },
      );
      expect(corrected.errors).toBeUndefined();
      expect(await predictionRow(ids.final)).toMatchObject({
        status: 'SCORED',
        points: 0,
        exactHit: false,
        outcomeHit: false,
      });
      await s.gql(
        RESULT,
        { input: { matchId: ids.final, status: 'CANCELLED' } },
        { ...bearer(tokens.manager), 'x-app-path': 'demo' },
      );
      expect(await predictionRow(ids.final)).toMatchObject({ status: 'VOID', points: null });
    },
  );

  it('refuses inconsistent results', async () => {
    const h = { ...bearer(tokens.manager), 'x-app-path': 'demo' };
    const cases: Array<[object, RegExp]> = [
      [{ status: 'FINISHED' }, /needs its score/],
      [{ status: 'FINISHED', homeTeamGoals: 1 }, /both teams/],
      [
        { status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 1, homeTeamPenaltyGoals: 4, awayTeamPenaltyGoals: 3 },
        /only when the match is level/,
      ],
      [
        { status: 'FINISHED', homeTeamGoals: 1, awayTeamGoals: 1, homeTeamPenaltyGoals: 4, awayTeamPenaltyGoals: 4 },
        /cannot be equal/,
      ],
      [{ status: 'FINISHED', homeTeamGoals: 100, awayTeamGoals: 1 }, /0 to 99/],
    ];
    for (const [input, message] of cases) {
      const r = await s.gql(RESULT, { input: { matchId: ids.shootout, ...input } }, h);
      expect(code(r)).toBe('BAD_USER_INPUT');
      expect(r.errors![0].message).toMatch(message);
    }
  });

  it("an admin sets results of their company's custom tournament", async () => {
    const p = s.t.db.prisma;
    const country = await p.country.findFirstOrThrow();
    const t = await p.tournament.create({
      data: { name: 'Office League', countryId: country.id, ownerCompanyId: s.demo.companies.DEMO },
    });
    const r = await p.round.create({ data: { tournamentId: t.id, name: 'Week 1', date: new Date(), position: 1 } });
    const m = await p.match.create({
      data: { roundId: r.id, tournamentId: t.id, date: new Date(Date.now() - 3600e3), ...anyTeams() },
    });
    const res = await s.gql(
      RESULT,
      { input: { matchId: m.id, status: 'FINISHED', homeTeamGoals: 0, awayTeamGoals: 0 } },
      bearer(tokens.admin),
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.setMatchResult.status).toBe('FINISHED');
  });
});
