// The game's writes (src/app/game.ts) called on a request scope, without HTTP: predictions and dream-final picks
// in the caller's own company, and results and new kickoffs by the match's referees, read back from the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rescheduleMatch, setDreamFinalPicks, setMatchResult, upsertPrediction } from '../../src/app/game.ts';
import {
  customMatch as sharedCustomMatch,
  testScope,
  appTestDatabase,
  type AppTestDatabase,
} from '../helpers/scope.ts';

const HOUR = 3600_000;
let database: AppTestDatabase;
const code = (c: string) => ({ extensions: { code: c } });
const field = (c: string, argumentName: string) => ({ extensions: { code: c, argumentName } });

/** A match of a custom tournament of `companyId`, kicking off at `date`, its own round and tournament. */
const customMatch = (companyId: number, date: Date, opts: { hasPenalties?: boolean } = {}) =>
  sharedCustomMatch(database, companyId, date, opts);

beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

describe('upsertPrediction', () => {
  it('is refused to the anonymous and to a reseller acting on a company it manages', async () => {
    const input = { matchId: database.demo.matches.final, homeTeamGoals: 1, awayTeamGoals: 0 };
    await expect(upsertPrediction(await testScope(database, null), input)).rejects.toMatchObject(
      code('UNAUTHENTICATED'),
    );
    const reseller = await testScope(database, 'reseller', { headers: { appPath: 'demo' } });
    await expect(upsertPrediction(reseller, input)).rejects.toMatchObject(code('FORBIDDEN'));
    const rows = await database.db.prisma.prediction.count({
      where: { userId: database.demo.users['reseller@partners.test'] },
    });
    expect(rows).toBe(0);
  });

  it('stores the prediction until kickoff, and changes it on a second call', async () => {
    const match = await customMatch(database.demo.companies.DEMO, new Date(Date.now() + 48 * HOUR));
    const player = await testScope(database, 'player');
    const first = await upsertPrediction(player, { matchId: match.id, homeTeamGoals: 2, awayTeamGoals: 1 });
    await upsertPrediction(player, { matchId: match.id, homeTeamGoals: 0, awayTeamGoals: 3 });
    const rows = await database.db.prisma.prediction.findMany({ where: { matchId: match.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: first.id,
      userId: database.demo.users['player1@demo.test'],
      homeTeamGoals: 0,
      awayTeamGoals: 3,
      status: 'PENDING',
    });
  });

  it('refuses after kickoff, by the request clock, and leaves the stored prediction as it was', async () => {
    const kickoff = new Date(Date.now() + 24 * HOUR);
    const match = await customMatch(database.demo.companies.DEMO, kickoff);
    await upsertPrediction(await testScope(database, 'player2'), {
      matchId: match.id,
      homeTeamGoals: 1,
      awayTeamGoals: 1,
    });
    const late = await testScope(database, 'player2', { now: new Date(kickoff.getTime() + 1000) });
    await expect(
      upsertPrediction(late, { matchId: match.id, homeTeamGoals: 4, awayTeamGoals: 0 }),
    ).rejects.toMatchObject(code('FORBIDDEN'));
    const row = await database.db.prisma.prediction.findFirstOrThrow({ where: { matchId: match.id } });
    expect([row.homeTeamGoals, row.awayTeamGoals]).toEqual([1, 1]);
  });

  it('names the bad argument: goals out of range, a shoot-out winner without a shoot-out, a joker', async () => {
    const match = await customMatch(database.demo.companies.DEMO, new Date(Date.now() + 48 * HOUR));
    const player = await testScope(database, 'player');
    await expect(
      upsertPrediction(player, { matchId: match.id, homeTeamGoals: -1, awayTeamGoals: 0 }),
    ).rejects.toMatchObject(field('BAD_USER_INPUT', 'homeTeamGoals'));
    await expect(
      upsertPrediction(player, { matchId: match.id, homeTeamGoals: 0, awayTeamGoals: 100 }),
    ).rejects.toMatchObject(field('BAD_USER_INPUT', 'awayTeamGoals'));
    await expect(
      upsertPrediction(player, { matchId: match.id, homeTeamGoals: 1, awayTeamGoals: 1, penaltiesWinner: 'home' }),
    ).rejects.toMatchObject(field('BAD_USER_INPUT', 'penaltiesWinner'));
    // The demo company plays without jokers (jokersPerRound 0 by default).
    await expect(
      upsertPrediction(player, { matchId: match.id, homeTeamGoals: 1, awayTeamGoals: 0, isJoker: true }),
    ).rejects.toMatchObject(field('BAD_USER_INPUT', 'isJoker'));
    expect(await database.db.prisma.prediction.count({ where: { matchId: match.id } })).toBe(0);
  });

  it("a match of another company's custom tournament is NOT_FOUND, and gets no prediction", async () => {
    const match = await customMatch(database.demo.companies.GLOBEX, new Date(Date.now() + 48 * HOUR));
    await expect(
      upsertPrediction(await testScope(database, 'player'), { matchId: match.id, homeTeamGoals: 1, awayTeamGoals: 0 }),
    ).rejects.toMatchObject(code('NOT_FOUND'));
    expect(await database.db.prisma.prediction.count({ where: { matchId: match.id } })).toBe(0);
  });
});

describe('setDreamFinalPicks', () => {
  const setting = () => database.demo.dreamFinals;

  it('replaces the caller’s list whole, in finishing order', async () => {
    const { Argentina, France, Spain } = database.demo.teams;
    const player = await testScope(database, 'player2');
    const userId = database.demo.users['player2@demo.test'];
    await setDreamFinalPicks(player, setting(), [Argentina, France]);
    await setDreamFinalPicks(player, setting(), [Spain, Argentina]);
    const picks = await database.db.prisma.dreamFinalPick.findMany({
      where: { settingId: setting(), userId },
      orderBy: { position: 'asc' },
    });
    expect(picks.map((p) => [p.position, p.teamId])).toEqual([
      [1, Spain],
      [2, Argentina],
    ]);
  });

  it('names teamIds for a wrong count, a repeated team or a team not in the tournament', async () => {
    const { Argentina, France } = database.demo.teams;
    const player = await testScope(database, 'player');
    const userId = database.demo.users['player1@demo.test'];
    const before = await database.db.prisma.dreamFinalPick.findMany({ where: { settingId: setting(), userId } });
    const stranger = await database.db.prisma.team.create({
      data: { name: 'Atlantis', countryId: (await database.db.prisma.country.findFirstOrThrow()).id },
    });
    for (const teamIds of [[Argentina], [Argentina, Argentina], [Argentina, stranger.id], [Argentina, France, 1]])
      await expect(setDreamFinalPicks(player, setting(), teamIds)).rejects.toMatchObject(
        field('BAD_USER_INPUT', 'teamIds'),
      );
    expect(await database.db.prisma.dreamFinalPick.findMany({ where: { settingId: setting(), userId } })).toEqual(
      before,
    );
  });

  it('closes when the limit round starts', async () => {
    const final = await database.db.prisma.round.findUniqueOrThrow({ where: { id: database.demo.rounds.Final } });
    const late = await testScope(database, 'player', { now: new Date(final.date.getTime() + 1000) });
    const { Argentina, France } = database.demo.teams;
    await expect(setDreamFinalPicks(late, setting(), [Argentina, France])).rejects.toMatchObject(code('FORBIDDEN'));
  });

  it("another company's setting is NOT_FOUND to its players, and a reseller acting there is FORBIDDEN", async () => {
    const { Argentina, France } = database.demo.teams;
    await expect(
      setDreamFinalPicks(await testScope(database, 'globexPlayer'), setting(), [Argentina, France]),
    ).rejects.toMatchObject(code('NOT_FOUND'));
    await expect(
      setDreamFinalPicks(await testScope(database, 'reseller', { headers: { appPath: 'demo' } }), setting(), [
        Argentina,
        France,
      ]),
    ).rejects.toMatchObject(code('FORBIDDEN'));
    for (const email of ['player1@globex.test', 'reseller@partners.test'] as const)
      expect(await database.db.prisma.dreamFinalPick.count({ where: { userId: database.demo.users[email] } })).toBe(0);
  });
});

describe('setMatchResult', () => {
  /** A match of a Demo Corp custom tournament that kicked off an hour ago, predicted 2-1 by player1, 0-0 by player2. */
  async function playedMatch() {
    const match = await customMatch(database.demo.companies.DEMO, new Date(Date.now() - HOUR));
    await database.db.prisma.prediction.createMany({
      data: [
        { userId: database.demo.users['player1@demo.test'], matchId: match.id, homeTeamGoals: 2, awayTeamGoals: 1 },
        { userId: database.demo.users['player2@demo.test'], matchId: match.id, homeTeamGoals: 0, awayTeamGoals: 0 },
      ],
    });
    return match;
  }

  it('the owning company’s admin records it: predictions are scored in the same step, live hears of it', async () => {
    const match = await playedMatch();
    const published = database.published.length;
    const wakes = database.wakes.rescoring;
    const row = await setMatchResult(await testScope(database, 'admin'), {
      matchId: match.id,
      status: 'FINISHED',
      homeTeamGoals: 2,
      awayTeamGoals: 1,
    });
    expect(row).toMatchObject({ status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 1 });
    const stored = await database.db.prisma.match.findUniqueOrThrow({ where: { id: match.id } });
    expect(stored).toMatchObject({ status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 1 });
    const predictions = await database.db.prisma.prediction.findMany({ where: { matchId: match.id } });
    const exact = predictions.find((p) => p.userId === database.demo.users['player1@demo.test'])!;
    const miss = predictions.find((p) => p.userId === database.demo.users['player2@demo.test'])!;
    expect(exact).toMatchObject({ status: 'SCORED', exactHit: true });
    expect(exact.points).toBeGreaterThan(0);
    expect(miss).toMatchObject({ status: 'SCORED', exactHit: false, outcomeHit: false, points: 0 });
    const events = database.published.slice(published);
    expect(events[0]).toEqual({ kind: 'match', tournamentId: match.tournamentId, matchId: match.id });
    expect(events).toContainEqual({ kind: 'ranking', tournamentId: match.tournamentId });
    expect(database.wakes.rescoring).toBe(wakes);
  });

  it('past RESCORE_IN_REQUEST_MAX_PREDICTIONS it queues a rescoring job and wakes the runner', async () => {
    const match = await playedMatch();
    const wakes = database.wakes.rescoring;
    const limit = database.config.rescoreInRequestMaxPredictions;
    database.config.rescoreInRequestMaxPredictions = 1;
    try {
      await setMatchResult(await testScope(database, 'manager'), {
        matchId: match.id,
        status: 'FINISHED',
        homeTeamGoals: 0,
        awayTeamGoals: 0,
      });
    } finally {
      database.config.rescoreInRequestMaxPredictions = limit;
    }
    expect(database.wakes.rescoring).toBe(wakes + 1);
    expect(await database.db.prisma.rescoreJob.findUnique({ where: { matchId: match.id } })).not.toBeNull();
    // The points come with the job, not the response.
    const predictions = await database.db.prisma.prediction.findMany({ where: { matchId: match.id } });
    expect(predictions.every((p) => p.status === 'PENDING')).toBe(true);
  });

  it('a player is FORBIDDEN; another company’s admin gets NOT_FOUND; the match stays unplayed', async () => {
    const match = await playedMatch();
    const input = { matchId: match.id, status: 'FINISHED', homeTeamGoals: 5, awayTeamGoals: 0 };
    await expect(setMatchResult(await testScope(database, 'player'), input)).rejects.toMatchObject(code('FORBIDDEN'));
    await expect(setMatchResult(await testScope(database, 'globexAdmin'), input)).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    await expect(setMatchResult(await testScope(database, null), input)).rejects.toMatchObject(code('UNAUTHENTICATED'));
    // A global tournament's match is the managers' to referee, not a company admin's.
    await expect(
      setMatchResult(await testScope(database, 'admin'), { ...input, matchId: database.demo.matches.opener }),
    ).rejects.toMatchObject(code('FORBIDDEN'));
    const stored = await database.db.prisma.match.findUniqueOrThrow({ where: { id: match.id } });
    expect(stored).toMatchObject({ status: 'SCHEDULED', homeTeamGoals: null });
  });

  it('names the bad argument of a result, and writes nothing', async () => {
    const match = await playedMatch();
    const admin = await testScope(database, 'admin');
    await expect(
      setMatchResult(admin, { matchId: match.id, status: 'FINISHED', homeTeamGoals: -1, awayTeamGoals: 0 }),
    ).rejects.toMatchObject(field('BAD_USER_INPUT', 'homeTeamGoals'));
    await expect(setMatchResult(admin, { matchId: match.id, status: 'FINISHED' })).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'homeTeamGoals'),
    );
    await expect(
      setMatchResult(admin, {
        matchId: match.id,
        status: 'FINISHED',
        homeTeamGoals: 1,
        awayTeamGoals: 1,
        homeTeamPenaltyGoals: 4,
        awayTeamPenaltyGoals: 3,
      }),
    ).rejects.toMatchObject(field('BAD_USER_INPUT', 'homeTeamPenaltyGoals'));
    // A result before kickoff, by the request clock.
    const early = await testScope(database, 'admin', { now: new Date(match.date.getTime() - 1000) });
    await expect(
      setMatchResult(early, { matchId: match.id, status: 'FINISHED', homeTeamGoals: 1, awayTeamGoals: 0 }),
    ).rejects.toMatchObject(field('BAD_USER_INPUT', 'status'));
    // Nor a match in play, at half time or in extra time before it kicks off.
    for (const status of ['IN_PLAY', 'PAUSED', 'EXTRA_TIME']) {
      await expect(
        setMatchResult(early, { matchId: match.id, status, homeTeamGoals: 0, awayTeamGoals: 0 }),
      ).rejects.toMatchObject(field('BAD_USER_INPUT', 'status'));
    }
    const stored = await database.db.prisma.match.findUniqueOrThrow({ where: { id: match.id } });
    expect(stored).toMatchObject({ status: 'SCHEDULED', homeTeamGoals: null });
    const predictions = await database.db.prisma.prediction.findMany({ where: { matchId: match.id } });
    expect(predictions.every((p) => p.status === 'PENDING')).toBe(true);
  });
});

