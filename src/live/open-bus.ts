// The live feed the database calls for: across replicas on PostgreSQL, in the process on SQLite (one process owns
// the file).
import type { DatabaseTarget } from '../db/adapters.ts';
import type { Db } from '../db/client.ts';
import type { LiveBus } from './bus.ts';
import { LocalBus } from './local-bus.ts';
import { LIVE_CHANNEL, PgBus } from './pg-bus.ts';
import { EventLog } from './event-log.ts';

type Log = (level: 'info' | 'warn', obj: object, msg: string) => void;

/** Waited for at start: past it the replica serves, and its feed keeps trying to listen in the background. */
const READY_WAIT_MS = 5000;

/**
 * `rankingIntervalMs`: LIVE_RANKING_INTERVAL_MS (src/live/ranking-coalescer.ts); `resumeWindowMs`:
 * LIVE_RESUME_WINDOW_MINUTES (src/live/event-log.ts).
 */
export async function openLiveBus(
  target: DatabaseTarget,
  db: Db,
  log: Log,
  { rankingIntervalMs = 0, resumeWindowMs = 0 }: { rankingIntervalMs?: number; resumeWindowMs?: number } = {},
): Promise<LiveBus> {
  const warn = (obj: object, msg: string) => log('warn', obj, msg);
  // Kept for resuming (LIVE_RESUME_WINDOW_MINUTES); 0 keeps nothing, and every resume is told it missed events.
  if (target.provider === 'sqlite')
    return new LocalBus(warn, rankingIntervalMs, resumeWindowMs > 0 ? new EventLog(db, resumeWindowMs, warn) : null);
  // Sent in the transaction that keeps them: NOTIFY is delivered at its commit, in commit order.
  const events =
    resumeWindowMs > 0
      ? new EventLog(db, resumeWindowMs, warn, (tx, kept) =>
          tx.$executeRawUnsafe(
            'SELECT pg_notify($1, payload) FROM json_array_elements_text($2::json) AS payload',
            LIVE_CHANNEL,
            JSON.stringify(kept.map((event) => JSON.stringify(event))),
          ),
        )
      : null;
  const bus = new PgBus(
    target.url,
    // SELECT: pg_notify returns void, which the driver adapter cannot read back.
    (channel, payload) => db.$executeRawUnsafe('SELECT pg_notify($1, $2)', channel, payload),
    log,
    rankingIntervalMs,
    events,
  );
  const ready = await Promise.race([
    bus.ready.then(() => true),
    new Promise<false>((r) => setTimeout(() => r(false), READY_WAIT_MS).unref()),
  ]);
  if (!ready) log('warn', {}, 'live feed: not listening yet; subscribers are told to refetch once it is');
  return bus;
}
