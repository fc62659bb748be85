// A company's game rules (src/app/scoring-settings.ts): changed by whoever administers it, confirmed once the game
// has started, rescored in the request or by queued jobs, and announced to the company's ranking subscribers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rescoreStatus, updateScoringSettings } from '../../src/app/scoring-settings.ts';
import { ranking } from '../../src/app/rankings.ts';
import { runDueRescores } from '../../src/game/rescore-jobs.ts';
import { firstLegsOf } from '../../src/game/first-legs.ts';
import { readScoringSettings } from '../../src/domain/scoring-settings.ts';
import { scorePrediction } from '../../src/domain/scoring.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

const settingsOf = async (id: number) =>
  (await database.db.prisma.company.findUniqueOrThrow({ where: { id } })).scoringSettings;
const pointsOf = (companyId: number) =>
  database.db.prisma.prediction.findMany({
    where: { user: { companyId } },
    select: { id: true, points: true },
    orderBy: { id: 'asc' },
  });

describe('updateScoringSettings', () => {
  it('refuses a player, and an admin of another company (NOT_FOUND, the rules unchanged)', async () => {
    const { DEMO } = database.demo.companies;
    await expect(
      updateScoringSettings(await testScope(database, 'player'), DEMO, { exactScore: 50 }, true),
    ).rejects.toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    const before = await settingsOf(DEMO);
    await expect(
      updateScoringSettings(await testScope(database, 'globexAdmin'), DEMO, { exactScore: 50 }, true),
    ).rejects.toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    expect(await settingsOf(DEMO)).toEqual(before);
  });

  it('refuses a value out of range by its argument, and a round of no tournament the company plays', async () => {
    const admin = await testScope(database, 'admin');
    const before = await settingsOf(database.demo.companies.DEMO);
    await expect(
      updateScoringSettings(admin, database.demo.companies.DEMO, { exactScore: -1 }, true),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'exactScore' } });
    await expect(
      updateScoringSettings(
        admin,
        database.demo.companies.DEMO,
        { roundMultipliers: [{ roundId: 999_999, multiplier: 2 }] },
        true,
      ),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'roundMultipliers' } });
    expect(await settingsOf(database.demo.companies.DEMO)).toEqual(before);
  });

  it('after the first kickoff a change needs confirm; confirmed, it rescores in the request, announced', async () => {
    const { DEMO, GLOBEX } = database.demo.companies;
    const admin = await testScope(database, 'admin');
    const before = await settingsOf(DEMO);
    const pointsBefore = await pointsOf(DEMO);
    const globexPoints = await pointsOf(GLOBEX);
    await expect(updateScoringSettings(admin, DEMO, { exactScore: 42 }, false)).rejects.toMatchObject({
      extensions: { code: 'CONFLICT', argumentName: 'confirm' },
    });
    expect(await settingsOf(DEMO)).toEqual(before);
    expect(await pointsOf(DEMO)).toEqual(pointsBefore);

    const done = await updateScoringSettings(admin, DEMO, { exactScore: 42 }, true);
    expect(done.scoringSettings.exactScore).toBe(42);
    expect(done.rescoredPredictions).toBeGreaterThan(0);
    expect(done.rescoreJobsQueued).toBe(0);
    expect(await settingsOf(DEMO)).toMatchObject({ exactScore: 42 });
    expect(await pointsOf(DEMO)).not.toEqual(pointsBefore);
    expect(database.published).toContainEqual({
      kind: 'ranking',
      tournamentId: database.demo.tournament,
      companyId: DEMO,
    });
    // Another company's points are not touched, and nothing was left for the jobs.
    expect(await pointsOf(GLOBEX)).toEqual(globexPoints);
    expect(await database.db.prisma.rescoreJob.count()).toBe(0);
  });

  it('past RESCORE_IN_REQUEST_MAX_PREDICTIONS the rescoring is queued as jobs and the runner woken', async () => {
    const { GLOBEX } = database.demo.companies;
    // The same database with the in-request limit at 0.
    const queued = { ...database, config: { ...database.config, rescoreInRequestMaxPredictions: 0 } };
    const reseller = await testScope(queued, 'reseller');
    const wakes = database.wakes.rescoring;
    const pointsBefore = await pointsOf(GLOBEX);
    const done = await updateScoringSettings(reseller, GLOBEX, { outcome: 7 }, true);
    expect(done).toMatchObject({ rescoredPredictions: 0 });
    expect(done.rescoreJobsQueued).toBeGreaterThan(0);
    expect(await database.db.prisma.rescoreJob.count()).toBe(done.rescoreJobsQueued);
    expect(database.wakes.rescoring).toBe(wakes + 1);
    expect(await pointsOf(GLOBEX)).toEqual(pointsBefore); // the jobs rescore them, not the request
  });

  it('rescoreStatus follows the jobs; rankings are recomputing until they are done, then the rules hold', async () => {
    const { GLOBEX } = database.demo.companies;
    const queued = { ...database, config: { ...database.config, rescoreInRequestMaxPredictions: 0 } };
    const reseller = await testScope(queued, 'reseller');
    // The jobs the test before queued finish that rescoring; this change starts a new one.
    await runDueRescores(database.db.prisma);
    expect((await rescoreStatus(reseller, GLOBEX)).finishedAt).not.toBeNull();
    const done = await updateScoringSettings(reseller, GLOBEX, { outcome: 5, exactScore: 11 }, true);
    const jobs = done.rescoreJobsQueued;
    expect(jobs).toBeGreaterThan(0);
    const waiting = await rescoreStatus(reseller, GLOBEX);
    expect(waiting).toMatchObject({ pendingMatches: jobs, doneMatches: 0, finishedAt: null });
    expect(waiting.startedAt).toEqual(reseller.now);
    const globexAdmin = await testScope(queued, 'globexAdmin');
    const tournamentId = database.demo.tournament;
    expect((await ranking(globexAdmin, { tournamentId })).recomputing).toBe(true);
    // Demo Corp's rules did not change: its ranking is not being recomputed.
    expect((await ranking(await testScope(queued, 'admin'), { tournamentId })).recomputing).toBe(false);

    expect(await runDueRescores(database.db.prisma)).toMatchObject({ done: jobs, failed: 0 });
    const finished = await rescoreStatus(reseller, GLOBEX);
    expect(finished).toMatchObject({ pendingMatches: 0, doneMatches: jobs, startedAt: reseller.now });
    expect(finished.finishedAt).not.toBeNull();
    expect((await ranking(await testScope(queued, 'globexAdmin'), { tournamentId })).recomputing).toBe(false);

    // Every decided prediction of Globex scores as the pure rules say under its new settings.
    const rules = readScoringSettings(await settingsOf(GLOBEX));
    const predictions = await database.db.prisma.prediction.findMany({
      where: { user: { companyId: GLOBEX }, match: { status: 'FINISHED' } },
      include: { match: true },
    });
    expect(predictions.length).toBeGreaterThan(0);
    const firstLegs = await firstLegsOf(
      database.db.prisma,
      predictions.map((p) => p.match),
    );
    for (const prediction of predictions) {
      const expected = scorePrediction(prediction, prediction.match, rules, firstLegs.get(prediction.matchId) ?? null);
      expect({ id: prediction.id, points: prediction.points }).toEqual({ id: prediction.id, points: expected.points });
    }
  });

  it('rescoreStatus is all zero for a company never rescored in jobs; a manager reads it, a player not', async () => {
    const admin = await testScope(database, 'admin');
    expect(await rescoreStatus(admin, database.demo.companies.DEMO)).toEqual({
      pendingMatches: 0,
      doneMatches: 0,
      startedAt: null,
      finishedAt: null,
    });
    // A manager reads any company's.
    const manager = await testScope(database, 'manager');
    expect(await rescoreStatus(manager, database.demo.companies.DEMO)).toMatchObject({ pendingMatches: 0 });
    const player = await testScope(database, 'player');
    await expect(rescoreStatus(player, database.demo.companies.DEMO)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
