// SerialRuns (src/lib/serial-runs.ts), the one-pass-at-a-time runner behind e-mail delivery and rescoring jobs: a
// wake-up during a pass gets one more pass after it (several wake-ups, one pass), passes never overlap, a pass
// runs outside the context of the request that woke it, and nothing starts once stopped.
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { SerialRuns } from '../../src/lib/serial-runs.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('SerialRuns', () => {
  it('runs one more pass for wake-ups during a pass, never two at once', async () => {
    let passes = 0;
    let inPass = 0;
    let overlapped = false;
    const runs = new SerialRuns(async () => {
      overlapped ||= inPass > 0;
      inPass++;
      passes++;
      await tick();
      inPass--;
    });
    runs.wake();
    runs.wake();
    runs.wake();
    await runs.idle();
    expect(passes).toBe(2);
    expect(overlapped).toBe(false);
    runs.wake();
    await runs.idle();
    expect(passes).toBe(3);
  });

  it('runs a pass outside the store of the request that woke it', async () => {
    const request = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    const runs = new SerialRuns(async () => {
      await tick();
      seen.push(request.getStore());
    });
    request.run('request', () => runs.wake());
    await runs.idle();
    expect(seen).toEqual([undefined]);
  });

  it('starts nothing once stopped, and stop waits for the pass under way', async () => {
    let passes = 0;
    let finished = false;
    const runs = new SerialRuns(async () => {
      passes++;
      await tick();
      finished = true;
    });
    runs.wake();
    await runs.stop();
    expect(finished).toBe(true);
    runs.wake();
    await runs.idle();
    expect(passes).toBe(1);
  });
});
