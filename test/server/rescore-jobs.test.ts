// setMatchResult past RESCORE_IN_REQUEST_MAX_PREDICTIONS (0 here: every match with a prediction), over HTTP: the
// result is committed with a rescoring job, the server's runner scores the predictions right after (counted on
// /metrics), a refused result leaves no job behind, and a job left by a process that stopped first is run by the
// next server to start on the database, by `npm run notifications:tick`, and a failed one when its wait ends. On
// PostgreSQL, a result set while its match's job runs waits for that job and leaves a fresh one. A change of a
// company's game rules past the threshold queues a job per decided match, which score as rescoring in the request.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { emptyTarget, suiteProvider } from '../helpers/db.ts';
import { holdRowLock } from '../helpers/row-locks.ts';

const UPSERT = 'mutation($input: UpsertPredictionInput!) { upsertPrediction(input: $input) { id points } }';
const RESULT =
  'mutation($input: SetMatchResultInput!) { setMatchResult(input: $input) { id status homeTeamGoals awayTeamGoals } }';
const JOBS = { RESCORE_IN_REQUEST_MAX_PREDICTIONS: '0' };

let s: TestServer;
let target: Awaited<ReturnType<typeof emptyTarget>>;
let tokens: Record<'player' | 'manager' | 'admin', string>;
let manager: Record<string, string>;
let demo: TestServer['demo'];

beforeAll(async () => {
  target = await emptyTarget();
  s = await startTestServer({ target: target.target, env: JOBS });
  demo = s.demo;
  tokens = await s.loginAll(['player', 'manager', 'admin']);
  manager = { ...bearer(tokens.manager), 'x-app-path': 'demo' };
});
afterAll(async () => {
  await s?.close();
  await target?.drop();
});

const prediction = (matchId: number) =>
  s.t.db.prisma.prediction.findFirstOrThrow({
    where: { matchId, userId: demo.users['player1@demo.test'] },
    select: { status: true, points: true, exactHit: true, outcomeHit: true },
  });
/** What a result's transaction commits when its rescoring is a job; the process then stops before running it. */
const leaveJobBehind = (matchId: number, homeTeamGoals: number, awayTeamGoals: number) => {
  const p = s.t.db.prisma;
  return p.$transaction([
    p.rescoreJob.create({ data: { matchId } }),
    p.match.update({ where: { id: matchId }, data: { homeTeamGoals, awayTeamGoals } }),
  ]);
};
const metric = async (server: TestServer, line: RegExp) => {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(
    text
      .split('\n')
      .find((l) => line.test(l))
      ?.split(' ')
      .pop(),
  );
};

