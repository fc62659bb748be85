// On PostgreSQL a replica hears the live feed through a LISTEN connection of its own: while that connection is
// down its subscribers hear nothing, so the replica is not ready, and /readyz says which check failed. The
// connection is ended for real (pg_terminate_backend), again and again while the replica reconnects, as a
// database restart or a proxy that keeps cutting it would.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.ts';
import { suiteProvider } from '../helpers/db.ts';

const KILL_LISTENER =
  "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'prode-live' " +
  'AND datname = current_database()';

describe.runIf(suiteProvider === 'postgresql')('readiness and the live feed', () => {
  let s: TestServer;
  const lines: Array<{ level: number; msg: string }> = [];
  beforeAll(async () => {
    s = await startTestServer({
      env: { LOG_LEVEL: 'info' },
      logStream: { write: (l) => void lines.push(JSON.parse(l)) },
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  const readyz = async () => {
    const r = await fetch(`${s.url}/readyz`);
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('is 503 naming the live feed while its LISTEN connection is down, and 200 once it listens again', async () => {
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', database: 'postgresql' } });
    const admin = new pg.Client({ connectionString: (s.t.target as { url: string }).url });
    await admin.connect();
    let killing = true;
    const killer = (async () => {
      while (killing) {
        await admin.query(KILL_LISTENER);
        await sleep(5);
      }
    })();
    let down: Awaited<ReturnType<typeof readyz>> | null = null;
    try {
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(20)) {
        const r = await readyz();
        if (r.status === 503) {
          down = r;
          break;
        }
      }
    } finally {
      killing = false;
      await killer;
      await admin.end();
    }
    expect(down).toEqual({
      status: 503,
      body: {
        status: 'unavailable',
        database: 'postgresql',
        failing: ['liveFeed'],
        message: 'the live feed is not listening (its LISTEN connection is down)',
      },
    });
    // Left alone, it reconnects (its retries wait 5 s at most) and the replica is ready again.
    let up = await readyz();
    for (const deadline = Date.now() + 15_000; up.status !== 200 && Date.now() < deadline; await sleep(50))
      up = await readyz();
    expect(up).toEqual({ status: 200, body: { status: 'ready', database: 'postgresql' } });
    expect(lines.some((l) => l.msg === 'live feed lost: reconnecting')).toBe(true);
  });
});
