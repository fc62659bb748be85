// The process's runner of rescoring jobs (src/game/rescore-jobs.ts): woken right after a result that left its
// rescoring to a job committed (so points arrive seconds after the result, not at the next tick), at start-up and
// by the notifications tick (jobs another process left behind), and when a failed job is due again. One pass at a
// time, outside the request that woke it (src/lib/serial-runs.ts). Each job done tells live subscribers that the
// rankings moved.
import type { Db } from '../db/client.ts';
import type { LiveEvent } from '../live/events.ts';
import {
  nextRescoreRetry,
  RESCORE_BUSY,
  RESCORE_BUSY_RETRY_MS,
  runDueRescore,
  vacuumStandings,
  type RescoreJobRun,
} from '../game/rescore-jobs.ts';
import { SerialRuns } from '../lib/serial-runs.ts';

/** After a run that failed before taking a job, the next one starts this much later (or at a failed job's time). */
const RETRY_AFTER_ERROR_MS = 10_000;

type Log = (level: 'info' | 'warn' | 'error', obj: object, msg: string) => void;

export interface RescoreFigures {
  done: number;
  failed: number;
  predictions: number;
  seconds: number;
}

export class RescoreRunner {
  private readonly runs = new SerialRuns(() => this.pass());
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  readonly figures: RescoreFigures = { done: 0, failed: 0, predictions: 0, seconds: 0 };

  constructor(
    private readonly db: Db,
    private readonly live: { publish(event: LiveEvent): void },
    private readonly log: Log,
  ) {}

  /** Starts a pass unless one is under way; never throws (failures are logged and retried later). */
  wake(): void {
    this.runs.wake();
  }

  /** Resolves once the pass under way (and any it asked for) has finished. */
  idle(): Promise<void> {
    return this.runs.idle();
  }

  /** No pass starts after this; the one under way finishes (its transaction would otherwise be cut). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.runs.stop();
  }

  /** The jobs due now; a failed one waits for its retry time, so this ends. */
  private async pass(): Promise<void> {
    let failed = false;
    let busy = false;
    let rescored = 0;
    try {
      for (let job = await this.next(); job && !this.closed; job = await this.next()) {
        // A writer holds the jobs' tournament: its transaction is short; the pass goes on after it.
        if (job === RESCORE_BUSY) {
          busy = true;
          break;
        }
        this.report(job);
        if (job.report) rescored++;
      }
    } catch (err) {
      // No job was taken (the database is away, or busy past the wait for a connection): try again later.
      failed = true;
      this.log('error', { err: String((err as Error).message ?? err).split('\n')[0] }, 'rescoring jobs failed');
    }
    // Once per pass: the jobs of a burst are rescored back to back, then their standings vacuumed once.
    if (rescored > 0 && !this.closed) await this.vacuum(rescored);
    await this.scheduleRetry(failed, busy);
  }

  private async vacuum(jobs: number) {
    const started = performance.now();
    try {
      if (await vacuumStandings(this.db))
        this.log('info', { jobs, ms: Math.round(performance.now() - started) }, 'standings vacuumed');
    } catch (err) {
      // Autovacuum gets to it later; the points are out already.
      this.log('warn', { err: String((err as Error).message ?? err).split('\n')[0] }, 'standings vacuum failed');
    }
  }

  /**
   * A failed job is run again when its wait ends, without waiting for a tick or a new result; after a run that
   * could not take any job, in RETRY_AFTER_ERROR_MS; after one whose tournament was busy, in RESCORE_BUSY_RETRY_MS.
   */
  private async scheduleRetry(runFailed: boolean, busy: boolean) {
    const at = this.closed ? null : await nextRescoreRetry(this.db).catch(() => null);
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    if (this.closed) return;
    let wait = at ? Math.max(0, at.getTime() - Date.now()) + 10 : runFailed ? RETRY_AFTER_ERROR_MS : null;
    if (runFailed && wait !== null) wait = Math.min(wait, RETRY_AFTER_ERROR_MS);
    if (busy) wait = Math.min(wait ?? RESCORE_BUSY_RETRY_MS, RESCORE_BUSY_RETRY_MS);
    if (wait === null) return;
    this.retry = setTimeout(() => this.wake(), wait);
    // A pending retry does not keep the process alive: the next start runs the job anyway.
    this.retry.unref();
  }

  private async next(): Promise<(RescoreJobRun & { ms: number }) | typeof RESCORE_BUSY | null> {
    const started = performance.now();
    const job = await runDueRescore(this.db);
    return job && job !== RESCORE_BUSY ? { ...job, ms: performance.now() - started } : job;
  }

  private report({ matchId, matchIds, attempts, report, error, ms }: RescoreJobRun & { ms: number }) {
    this.figures.seconds += ms / 1000;
    const jobs = matchIds.length;
    if (!report) {
      this.figures.failed += jobs;
      this.log(
        'error',
        { matchId, matchIds, attempts: attempts + 1, err: error },
        'rescoring job failed; it will be retried',
      );
      return;
    }
    this.figures.done += jobs;
    this.figures.predictions += report.predictions;
    this.log('info', { matchId, matchIds, predictions: report.predictions, ms: Math.round(ms) }, 'match rescored');
    if (report.standingsChanged)
      for (const tournamentId of report.tournamentIds) this.live.publish({ kind: 'ranking', tournamentId });
  }
}