describe('a result whose rescoring is a job', () => {
  it('returns at once, and the runner scores its predictions right after', async () => {
    const { final } = demo.matches;
    const predicted = await s.gql(
      UPSERT,
      { input: { matchId: final, homeTeamGoals: 2, awayTeamGoals: 0 } },
      {
        ...bearer(tokens.player),
      },
    );
    expect(predicted.errors).toBeUndefined();
    await s.kickOff(final);
    const r = await s.gql(
      RESULT,
      { input: { matchId: final, status: 'FINISHED', homeTeamGoals: 2, awayTeamGoals: 0 } },
      manager,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.setMatchResult).toMatchObject({ status: 'FINISHED', homeTeamGoals: 2 });
    await s.app.rescoring.idle();
    expect(await prediction(final)).toMatchObject({ status: 'SCORED', exactHit: true });
    expect((await prediction(final)).points).toBeGreaterThan(0);
    expect(await s.t.db.prisma.rescoreJob.count()).toBe(0);
    expect(await metric(s, /^prode_rescore_jobs_total\{result="done"\}/)).toBe(1);
    expect(await metric(s, /^prode_rescore_jobs_pending /)).toBe(0);
  });

  it('refused, leaves no job behind', async () => {
    const r = await s.gql(
      RESULT,
      // One team's goals only: refused inside the result's transaction (checkResult), after its job was queued.
      { input: { matchId: demo.matches.final, status: 'FINISHED', homeTeamGoals: 1 } },
      manager,
    );
    expect(r.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'awayTeamGoals' });
    expect(await s.t.db.prisma.rescoreJob.count()).toBe(0);
  });

  it.runIf(suiteProvider === 'postgresql')(
    'set while its match is being rescored, waits and queues again',
    async () => {
      const { final } = demo.matches;
      const p = s.t.db.prisma;
      await p.rescoreJob.create({ data: { matchId: final } });
      // Another writer holds the match: the job takes its row, then waits for the match.
      const release = await holdRowLock(p, 'Match', final);
      s.app.rescoring.wake();
      await new Promise((r) => setTimeout(r, 200));
      // The result queues its job first: it waits for the running job's row, not the other way round.
      const pending = s.gql(
        RESULT,
        { input: { matchId: final, status: 'FINISHED', homeTeamGoals: 1, awayTeamGoals: 2 } },
        manager,
      );
      await new Promise((r) => setTimeout(r, 300));
      await release();
      const r = await pending;
      expect(r.errors).toBeUndefined();
      await s.app.rescoring.idle();
      expect(await p.rescoreJob.count()).toBe(0);
      // Scored by the job the result queued after the first one: 1-2 against the player's 2-0.
      expect(await prediction(final)).toMatchObject({ status: 'SCORED', exactHit: false, points: 0 });
      expect(await metric(s, /^prode_rescore_jobs_total\{result="failed"\}/)).toBe(0);
    },
  );

  it.runIf(suiteProvider === 'postgresql')('vacuums the standings once the jobs of a pass are done', async () => {
    const p = s.t.db.prisma;
    // Autovacuum counts apart (autovacuum_count): this is the runner's own.
    const vacuums = async () =>
      Number(
        (
          await p.$queryRawUnsafe<{ n: bigint }[]>(
            `SELECT vacuum_count AS n FROM pg_stat_user_tables WHERE relname = 'TournamentStanding'`,
          )
        )[0].n,
      );
    const before = await vacuums();
    await leaveJobBehind(demo.matches.final, 1, 1);
    await leaveJobBehind(demo.matches.opener, 3, 1);
    s.app.rescoring.wake();
    await s.app.rescoring.idle();
    expect(await p.rescoreJob.count()).toBe(0);
    expect(await vacuums()).toBe(before + 1);
  });

  it('left by a process that stopped first, is run by the next server to start', async () => {
    const { final } = demo.matches;
    await leaveJobBehind(final, 0, 3);
    await s.app.rescoring.close();
    await s.close();

    s = await startTestServer({ target: target.target, env: JOBS, seed: false });
    await s.app.rescoring.idle();
    expect(await s.t.db.prisma.rescoreJob.count()).toBe(0);
    expect(await prediction(final)).toMatchObject({ status: 'SCORED', exactHit: false, outcomeHit: false, points: 0 });
  });

  it('waiting for a retry, is run when its wait ends', async () => {
    const p = s.t.db.prisma;
    await p.rescoreJob.create({
      data: { matchId: demo.matches.opener, attempts: 1, lastError: 'earlier', retryAt: new Date(Date.now() + 1500) },
    });
    s.app.rescoring.wake();
    await s.app.rescoring.idle();
    expect(await p.rescoreJob.count()).toBe(1);
    for (let i = 0; i < 100 && (await p.rescoreJob.count()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
    await s.app.rescoring.idle();
    expect(await p.rescoreJob.count()).toBe(0);
  });

  it('left behind, is run by npm run notifications:tick', async () => {
    const { final } = demo.matches;
    const p = s.t.db.prisma;
    await leaveJobBehind(final, 2, 0);
    const url = 'url' in target.target ? target.target.url : `file:${target.target.file}`;
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      JWT_SECRET: 'x'.repeat(48),
      DATABASE_URL: url,
      DATA_DIR: '/tmp',
    };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/notifications-tick.ts'],
      {
        env,
        timeout: 60_000,
      },
    );
    expect(stdout).toContain('"rescoring":{"done":1,"failed":0,');
    expect(await p.rescoreJob.count()).toBe(0);
    expect(await prediction(final)).toMatchObject({ status: 'SCORED', exactHit: true });
  });
});

