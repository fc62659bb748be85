// Rescoring jobs (src/game/rescore-jobs.ts) on the suite's store: a job leaves the predictions, standings and
// notifications exactly as rescoring inside the result's transaction does; it is done whole or not at all (a
// failing write keeps the job, with its error and a retry time, and nothing of the rescoring); two runners never
// run one job twice; a job for a match that is gone ends without work; two rescorings of one tournament at once
// take turns (on PostgreSQL), so the second does not fail making standings the first made. The process's runner
// runs jobs outside the request that woke it and tells live subscribers that the rankings moved.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { refuseWrites } from '../helpers/refused-writes.ts';
import { holdRowLock } from '../helpers/row-locks.ts';
import type { DemoIds } from '../../prisma/seed/demo-seed.ts';
import type { Db } from '../../src/db/client.ts';
import { rescoreMatches } from '../../src/game/rescore.ts';
import { pendingRescores, queueRescore, RESCORE_BUSY, runDueRescore } from '../../src/game/rescore-jobs.ts';
import { seededDatabase, suiteProvider, type TestDatabase } from '../helpers/db.ts';
import { RescoreRunner } from '../../src/app/rescore-runner.ts';
import { runWithSqlStats } from '../../src/db/sql-stats.ts';
import type { LiveEvent } from '../../src/live/events.ts';

let t: TestDatabase;
let p: Db;
let ids: DemoIds;
let matchId: number;
const run = (now?: Date) => runDueRescore(p, { now, timeoutMs: 30_000 });
/** A run that found nothing else writing the tournament. */
async function ranAlone(now?: Date) {
  const done = await run(now);
  if (done === RESCORE_BUSY) throw new Error('the tournament was busy');
  return done;
}

beforeAll(async () => {
  const seeded = await seededDatabase();
  t = seeded;
  p = t.db.prisma;
  ids = seeded.demo;
  matchId = ids.matches.opener;
  expect(await p.prediction.count({ where: { matchId } })).toBeGreaterThan(3);
});
afterAll(() => t.drop());
beforeEach(async () => {
  await p.rescoreJob.deleteMany();
});

/** What a rescoring leaves behind for the match's players: their predictions, standings and notifications. */
async function outcome() {
  const predictions = await p.prediction.findMany({
    where: { matchId },
    select: { id: true, status: true, points: true, exactHit: true, outcomeHit: true },
    orderBy: { id: 'asc' },
  });
  const standings = await p.tournamentStanding.findMany({
    where: { tournamentId: ids.tournament },
    select: { userId: true, points: true, exactHits: true, outcomeHits: true },
    orderBy: { userId: 'asc' },
  });
  const notifications = await p.notification.findMany({
    where: { type: 'rankingsUpdated' },
    select: { userId: true, dedupeKey: true },
    orderBy: [{ userId: 'asc' }, { dedupeKey: 'asc' }],
  });
  return { predictions, standings, notifications };
}

/** A new result written straight to the match, as setMatchResult writes it before rescoring. */
const setResult = (homeTeamGoals: number, awayTeamGoals: number) =>
  p.match.update({ where: { id: matchId }, data: { homeTeamGoals, awayTeamGoals, status: 'FINISHED' } });

