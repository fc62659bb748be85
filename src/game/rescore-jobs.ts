// Rescorings that leave the request: a result on a match with many predictions is committed with a RescoreJob row
// (in the result's own transaction, so neither is kept without the other), and the job is run after the commit by
// src/app/rescore-runner.ts, in this process or any other sharing the database.
//
// A job runs in one transaction that holds its row, rescores the match and deletes the row: it is done whole or not
// at all, and a process that dies in the middle leaves the row for the next run. On PostgreSQL the row is taken
// with FOR UPDATE SKIP LOCKED, so two replicas never rescore one job at once (rescoring is idempotent anyway).
// Lock order: a writer (setMatchResult, a correction, an import) takes the tournament row first, then writes its
// matches and queues jobs (which waits for a run holding the match's job row). A run takes its job rows first (it
// finds them by them), so it must never wait for a tournament while it holds them: it takes the tournaments only if
// they are free, else gives up at once, keeps nothing and is tried again shortly (RESCORE_BUSY). Holding the
// tournaments, it locks the matches (rescoreMatches), which only a writer holding no tournament can hold.
import { providerOf, type Db, type Tx } from '../db/client.ts';
import { lockRowsIfFree } from '../db/row-locks.ts';
import { Prisma } from '../db/sql.ts';
import { aliased, Model, names, query, rowsOf, table } from '../db/typed-sql.ts';
import { rescoreMatches, type RescoreReport } from './rescore.ts';

/** A job's transaction may take this long (100,000 predictions take a few seconds); each statement keeps its own
 * timeout (DB_STATEMENT_TIMEOUT_MS). */
export const RESCORE_JOB_TIMEOUT_MS = 120_000;
/** A failed job waits 10 s, then twice as long after each failure, at most this long. */
const MAX_RETRY_WAIT_MS = 10 * 60_000;
const FIRST_RETRY_WAIT_MS = 10_000;

/**
 * Rescoring these matches is left to jobs, one per match; a job already waiting for one is replaced by a fresh one,
 * due at once. A job being run holds its row: the delete waits for that run to commit (and to remove the row), then
 * the fresh job goes in. Each company whose predictions the jobs rescore (`companyId`, its rules changed; else every
 * company with predictions on the matches) gets a task per match and its rescoring started (rescoreStatus), in a
 * handful of statements whatever the number of matches.
 */
export async function queueRescore(tx: Tx, matchIds: number[], now: Date, companyId?: number): Promise<void> {
  if (matchIds.length === 0) return;
  await tx.rescoreJob.deleteMany({ where: { matchId: { in: matchIds } } });
  await tx.rescoreJob.createMany({ data: matchIds.map((matchId) => ({ matchId, requestedAt: now })) });
  const tasks =
    companyId === undefined
      ? await rowsOf(tx, predictingCompanies, matchIds)
      : (await tx.match.findMany({ where: { id: { in: matchIds } }, select: { id: true, tournamentId: true } })).map(
          (m) => ({ companyId, matchId: m.id, tournamentId: m.tournamentId }),
        );
  if (tasks.length === 0) return;
  const companyIds = [...new Set(tasks.map((t) => t.companyId))];
  await tx.rescoreTask.deleteMany({ where: { matchId: { in: matchIds }, companyId: { in: companyIds } } });
  await tx.rescoreTask.createMany({ data: tasks });
  await startRescores(tx, companyIds, now);
}

/** A company's rescoring that had finished starts again; one never started starts now; one under way goes on. */
async function startRescores(tx: Tx, companyIds: number[], now: Date) {
  await tx.companyRescore.updateMany({
    where: { companyId: { in: companyIds }, finishedAt: { not: null } },
    data: { startedAt: now, finishedAt: null, doneMatches: 0 },
  });
  // An upsert each, in company order: two rescorings queued at once for a company with no row yet both go in.
  for (const companyId of [...companyIds].sort((a, b) => a - b))
    await tx.companyRescore.upsert({ where: { companyId }, create: { companyId, startedAt: now }, update: {} });
}

/** In the jobs' transaction: the matches are done for every company that waited for them; a company with no task
 * left has finished its rescoring. */