describe('an import with results past the threshold', () => {
  it('queues a job per match whose result changed, which the runner scores right after', async () => {
    const IMPORT = `mutation($j: String!) {
      importOpenfootball(json: $j, externalId: "test:mini-jobs", allowFutureResults: true) {
        tournamentId changedResultMatchIds rescoredPredictions rescoreJobsQueued
      }
    }`;
    const file = JSON.parse(readFileSync(new URL('../fixtures/openfootball/mini-cup.json', import.meta.url), 'utf8'));
    const first = await s.gql(IMPORT, { j: JSON.stringify(file) }, manager);
    expect(first.errors).toBeUndefined();
    // Results without predictions: nothing to rescore, no job.
    expect(first.data.importOpenfootball).toMatchObject({ rescoredPredictions: 0, rescoreJobsQueued: 0 });
    const p = s.t.db.prisma;
    const final = await p.match.findUniqueOrThrow({ where: { externalId: 'test:mini-jobs:match:m12' } });
    await p.prediction.create({
      data: { userId: demo.users['player1@demo.test'], matchId: final.id, homeTeamGoals: 2, awayTeamGoals: 1 },
    });
    file.matches[5].score = { ft: [2, 1] }; // the final is played
    const second = await s.gql(IMPORT, { j: JSON.stringify(file) }, manager);
    expect(second.errors).toBeUndefined();
    expect(second.data.importOpenfootball).toMatchObject({
      changedResultMatchIds: [final.id],
      rescoredPredictions: 0,
      rescoreJobsQueued: 1,
    });
    await s.app.rescoring.idle();
    expect(await p.rescoreJob.count()).toBe(0);
    expect(await prediction(final.id)).toMatchObject({ status: 'SCORED', exactHit: true });
  });
});

describe('a change of game rules past the threshold', () => {
  const SET = `mutation($c: Int!, $i: ScoringSettingsInput!) {
    updateScoringSettings(companyId: $c, input: $i, confirm: true) { rescoredPredictions rescoreJobsQueued } }`;

  it('queues a job per decided match, and the jobs score as rescoring in the request does', async () => {
    const p = s.t.db.prisma;
    const company = demo.companies.DEMO;
    const change = async (exactScore: number) => {
      const r = await s.gql(SET, { c: company, i: { exactScore } }, bearer(tokens.admin));
      expect(r.errors).toBeUndefined();
      return r.data.updateScoringSettings as { rescoredPredictions: number; rescoreJobsQueued: number };
    };
    const scored = () =>
      p.prediction.findMany({
        where: { user: { companyId: company }, status: { not: 'PENDING' } },
        select: { id: true, status: true, points: true, exactHit: true, outcomeHit: true },
        orderBy: { id: 'asc' },
      });
    const decided = await p.match.count({
      where: {
        status: { in: ['FINISHED', 'AWARDED', 'CANCELLED'] },
        predictions: { some: { user: { companyId: company } } },
      },
    });
    expect(decided).toBeGreaterThan(1);

    expect(await change(7)).toEqual({ rescoredPredictions: 0, rescoreJobsQueued: decided });
    await s.app.rescoring.idle();
    expect(await p.rescoreJob.count()).toBe(0);
    const byJobs = await scored();
    expect(byJobs.some((x) => x.exactHit && x.points! >= 7)).toBe(true);

    // The same change rescored in the request: back to the default, then 7 again.
    s.config.rescoreInRequestMaxPredictions = 1_000_000;
    try {
      const back = await change(3);
      expect(back.rescoreJobsQueued).toBe(0);
      expect(back.rescoredPredictions).toBeGreaterThan(0);
      expect(await change(7)).toEqual({ rescoredPredictions: back.rescoredPredictions, rescoreJobsQueued: 0 });
      expect(await scored()).toEqual(byJobs);
    } finally {
      s.config.rescoreInRequestMaxPredictions = 0;
    }
  });
});