describe('a rescoring job', () => {
  it('leaves what rescoring in the result’s transaction leaves, and removes itself', async () => {
    const original = await p.match.findUniqueOrThrow({ where: { id: matchId } });
    await p.notification.deleteMany({ where: { type: 'rankingsUpdated' } });
    const before = await outcome();

    await setResult(4, 4);
    await p.$transaction((tx) => rescoreMatches(tx, [matchId]));
    const inRequest = await outcome();
    expect(inRequest.predictions).not.toEqual(before.predictions);

    // Back to the seeded result, then the same new result through a job.
    await setResult(original.homeTeamGoals!, original.awayTeamGoals!);
    await p.$transaction((tx) => rescoreMatches(tx, [matchId]));
    await p.notification.deleteMany({ where: { type: 'rankingsUpdated' } });
    await p.$transaction(async (tx) => {
      await queueRescore(tx, [matchId], new Date());
      await tx.match.update({ where: { id: matchId }, data: { homeTeamGoals: 4, awayTeamGoals: 4 } });
    });
    expect((await outcome()).predictions).toEqual(before.predictions);
    expect(await pendingRescores(p)).toMatchObject({ count: 1 });

    const done = await ranAlone();
    expect(done).toMatchObject({ matchId, attempts: 0, report: { standingsChanged: true } });
    expect(done!.report!.predictions).toBeGreaterThan(0);
    const byJob = await outcome();
    expect(byJob.predictions).toEqual(inRequest.predictions);
    expect(byJob.standings).toEqual(inRequest.standings);
    expect(byJob.notifications).toEqual(inRequest.notifications);
    expect(byJob.notifications.length).toBeGreaterThan(0);
    expect(await pendingRescores(p)).toEqual({ count: 0, oldest: null });
    expect(await run()).toBeNull();
  });

  it('is kept whole when its rescoring fails, with the error and a retry time, and runs once due', async () => {
    await setResult(0, 5);
    await p.$transaction((tx) => queueRescore(tx, [matchId], new Date()));
    const before = await outcome();
    await refusePredictionUpdates(true);
    try {
      const failed = await ranAlone();
      expect(failed).toMatchObject({ matchId, attempts: 0, report: null });
      expect(failed!.error).toMatch(/rescore test refusal/);
    } finally {
      await refusePredictionUpdates(false);
    }
    // Nothing of the failed run stayed: not the standings it moved before the predictions' update failed.
    expect(await outcome()).toEqual(before);
    const job = await p.rescoreJob.findUniqueOrThrow({ where: { matchId } });
    expect(job).toMatchObject({ attempts: 1, lastError: expect.stringMatching(/rescore test refusal/) });
    expect(job.retryAt!.getTime()).toBeGreaterThan(Date.now() + 5_000);

    // Not due yet; due after its wait.
    expect(await run()).toBeNull();
    const later = await run(new Date(job.retryAt!.getTime() + 1));
    expect(later).toMatchObject({ matchId, attempts: 1, report: { standingsChanged: true } });
    expect(await p.rescoreJob.count()).toBe(0);
  });

  it('a new result resets a waiting job to run at once', async () => {
    await p.rescoreJob.create({
      data: { matchId, attempts: 3, lastError: 'earlier', retryAt: new Date(Date.now() + 600_000) },
    });
    await p.$transaction((tx) => queueRescore(tx, [matchId], new Date()));
    expect(await p.rescoreJob.findUniqueOrThrow({ where: { matchId } })).toMatchObject({
      attempts: 0,
      lastError: null,
      retryAt: null,
    });
  });

  it('is run by one of two runners at once', async () => {
    await setResult(2, 3);
    await p.$transaction((tx) => queueRescore(tx, [matchId], new Date()));
    const runs = await Promise.all([run(), run()]);
    expect(runs.filter((r) => r !== RESCORE_BUSY && r?.report)).toHaveLength(1);
    expect(runs.filter((r) => r === null)).toHaveLength(1);
    expect(await p.rescoreJob.count()).toBe(0);
  });

  // The old runner locked every due job it read, kept one, and left the others locked till it committed.
  it.runIf(suiteProvider === 'postgresql')('leaves the due jobs its run does not take to another runner', async () => {
    const [first, second] = [matchId, ids.matches.shootout];
    const failedBefore = { attempts: 1, requestedAt: new Date(0), retryAt: new Date(0) };
    await p.rescoreJob.create({ data: { matchId: first, ...failedBefore } });
    await p.rescoreJob.create({ data: { matchId: second, requestedAt: new Date(1) } });
    // Held open from outside, the first match keeps the first run in its transaction (it holds its job and the
    // tournament, and waits for the match).
    const releaseMatch = await holdRowLock(p, 'Match', first);
    const one = run();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The job it leaves is free: another runner could take it (this one gives up on the tournament the first holds).
    const free = await p.$transaction(
      (tx) => tx.$queryRaw<unknown[]>`SELECT "matchId" FROM "RescoreJob" WHERE "matchId" = ${second} FOR UPDATE NOWAIT`,
    );
    expect(free).toHaveLength(1);
    expect(await run()).toBe(RESCORE_BUSY);
    await releaseMatch();
    expect((await one) as { matchIds: number[] }).toMatchObject({ matchIds: [first] });
    expect(await run()).toMatchObject({ matchIds: [second] });
    expect(await p.rescoreJob.count()).toBe(0);
  });

  it.runIf(suiteProvider === 'postgresql')(
    'gives up at once, keeping its jobs untouched, while a writer holds their tournament',
    async () => {
      await p.$transaction((tx) => queueRescore(tx, [matchId], new Date()));
      const { tournamentId } = await p.match.findUniqueOrThrow({ where: { id: matchId } });
      const releaseWriter = await holdRowLock(p, 'Tournament', tournamentId);
      const started = performance.now();
      expect(await run()).toBe(RESCORE_BUSY);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(await p.rescoreJob.findMany({ select: { matchId: true, attempts: true, lastError: true } })).toEqual([
        { matchId, attempts: 0, lastError: null },
      ]);
      await releaseWriter();
      expect(await run()).toMatchObject({ matchIds: [matchId], report: { matches: 1 } });
    },
  );

  it('for a match that is gone ends without work', async () => {
    await p.rescoreJob.create({ data: { matchId: 987_654 } });
    expect(await run()).toMatchObject({ matchId: 987_654, report: { matches: 0, predictions: 0 } });
    expect(await p.rescoreJob.count()).toBe(0);
  });
});

