// The auth row cache (src/engine/cache/auth-row-cache.ts) on its own: a burst of requests of one caller reads each
// row once, at one version; a failed read is not kept.
import { describe, expect, it } from 'vitest';
import { AuthRowCache } from '../../../src/engine/cache/auth-row-cache.ts';

/** A read that counts itself; the reads in flight settle when told, each with its own copy of the row. */
function slowRead() {
  let reads = 0;
  let pending: Array<(row: { id: number } | Error) => void> = [];
  const load = () => {
    reads++;
    return new Promise<{ id: number }>((resolve, reject) => {
      pending.push((row) => (row instanceof Error ? reject(row) : resolve({ ...row })));
    });
  };
  const settle = (row: { id: number } | Error) => {
    for (const done of pending) done(row);
    pending = [];
  };
  return { load, reads: () => reads, settle };
}

describe('AuthRowCache', () => {
  it('reads a row once for requests of one version asking while it is read: they hold one object', async () => {
    const cache = new AuthRowCache();
    const read = slowRead();
    const asked = Array.from({ length: 30 }, () => cache.at('v1')('user-active:1', read.load));
    read.settle({ id: 1 });
    const rows = await Promise.all(asked);
    expect(read.reads()).toBe(1);
    for (const row of rows) expect(row).toBe(rows[0]);
    // Kept once read; another version reads again.
    expect(await cache.at('v1')('user-active:1', read.load)).toBe(rows[0]);
    const other = cache.at('v2')('user-active:1', read.load);
    read.settle({ id: 1 });
    expect(await other).not.toBe(rows[0]);
    expect(read.reads()).toBe(2);
  });

  it('does not keep a read that failed', async () => {
    const cache = new AuthRowCache();
    const read = slowRead();
    const failed = cache.at('v1')('company:1', read.load);
    read.settle(new Error('database away'));
    await expect(failed).rejects.toThrow('database away');
    const again = cache.at('v1')('company:1', read.load);
    read.settle({ id: 1 });
    expect(await again).toEqual({ id: 1 });
    expect(read.reads()).toBe(2);
  });
});