async function finishTasks(tx: Tx, matchIds: number[], now: Date) {
  const tasks = await tx.rescoreTask.findMany({ where: { matchId: { in: matchIds } }, select: { companyId: true } });
  if (tasks.length === 0) return;
  const done = new Map<number, number>();
  for (const { companyId } of tasks) done.set(companyId, (done.get(companyId) ?? 0) + 1);
  await tx.rescoreTask.deleteMany({ where: { matchId: { in: matchIds } } });
  // In company order, as every run takes them: two runs finishing matches of the same companies never deadlock.
  for (const [companyId, count] of [...done].sort(([a], [b]) => a - b))
    await tx.companyRescore.updateMany({ where: { companyId }, data: { doneMatches: { increment: count } } });
  const companyIds = [...done.keys()];
  const waiting = await tx.rescoreTask.groupBy({ by: ['companyId'], where: { companyId: { in: companyIds } } });
  const still = new Set(waiting.map((w) => w.companyId));
  const finished = companyIds.filter((id) => !still.has(id));
  if (finished.length)
    await tx.companyRescore.updateMany({
      where: { companyId: { in: finished }, finishedAt: null },
      data: { finishedAt: now },
    });
}

/** The companies whose players predicted these matches, one row per company and match. */
const predictingCompanies = query(
  { companyId: 'number', matchId: 'number', tournamentId: 'number' },
  (matchIds: number[]) => {
    const [p, u, m] = [aliased(Model.Prediction, 'p'), aliased(Model.User, 'u'), aliased(Model.Match, 'm')];
    return Prisma.sql`
      SELECT DISTINCT ${u.c('companyId')} AS "companyId", ${p.c('matchId')} AS "matchId",
        ${m.c('tournamentId')} AS "tournamentId"
      FROM ${p} JOIN ${u} ON ${u.c('id')} = ${p.c('userId')} JOIN ${m} ON ${m.c('id')} = ${p.c('matchId')}
      WHERE ${p.c('matchId')} IN (${Prisma.join(matchIds)})`;
  },
);

/** Whether a job has yet to rescore predictions of the company in these tournaments (Ranking.recomputing). */
export async function rescoring(db: Db | Tx, companyId: number, tournamentIds: number[]): Promise<boolean> {
  const task = await db.rescoreTask.findFirst({
    where: { companyId, tournamentId: { in: tournamentIds } },
    select: { matchId: true },
  });
  return task !== null;
}

