// The live feed the database calls for: across replicas on PostgreSQL, in the process on SQLite (one process owns
// the file).
import type { DatabaseTarget } from '../db/adapters.ts';
import type { Db } from '../db/client.ts';
import type { LiveBus } from './bus.ts';
import { LocalBus } from './local-bus.ts';
import { PgBus } from './pg-bus.ts';

type Log = (level: 'info' | 'warn', obj: object, msg: string) => void;

/** Waited for at start: past it the replica serves, and its feed keeps trying to listen in the background. */
const READY_WAIT_MS = 5000;

/** `rankingIntervalMs`: LIVE_RANKING_INTERVAL_MS (src/live/ranking-coalescer.ts). */
export async function openLiveBus(
  target: DatabaseTarget,
  db: Db,
  log: Log,
  { rankingIntervalMs = 0 }: { rankingIntervalMs?: number } = {},
): Promise<LiveBus> {
  if (target.provider === 'sqlite') return new LocalBus((obj, msg) => log('warn', obj, msg), rankingIntervalMs);
  const bus = new PgBus(
    target.url,
    // SELECT: pg_notify returns void, which the driver adapter cannot read back.
    (channel, payload) => db.$executeRawUnsafe('SELECT pg_notify($1, $2)', channel, payload),
    log,
    rankingIntervalMs,
  );
  const ready = await Promise.race([
    bus.ready.then(() => true),
    new Promise<false>((r) => setTimeout(() => r(false), READY_WAIT_MS).unref()),
  ]);
  if (!ready) log('warn', {}, 'live feed: not listening yet; subscribers are told to refetch once it is');
  return bus;
}