describe('two rescorings of one tournament at once', () => {
  // SQLite has one writer at a time: the second transaction could not start while the first is open.
  it.runIf(suiteProvider === 'postgresql')(
    'the second waits for the first, then moves the standings it made',
    async () => {
      const world = await p.country.findFirstOrThrow({ where: { name: 'World' } });
      const players = await p.user.findMany({ where: { companyId: ids.companies.DEMO, deletedAt: null } });
      const date = new Date(Date.now() - 3600_000);
      const t = await p.tournament.create({
        data: { name: `Twice Cup ${Math.random()}`, countryId: world.id, ownerCompanyId: ids.companies.DEMO },
      });
      const round = await p.round.create({ data: { tournamentId: t.id, name: 'R1', date, position: 1 } });
      const [first, second] = await Promise.all(
        [0, 1].map(() =>
          p.match.create({
            data: {
              tournamentId: t.id,
              roundId: round.id,
              date,
              homeTeamId: ids.teams.Argentina,
              awayTeamId: ids.teams.Japan,
              status: 'FINISHED',
              homeTeamGoals: 1,
              awayTeamGoals: 0,
            },
          }),
        ),
      );
      await p.prediction.createMany({
        data: players.flatMap((u) =>
          [first, second].map((m) => ({ userId: u.id, matchId: m.id, homeTeamGoals: 1, awayTeamGoals: 0 })),
        ),
      });
      // Neither player has a standing in the tournament yet: both rescorings would make them.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const a = p.$transaction(
        async (tx) => {
          await rescoreMatches(tx, [first.id]);
          await held;
        },
        { timeout: 30_000 },
      );
      await new Promise((r) => setTimeout(r, 500));
      const b = p.$transaction((tx) => rescoreMatches(tx, [second.id]), { timeout: 30_000 });
      await new Promise((r) => setTimeout(r, 500));
      release();
      await a;
      expect(await b).toMatchObject({ predictions: players.length });
      const standings = await p.tournamentStanding.findMany({ where: { tournamentId: t.id } });
      const exact = (await p.prediction.findFirstOrThrow({ where: { matchId: first.id } })).points!;
      expect(standings).toHaveLength(players.length);
      for (const s of standings)
        expect({ points: s.points, exactHits: s.exactHits }).toEqual({ points: 2 * exact, exactHits: 2 });
    },
  );
});

describe("the process's runner", () => {
  it('runs a job outside the request that woke it, and announces the rankings', async () => {
    await setResult(1, 0);
    await p.$transaction((tx) => queueRescore(tx, [matchId], new Date()));
    const events: LiveEvent[] = [];
    const runner = new RescoreRunner(p, { publish: (e) => events.push(e) }, () => {});
    const request = { statements: 0, tables: new Set<string>() };
    runWithSqlStats(request, () => runner.wake());
    await runner.idle();
    expect(await p.rescoreJob.count()).toBe(0);
    expect(runner.figures).toMatchObject({ done: 1, failed: 0 });
    expect(request).toEqual({ statements: 0, tables: new Set() });
    expect(events).toEqual([{ kind: 'ranking', tournamentId: ids.tournament }]);
    await runner.close();
  });

  it.runIf(suiteProvider === 'postgresql')(
    'runs a job whose tournament was being written shortly after, without another wake',
    async () => {
      await setResult(2, 1);
      await p.$transaction((tx) => queueRescore(tx, [matchId], new Date()));
      const releaseWriter = await holdRowLock(p, 'Tournament', ids.tournament);
      const runner = new RescoreRunner(p, { publish: () => {} }, () => {});
      runner.wake();
      await runner.idle();
      expect(await p.rescoreJob.count()).toBe(1);
      expect(runner.figures).toMatchObject({ done: 0, failed: 0 });
      await releaseWriter();
      await expect.poll(() => p.rescoreJob.count(), { timeout: 5000 }).toBe(0);
      expect(runner.figures).toMatchObject({ done: 1, failed: 0 });
      await runner.close();
    },
  );
});

/** Every update of a prediction fails: a real write failure, in the middle of the rescoring. */
const refusePredictionUpdates = (refusing: boolean) =>
  refuseWrites(p, { table: 'Prediction', on: 'UPDATE', name: 'rescore_test_refusal' }, refusing);