export interface RescoreStatus {
  pendingMatches: number;
  doneMatches: number;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** The company's current (or last) rescoring in jobs; all zero and null when it never had one. */
export async function rescoreStatusOf(db: Db | Tx, companyId: number): Promise<RescoreStatus> {
  const [row, pendingMatches] = await Promise.all([
    db.companyRescore.findUnique({ where: { companyId } }),
    db.rescoreTask.count({ where: { companyId } }),
  ]);
  return {
    pendingMatches,
    doneMatches: row?.doneMatches ?? 0,
    startedAt: row?.startedAt ?? null,
    finishedAt: row?.finishedAt ?? null,
  };
}

export interface RescoreJobRun {
  /** The first job's match (a run takes several jobs together: `matchIds`). */
  matchId: number;
  matchIds: number[];
  /** The jobs' failures before this run (a job that failed before runs alone). */
  attempts: number;
  /** null: the run failed (the jobs are kept, to be retried after their wait); `error` says why. */
  report: RescoreReport | null;
  error?: string;
}

/**
 * A run takes the due jobs together, in one transaction, while their matches hold at most this many predictions
 * together (the first job is taken whatever its size): one commit and one pass of each statement over a batch of
 * small matches instead of one per match (figures in bench/RESCORE.md).
 */
export const RESCORE_BATCH_PREDICTIONS = 50_000;
/** And at most this many jobs. */
const RESCORE_BATCH_JOBS = 25;

/** runDueRescore's answer when a tournament of its jobs was being written: nothing was done; try again shortly. */
export const RESCORE_BUSY = 'busy';
/** How long "shortly" is: a writer holds a tournament for one short transaction. */
export const RESCORE_BUSY_RETRY_MS = 250;

class TournamentsBusy extends Error {}

/**
 * Runs the oldest jobs that are due, if any: null when none is (or every due one is being run by another process),
 * RESCORE_BUSY when their tournaments are being written. A failure is recorded on the jobs (attempts, lastError,
 * retryAt) and returned, not thrown.
 */
export async function runDueRescore(
  db: Db,
  { now = new Date(), timeoutMs = RESCORE_JOB_TIMEOUT_MS }: { now?: Date; timeoutMs?: number } = {},
): Promise<RescoreJobRun | typeof RESCORE_BUSY | null> {
  const postgres = providerOf(db) === 'postgresql';
  let taken: TakenJob[] = [];
  try {
    const report = await db.$transaction(
      async (tx) => {
        taken = postgres ? await takePostgres(tx, now) : await batchOf(tx, await takeSqlite(tx, now));
        if (taken.length === 0) return null;
        const matchIds = taken.map((j) => j.matchId);
        if (postgres && !(await lockTournamentsIfFree(tx, matchIds))) throw new TournamentsBusy();
        const done = await rescoreMatches(tx, matchIds);
        await tx.rescoreJob.deleteMany({ where: { matchId: { in: matchIds } } });
        await finishTasks(tx, matchIds, new Date());
        return done;
      },
      { maxWait: 5000, timeout: timeoutMs },
    );
    const [first] = taken;
    return first && report ? { ...ran(taken), report } : null;
  } catch (err) {
    if (err instanceof TournamentsBusy) return RESCORE_BUSY;
    if (taken.length === 0) throw err;
    // Prisma's messages start with the call and end with the database's words: kept whole, on one line.
    const error = String((err as Error).message ?? err)
      .replace(/\s+/g, ' ')
      .trim()
      .slice(-500);
    for (const { matchId, attempts, requestedAt } of taken) {
      const wait = Math.min(FIRST_RETRY_WAIT_MS * 2 ** attempts, MAX_RETRY_WAIT_MS);
      // Only if no newer result reset the job meanwhile (that one is due at once).
      await db.rescoreJob.updateMany({
        where: { matchId, requestedAt },
        // From the failure, not the run's start: a run that failed on a statement timeout is not due again at once.
        data: {
          attempts: attempts + 1,
          lastError: error,
          retryAt: new Date(Math.max(now.getTime(), Date.now()) + wait),
        },
      });
    }
    return { ...ran(taken), report: null, error };
  }
}

async function lockTournamentsIfFree(tx: Tx, matchIds: number[]): Promise<boolean> {
  const matches = await tx.match.findMany({ where: { id: { in: matchIds } }, select: { tournamentId: true } });
  return lockRowsIfFree(
    tx,
    'postgresql',
    Model.Tournament,
    matches.map((m) => m.tournamentId),
  );
}

const ran = (taken: TakenJob[]) => ({
  matchId: taken[0].matchId,
  matchIds: taken.map((j) => j.matchId),
  attempts: taken[0].attempts,
});

/**
 * The jobs of one run, from the due ones in order: those that never failed, while their matches' predictions fit
 * RESCORE_BATCH_PREDICTIONS. A job that failed before runs alone, so one failing match does not hold others back.
 */
async function batchOf(tx: Tx, due: TakenJob[]): Promise<TakenJob[]> {
  if (due.length <= 1 || due[0].attempts > 0) return due.slice(0, 1);
  const failedBefore = due.findIndex((j) => j.attempts > 0);
  const fresh = failedBefore < 0 ? due : due.slice(0, failedBefore);
  const counts = await tx.prediction.groupBy({
    by: ['matchId'],
    where: { matchId: { in: fresh.map((j) => j.matchId) } },
    _count: { _all: true },
  });
  const size = new Map(counts.map((c) => [c.matchId, c._count._all]));
  const batch = [fresh[0]];
  let predictions = size.get(fresh[0].matchId) ?? 0;
  for (const job of fresh.slice(1)) {
    predictions += size.get(job.matchId) ?? 0;
    if (predictions > RESCORE_BATCH_PREDICTIONS) break;
    batch.push(job);
  }
  return batch;
}

/**
 * Runs every job due now, one after the other (a failed one is not due again at once, so this ends): for the
 * command-line tools, which have no runner. `failed` hears each failure.
 */
export async function runDueRescores(
  db: Db,
  failed: (job: RescoreJobRun) => void = () => {},
): Promise<{ done: number; failed: number; predictions: number }> {
  const figures = { done: 0, failed: 0, predictions: 0 };
  for (let job = await runDueRescore(db); job; job = await runDueRescore(db)) {
    if (job === RESCORE_BUSY) await new Promise((resolve) => setTimeout(resolve, RESCORE_BUSY_RETRY_MS));
    else if (job.report) {
      figures.done += job.matchIds.length;
      figures.predictions += job.report.predictions;
    } else {
      figures.failed += job.matchIds.length;
      failed(job);
    }
  }
  return figures;
}

/** When the earliest failed job is due again (null: none waits for a retry). */
export async function nextRescoreRetry(db: Db): Promise<Date | null> {
  const agg = await db.rescoreJob.aggregate({ _min: { retryAt: true } });
  return agg._min.retryAt;
}

/** Jobs waiting, and the oldest one's request time: for /metrics and operators. */
export async function pendingRescores(db: Db): Promise<{ count: number; oldest: Date | null }> {
  const agg = await db.rescoreJob.aggregate({ _count: { _all: true }, _min: { requestedAt: true } });
  return { count: agg._count._all, oldest: agg._min.requestedAt };
}

interface TakenJob {
  matchId: number;
  attempts: number;
  requestedAt: Date;
}

/** PostgreSQL: the oldest due jobs (`lock`: only those no other transaction holds, locked), in order. */
const dueJob = query(
  { matchId: 'number', attempts: 'number', requestedAt: 'date' },
  (now: Date, limit: number, lock: boolean, only: number[] | null = null) => {
    const j = aliased(Model.RescoreJob, 'j');
    return Prisma.sql`
    SELECT ${j.c('matchId')} AS "matchId", ${j.c('attempts')} AS "attempts", ${j.c('requestedAt')} AS "requestedAt"
    FROM ${j}
    WHERE (${j.c('retryAt')} IS NULL OR ${j.c('retryAt')} <= ${now}::timestamp)
      ${only ? Prisma.sql`AND ${j.c('matchId')} IN (${Prisma.join(only)})` : Prisma.empty}
    ORDER BY ${j.c('requestedAt')}, ${j.c('matchId')} LIMIT ${limit}
    ${lock ? Prisma.sql`FOR UPDATE SKIP LOCKED` : Prisma.empty}`;
  },
);

/**
 * PostgreSQL: the batch is chosen from the due jobs as read, then only its jobs are locked, so the jobs it leaves
 * stay free for another replica's runner meanwhile. When another runner took some of them (or one failed
 * meanwhile), the batch is chosen again from the jobs free now, those this run holds included.
 */
async function takePostgres(tx: Tx, now: Date): Promise<TakenJob[]> {
  const batch = await batchOf(tx, await rowsOf(tx, dueJob, now, RESCORE_BATCH_JOBS, false));
  if (batch.length === 0) return [];
  const locked = await rowsOf(
    tx,
    dueJob,
    now,
    batch.length,
    true,
    batch.map((j) => j.matchId),
  );
  const attempts = new Map(batch.map((j) => [j.matchId, j.attempts]));
  if (locked.length === batch.length && locked.every((j) => attempts.get(j.matchId) === j.attempts)) return locked;
  return batchOf(tx, await rowsOf(tx, dueJob, now, RESCORE_BATCH_JOBS, true));
}

/**
 * SQLite: the transaction becomes the writer before it reads (a write that changes nothing), so a second process
 * on the file (the CLI tick) waits for the runner's commit instead of failing on a snapshot the runner moved.
 */
const writersTurn = () => Prisma.sql`UPDATE ${table(Model.RescoreJob)} SET ${names(Model.RescoreJob, 'attempts')} =
  ${names(Model.RescoreJob, 'attempts')} WHERE 0 = 1`;

// SQLite's writers take turns: the first due jobs are this run's. A second process on the file (the CLI tick) that
// reaches for the same jobs waits for the first one's transaction (or fails busy past the timeout: recorded as a
// failure, retried); it never rescores twice, since the jobs are gone once the first commits.
async function takeSqlite(tx: Tx, now: Date): Promise<TakenJob[]> {
  await tx.$executeRaw(writersTurn());
  return tx.rescoreJob.findMany({
    where: { OR: [{ retryAt: null }, { retryAt: { lte: now } }] },
    orderBy: [{ requestedAt: 'asc' }, { matchId: 'asc' }],
    select: { matchId: true, attempts: true, requestedAt: true },
    take: RESCORE_BATCH_JOBS,
  });
}

/** Run outside a transaction: VACUUM refuses to run in one. */
const vacuum = () => Prisma.sql`VACUUM (ANALYZE) ${table(Model.TournamentStanding)}`;

/**
 * PostgreSQL: vacuums the standings after rescoring jobs. A rescoring moves most of a tournament's standings to new
 * places in the ranking-order index, and results that come in a burst (a matchday's, or a change of game rules
 * rescoring every decided match) grew it several times over before autovacuum caught up, and deep ranking pages
 * with it (figures in docs/decisions/0016-rescoring-leaves-the-request.md). VACUUM marks the dead entries reusable,
 * so the next rescoring fills them instead of growing the index; it blocks neither reads nor writes. SQLite rewrites
 * its B-trees in place.
 */
export async function vacuumStandings(db: Db): Promise<boolean> {
  if (providerOf(db) !== 'postgresql') return false;
  await db.$executeRaw(vacuum());
  return true;
}

/** This file's statements, for the test that runs each on PostgreSQL (test/db/typed-sql.test.ts). */
export const rescoreJobSql = { dueJob, vacuum, writersTurn };
/** Statements both databases run. */
export const rescoreTaskSql = { predictingCompanies };
