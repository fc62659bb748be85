// The process's runner of rescoring jobs (src/app/rescore-runner.ts), on a real database: a result set on a request
// scope past RESCORE_IN_REQUEST_MAX_PREDICTIONS leaves its points to a job and wakes the runner; the runner's pass
// scores them, counts them and tells live subscribers; a failing job is kept and counted; a closed runner runs none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refuseWrites } from '../helpers/refused-writes.ts';
import { setMatchResult } from '../../src/app/game.ts';
import { RescoreRunner } from '../../src/app/rescore-runner.ts';
import type { LiveEvent } from '../../src/live/events.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

const HOUR = 3600_000;
let database: AppTestDatabase;

beforeAll(async () => {
  database = await appTestDatabase({ RESCORE_IN_REQUEST_MAX_PREDICTIONS: '0' });
});
afterAll(() => database.drop());

/** A runner over the database, with what it published and logged. */
function runner() {
  const events: LiveEvent[] = [];
  const logs: Array<{ level: string; msg: string; obj: object }> = [];
  const r = new RescoreRunner(database.db.prisma, { publish: (e) => events.push(e) }, (level, obj, msg) =>
    logs.push({ level, obj, msg }),
  );
  return { r, events, logs };
}

/** A Demo Corp custom match that kicked off an hour ago, predicted 1-0 by player1 and 2-2 by player2. */
async function playedMatch() {
  const prisma = database.db.prisma;
  const world = await prisma.country.findFirstOrThrow({ where: { name: 'World' } });
  const date = new Date(Date.now() - HOUR);
  const t = await prisma.tournament.create({
    data: { name: `Runner Cup ${Math.random()}`, countryId: world.id, ownerCompanyId: database.demo.companies.DEMO },
  });
  const round = await prisma.round.create({ data: { tournamentId: t.id, name: 'R1', date, position: 1 } });
  const match = await prisma.match.create({
    data: {
      tournamentId: t.id,
      roundId: round.id,
      date,
      homeTeamId: database.demo.teams.Argentina,
      awayTeamId: database.demo.teams.Japan,
    },
  });
  await prisma.prediction.createMany({
    data: [
      { userId: database.demo.users['player1@demo.test'], matchId: match.id, homeTeamGoals: 1, awayTeamGoals: 0 },
      { userId: database.demo.users['player2@demo.test'], matchId: match.id, homeTeamGoals: 2, awayTeamGoals: 2 },
    ],
  });
  return match;
}

async function finish(matchId: number, home: number, away: number) {
  const wakes = database.wakes.rescoring;
  await setMatchResult(await testScope(database, 'admin'), {
    matchId,
    status: 'FINISHED',
    homeTeamGoals: home,
    awayTeamGoals: away,
  });
  // The result left its points to a job and woke the runner.
  expect(database.wakes.rescoring).toBe(wakes + 1);
  expect(await database.db.prisma.rescoreJob.findUnique({ where: { matchId } })).not.toBeNull();
}

const predictions = (matchId: number) =>
  database.db.prisma.prediction.findMany({ where: { matchId }, orderBy: { userId: 'asc' } });

describe('RescoreRunner', () => {
  it('scores the jobs a result left, counts them and tells live subscribers the rankings moved', async () => {
    const first = await playedMatch();
    const second = await playedMatch();
    await finish(first.id, 1, 0);
    await finish(second.id, 2, 2);
    expect((await predictions(first.id)).every((p) => p.status === 'PENDING')).toBe(true);

    const { r, events, logs } = runner();
    r.wake();
    r.wake(); // a wake during the pass asks for one more pass, not a second pass at once
    await r.idle();
    expect(await database.db.prisma.rescoreJob.count({ where: { matchId: { in: [first.id, second.id] } } })).toBe(0);
    expect((await predictions(first.id)).map((p) => [p.status, p.exactHit])).toEqual([
      ['SCORED', true],
      ['SCORED', false],
    ]);
    expect((await predictions(second.id)).map((p) => [p.status, p.exactHit])).toEqual([
      ['SCORED', false],
      ['SCORED', true],
    ]);
    expect(r.figures).toMatchObject({ done: 2, failed: 0, predictions: 4 });
    expect(events).toEqual(
      expect.arrayContaining([
        { kind: 'ranking', tournamentId: first.tournamentId },
        { kind: 'ranking', tournamentId: second.tournamentId },
      ]),
    );
    // Both jobs were due: one run took them together.
    const rescored = logs.filter((l) => l.msg === 'match rescored').map((l) => l.obj as { matchIds: number[] });
    expect(rescored.flatMap((l) => l.matchIds)).toEqual(expect.arrayContaining([first.id, second.id]));
    await r.close();
  });

  it('keeps a failing job with its error, counts and logs it, and scores nothing of it', async () => {
    const match = await playedMatch();
    await finish(match.id, 3, 1);
    const { r, events, logs } = runner();
    await refusePredictionUpdates(true);
    try {
      r.wake();
      await r.idle();
    } finally {
      await refusePredictionUpdates(false);
      await r.close();
    }
    expect(r.figures).toMatchObject({ done: 0, failed: 1 });
    expect(events).toEqual([]);
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'error', msg: expect.stringMatching(/will be retried/) }),
    );
    const job = await database.db.prisma.rescoreJob.findUniqueOrThrow({ where: { matchId: match.id } });
    expect(job).toMatchObject({ attempts: 1, lastError: expect.stringMatching(/runner test refusal/) });
    expect((await predictions(match.id)).every((p) => p.status === 'PENDING')).toBe(true);
    // Cleared for the next test: the job is due only after its wait.
    await database.db.prisma.rescoreJob.delete({ where: { matchId: match.id } });
  });

  it('a closed runner starts no pass: the job waits for the next process', async () => {
    const match = await playedMatch();
    const { r, events } = runner();
    await r.close();
    await finish(match.id, 0, 0);
    r.wake();
    await r.idle();
    expect(r.figures).toMatchObject({ done: 0, failed: 0 });
    expect(events).toEqual([]);
    expect(await database.db.prisma.rescoreJob.findUnique({ where: { matchId: match.id } })).not.toBeNull();
    expect((await predictions(match.id)).every((p) => p.status === 'PENDING')).toBe(true);
  });
});

/** Every update of a prediction fails: a real write failure in the middle of the job. */
const refusePredictionUpdates = (refusing: boolean) =>
  refuseWrites(database.db.prisma, { table: 'Prediction', on: 'UPDATE', name: 'runner_test_refusal' }, refusing);
