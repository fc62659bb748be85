// Rescoring jobs (src/game/rescore-jobs.ts) across gateway processes (test/helpers/replicas.ts): two replicas that
// both tick take the jobs of many decided matches and each job is done exactly once (its match in one replica's
// "match rescored" line only); a job left behind by a process killed before it ran it is done by the next process
// at its start. Either way the company's rescoreStatus ends with every match done, its predictions scored and each
// player's standing their sum (two runs making a tournament's first standings at once wait for each other).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoIds } from '../../prisma/seed/demo-seed.ts';
import type { Db } from '../../src/db/client.ts';
import { queueRescore, rescoreStatusOf } from '../../src/game/rescore-jobs.ts';
import { suiteProvider } from '../helpers/db.ts';
import { startService, type Service } from '../helpers/process.ts';
import { startReplicas, type Replicas } from '../helpers/replicas.ts';
import { TEST_JWT_SECRET } from '../helpers/tokens.ts';

const HOUR = 3600_000;

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * `n` Demo Corp matches that kicked off an hour ago, each predicted by every Demo Corp player, given a result and
 * left to rescoring jobs (as a rules change or a matchday's results leave them): their ids.
 */
async function decidedMatches(p: Db, demo: DemoIds, n: number): Promise<number[]> {
  const world = await p.country.findFirstOrThrow({ where: { name: 'World' } });
  const players = await p.user.findMany({ where: { companyId: demo.companies.DEMO, deletedAt: null } });
  const date = new Date(Date.now() - HOUR);
  const t = await p.tournament.create({
    data: { name: `Replica Cup ${Math.random()}`, countryId: world.id, ownerCompanyId: demo.companies.DEMO },
  });
  const round = await p.round.create({ data: { tournamentId: t.id, name: 'R1', date, position: 1 } });
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const match = await p.match.create({
      data: {
        tournamentId: t.id,
        roundId: round.id,
        date,
        homeTeamId: demo.teams.Argentina,
        awayTeamId: demo.teams.Japan,
      },
    });
    ids.push(match.id);
    await p.prediction.createMany({
      data: players.map((u, k) => ({ userId: u.id, matchId: match.id, homeTeamGoals: k % 3, awayTeamGoals: 1 })),
    });
  }
  await p.$transaction(async (tx) => {
    await tx.match.updateMany({
      where: { id: { in: ids } },
      data: { status: 'FINISHED', homeTeamGoals: 1, awayTeamGoals: 1 },
    });
    await queueRescore(tx, ids, new Date());
  });
  return ids;
}

/** The matches each process's "match rescored" lines name, one list per process. */
function rescoredBy(outputs: string[]): number[][] {
  return outputs.map((out) =>
    out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; matchIds?: number[] })
      .filter((line) => line.msg === 'match rescored')
      .flatMap((line) => line.matchIds ?? []),
  );
}

/** Every job gone and its line logged: a line may reach the pipe after the job's row is deleted. */
async function untilRescored(p: Db, ids: number[], outputs: () => string[]) {
  await until(async () => (await p.rescoreJob.count({ where: { matchId: { in: ids } } })) === 0, 'the jobs');
  await until(async () => rescoredBy(outputs()).flat().length >= ids.length, 'their log lines');
}

/** Every job gone, the company's rescoring finished with every match done, each prediction scored. */
async function expectDone(p: Db, companyId: number, ids: number[]) {
  expect(await p.rescoreJob.count({ where: { matchId: { in: ids } } })).toBe(0);
  expect(await rescoreStatusOf(p, companyId)).toEqual({
    pendingMatches: 0,
    doneMatches: ids.length,
    startedAt: expect.any(Date),
    finishedAt: expect.any(Date),
  });
  const predictions = await p.prediction.findMany({ where: { matchId: { in: ids } } });
  expect(predictions.every((x) => x.status === 'SCORED')).toBe(true);
  // 1-1: the 1-1 predictions are exact, the others miss the draw.
  for (const x of predictions) expect(x.exactHit).toBe(x.homeTeamGoals === 1);
  // Each player's standing holds what their predictions add up to (made by whichever run scored them first).
  const { tournamentId } = await p.match.findUniqueOrThrow({ where: { id: ids[0] } });
  const sums = new Map<number, { points: number; exactHits: number; outcomeHits: number }>();
  for (const x of predictions) {
    const sum = sums.get(x.userId) ?? { points: 0, exactHits: 0, outcomeHits: 0 };
    sum.points += x.points ?? 0;
    sum.exactHits += x.exactHit ? 1 : 0;
    sum.outcomeHits += x.outcomeHit ? 1 : 0;
    sums.set(x.userId, sum);
  }
  const standings = await p.tournamentStanding.findMany({ where: { tournamentId } });
  expect(
    new Map(standings.map((s) => [s.userId, { points: s.points, exactHits: s.exactHits, outcomeHits: s.outcomeHits }])),
  ).toEqual(sums);
}

describe.runIf(suiteProvider === 'postgresql')('rescoring jobs on two replicas', () => {
  let r: Replicas;
  beforeAll(async () => {
    r = await startReplicas(2, { NOTIFICATIONS_INTERVAL_SECONDS: '1', LOG_LEVEL: 'info' });
  }, 120_000);
  afterAll(() => r?.stop());

  it('both tick; each job is done once, by one of them', async () => {
    const p = r.db.prisma;
    const ids = await decidedMatches(p, r.demo, 80);
    await untilRescored(p, ids, () => r.outputs());
    const byReplica = rescoredBy(r.outputs());
    const all = byReplica.flat().sort((a, b) => a - b);
    expect(all).toEqual([...ids].sort((a, b) => a - b));
    const failures = r.outputs().flatMap((out) => out.split('\n').filter((l) => l.includes('rescoring job failed')));
    expect(failures).toEqual([]);
    await expectDone(p, r.demo.companies.DEMO, ids);
  }, 120_000);
});

describe('rescoring jobs across a restart', () => {
  let r: Replicas;
  let next: Service | undefined;
  beforeAll(async () => {
    // No tick: a process runs the jobs it did not queue only at its start.
    r = await startReplicas(1, { LOG_LEVEL: 'info' }, () => ({}), suiteProvider);
  }, 120_000);
  afterAll(async () => {
    await next?.stop('SIGTERM');
    await r?.stop();
  });

  it('a job left by a process killed before it ran it is done by the next process at its start', async () => {
    const p = r.db.prisma;
    const ids = await decidedMatches(p, r.demo, 3);
    await r.services[0].stop('SIGKILL');
    expect(await p.rescoreJob.count({ where: { matchId: { in: ids } } })).toBe(ids.length);
    expect((await rescoreStatusOf(p, r.demo.companies.DEMO)).pendingMatches).toBe(ids.length);

    next = await startService({
      DATABASE_URL: r.databaseUrl,
      DATA_DIR: '/tmp',
      JWT_SECRET: TEST_JWT_SECRET,
      SEED_ON_EMPTY: 'false',
      NOTIFICATIONS_INTERVAL_SECONDS: '0',
      LOG_LEVEL: 'info',
    });
    await untilRescored(p, ids, () => [next!.output()]);
    expect(
      rescoredBy([next.output()])
        .flat()
        .sort((a, b) => a - b),
    ).toEqual([...ids].sort((a, b) => a - b));
    await expectDone(p, r.demo.companies.DEMO, ids);
  }, 120_000);
});
