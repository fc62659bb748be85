// The rate-limit counters replicas share on PostgreSQL (src/db/rate-counters.ts): concurrent calls from many
// connections count exactly, as one process's memory would. SQLite keeps its counts in memory (the login throttle's
// tests run on both).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { RateCounters } from '../../src/db/rate-counters.ts';
import { freshDatabase, suiteProvider, type TestDatabase } from '../helpers/db.ts';

describe.runIf(suiteProvider === 'postgresql')('RateCounters on PostgreSQL', () => {
  let t: TestDatabase;
  let other: TestDatabase['db'];
  beforeAll(async () => {
    t = await freshDatabase();
    // A second client on the same database, as a second replica would have.
    other = await openDatabase(t.target, { poolMax: 4 });
  });
  afterAll(async () => {
    await other?.close();
    await t?.drop();
  });

  it('50 concurrent hits on one key from two clients count exactly 50, one count each', async () => {
    const clients = [new RateCounters(t.db.prisma), new RateCounters(other.prisma)];
    const now = new Date();
    const hits = await Promise.all(Array.from({ length: 50 }, (_, i) => clients[i % 2].hit('k:50', 60_000, now)));
    expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(hits.map((h) => h.resetAt.getTime()))).toEqual(new Set([now.getTime() + 60_000]));
  });

  it('starts a new window once the old one has ended', async () => {
    const c = new RateCounters(t.db.prisma);
    expect(await c.hit('k:window', 1000, new Date(5000))).toEqual({ count: 1, resetAt: new Date(6000) });
    expect(await c.hit('k:window', 1000, new Date(5999))).toEqual({ count: 2, resetAt: new Date(6000) });
    expect(await c.hit('k:window', 1000, new Date(6000))).toEqual({ count: 1, resetAt: new Date(7000) });
  });

  it('hitUnder: of 50 concurrent calls from two clients, exactly max are counted; the rest count nothing', async () => {
    const clients = [new RateCounters(t.db.prisma), new RateCounters(other.prisma)];
    const now = new Date();
    const limits = (i: number) => [
      { key: 'u:shared', max: 30 },
      { key: `u:own:${i % 5}`, max: 4 },
    ];
    const calls = await Promise.all(
      Array.from({ length: 50 }, (_, i) => clients[i % 2].hitUnder(limits(i), 60_000, now)),
    );
    // Five keys of four each: 20 counted, under the shared key's 30.
    expect(calls.filter((c) => c.refusedUntil === null)).toHaveLength(20);
    for (const c of calls) {
      if (c.refusedUntil) expect(c.windows).toEqual([]);
      else expect(c.windows).toHaveLength(2);
    }
    const full = await clients[0].fullUntil([{ key: 'u:shared', max: 20 }], now);
    expect(full).toEqual(new Date(now.getTime() + 60_000));
    expect(await clients[0].fullUntil([{ key: 'u:shared', max: 21 }], now)).toBeNull();
  });

  it('gives back only to the window counted in, and clears a key', async () => {
    const c = new RateCounters(t.db.prisma);
    const first = await c.hitUnder([{ key: 'g:a', max: 1 }], 1000, new Date(10_000));
    expect(first.refusedUntil).toBeNull();
    expect((await c.hitUnder([{ key: 'g:a', max: 1 }], 1000, new Date(10_500))).refusedUntil).toEqual(new Date(11_000));
    const later = await c.hitUnder([{ key: 'g:a', max: 1 }], 1000, new Date(11_000)); // a new window
    expect(later.refusedUntil).toBeNull();
    await c.giveBack(first.windows, []); // the old window: nothing changes
    expect(await c.fullUntil([{ key: 'g:a', max: 1 }], new Date(11_001))).toEqual(new Date(12_000));
    await c.giveBack(later.windows, []);
    expect(await c.fullUntil([{ key: 'g:a', max: 1 }], new Date(11_001))).toBeNull();
    await c.hitUnder([{ key: 'g:a', max: 1 }], 1000, new Date(11_002));
    await c.giveBack([], ['g:a']);
    expect(await c.fullUntil([{ key: 'g:a', max: 1 }], new Date(11_003))).toBeNull();
  });
});
