// The mixed read/write load, short: zero errors at concurrency 64 and bounded memory growth. The full 60 s run
// with figures is `npm run bench:load` (bench/LOAD.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoadTarget, type StartedTarget } from '../../bench/load-target.ts';
import { mixedLoad } from '../../bench/mixed-load.ts';
import { suiteProvider } from '../helpers/db.ts';
import { emptyTarget } from '../helpers/db.ts';

describe(`mixed load at concurrency 64 on ${suiteProvider}`, () => {
  let target: StartedTarget;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const empty = await emptyTarget();
    drop = empty.drop;
    target = await startLoadTarget(empty.target.provider === 'postgresql' ? empty.target.url : undefined);
  }, 120_000);
  afterAll(async () => {
    const code = await target?.stop();
    expect(code, target?.output()).toBe(0);
    await drop?.();
  });

  // A short run still sees the heap grow towards its working size, by how much depends on the Node version's heap
  // sizing (Node 24 grows more than 22 in the first seconds). A leak keeps growing: so the load runs twice after the
  // warm-up, and the second run, which starts at the working size, must stay within the 150 MiB bench:load holds.
  it('answers every request without an error, and memory levels off under the same load', async () => {
    const first = await mixedLoad(target, { seconds: 6, connections: 64, warmupSeconds: 4 });
    const second = await mixedLoad(target, { seconds: 6, connections: 64, warmupSeconds: 0 });
    for (const r of [first, second]) {
      expect(r.requests).toBeGreaterThan(100);
      expect(r.httpErrors).toBe(0);
      expect(r.graphqlErrors).toBe(0);
    }
    // Every connection walks the same cycle of ten steps; on a busy CI machine a short run may not reach the
    // last ones, but the first four include a write (upsertPrediction). The full cycle is bench:load's.
    expect(Object.keys(first.byKind).length).toBeGreaterThanOrEqual(4);
    expect(second.rssAfterMiB - second.rssBeforeMiB, JSON.stringify([first, second])).toBeLessThan(150);
    // Still serving afterwards.
    expect((await fetch(`${target.url}/readyz`)).status).toBe(200);
  }, 60_000);
});
