// The probes an orchestrator polls. /healthz: the process responds. /readyz: the database responds to a trivial query
// within a short deadline; on SQLite, it has space for writes again after one failed for want of space (a probe
// write, made only then); on PostgreSQL, the live feed's listening connection is up. The response names each check
// that failed.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../db/client.ts';
import { firstLine } from '../first-line.ts';
import type { LiveBus } from '../live/bus.ts';

const READY_TIMEOUT_MS = 2000;
const READY_CACHE_MS = 1000;

interface ReadinessProblem {
  check: 'database' | 'storage' | 'liveFeed';
  message: string;
}

export function registerProbes(app: FastifyInstance, db: Database, live: LiveBus): void {
  // Liveness never touches the database, so a slow database does not get us restarted.
  app.get('/healthz', { config: { rateLimit: false } }, async () => ({ status: 'ok' }));

  const probed = sharedProbe(db, app.log);
  app.get('/readyz', { config: { rateLimit: false } }, async (_request, reply) => {
    if (app.lifecycle.draining) {
      reply.code(503);
      return { status: 'draining', database: db.provider };
    }
    const problems = [...(await probed())];
    if (!live.listening)
      problems.push({ check: 'liveFeed', message: 'the live feed is not listening (its LISTEN connection is down)' });
    if (problems.length === 0) return { status: 'ready', database: db.provider };
    reply.code(503);
    return {
      status: 'unavailable',
      database: db.provider,
      failing: problems.map((p) => p.check),
      message: problems.map((p) => p.message).join('; '),
    };
  });
}

/**
 * One probe of the database serves every request for a second, so a flood of /readyz (it is not rate limited)
 * cannot tie up the pool; the live feed's state is read as it is.
 */
function sharedProbe(db: Database, log: FastifyBaseLogger): () => Promise<ReadinessProblem[]> {
  let lastProbe: { at: number; result: Promise<ReadinessProblem[]> } | null = null;
  return () => {
    if (!lastProbe || Date.now() - lastProbe.at > READY_CACHE_MS)
      lastProbe = { at: Date.now(), result: probe(db, log) };
    return lastProbe.result;
  };
}

async function probe(db: Database, log: FastifyBaseLogger): Promise<ReadinessProblem[]> {
  try {
    await withTimeout(db.ping(), READY_TIMEOUT_MS);
  } catch (err) {
    log.warn({ err: firstLine(err) }, 'readiness: the database does not respond');
    return [{ check: 'database', message: 'the database does not respond' }];
  }
  const full = db.storageFull();
  if (!full) return [];
  try {
    await withTimeout(db.probeStorage(), READY_TIMEOUT_MS);
    log.info({ fullSince: full.since }, 'readiness: the database has space for writes again');
    return [];
  } catch (err) {
    log.warn({ err: firstLine(err), fullSince: full.since }, 'readiness: the database is still full');
    return [{ check: 'storage', message: 'the database has no space left for writes' }];
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no response within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