describe('rescheduleMatch', () => {
  it('moves a match not played yet and tells live subscribers', async () => {
    const match = await customMatch(database.demo.companies.DEMO, new Date(Date.now() + 24 * HOUR));
    const date = new Date(Date.now() + 72 * HOUR);
    const published = database.published.length;
    await rescheduleMatch(await testScope(database, 'admin'), match.id, date);
    const stored = await database.db.prisma.match.findUniqueOrThrow({ where: { id: match.id } });
    expect(stored).toMatchObject({ date, status: 'SCHEDULED' });
    expect(database.published.slice(published)).toEqual([
      { kind: 'match', tournamentId: match.tournamentId, matchId: match.id },
    ]);
  });

  it('refuses a date in the past, a match already kicked off, and another company’s match', async () => {
    const admin = await testScope(database, 'admin');
    const upcoming = await customMatch(database.demo.companies.DEMO, new Date(Date.now() + 24 * HOUR));
    await expect(rescheduleMatch(admin, upcoming.id, new Date(Date.now() - HOUR))).rejects.toMatchObject(
      field('BAD_USER_INPUT', 'date'),
    );
    const kickedOff = await customMatch(database.demo.companies.DEMO, new Date(Date.now() - HOUR));
    await expect(rescheduleMatch(admin, kickedOff.id, new Date(Date.now() + 24 * HOUR))).rejects.toMatchObject(
      code('CONFLICT'),
    );
    const globex = await customMatch(database.demo.companies.GLOBEX, new Date(Date.now() + 24 * HOUR));
    await expect(rescheduleMatch(admin, globex.id, new Date(Date.now() + 48 * HOUR))).rejects.toMatchObject(
      code('NOT_FOUND'),
    );
    for (const m of [upcoming, kickedOff, globex])
      expect((await database.db.prisma.match.findUniqueOrThrow({ where: { id: m.id } })).date).toEqual(m.date);
  });
});
