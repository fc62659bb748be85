// `npm run bench:engine`'s command line: a wrong part is refused before any server starts, naming what is accepted.
import { describe, expect, it } from 'vitest';
import { commandOf, parseEngineArgs, PLANS } from '../../bench/engine-args.ts';
import { ENGINE_PARTS } from '../../src/engine/mode.ts';

describe('bench:engine arguments', () => {
  it('refuses an unknown part with the names ENGINE_OFF accepts', () => {
    expect(() => parseEngineArgs(['--part', 'warp-drive'], {})).toThrow(
      `--part "warp-drive" is not an engine part; ENGINE_OFF accepts ${ENGINE_PARTS.join(', ')}`,
    );
    expect(() => parseEngineArgs(['--part', 'jit,warp-drive'], {})).toThrow(/"warp-drive" is not an engine part/);
    expect(() => parseEngineArgs([], {})).toThrow(/--part is required/);
  });

  it('accepts every name ENGINE_OFF accepts, all, and each', () => {
    for (const part of ENGINE_PARTS.filter((p) => !PLANS[p]?.postgresqlOnly))
      expect(parseEngineArgs(['--part', part], {}).parts).toEqual([part]);
    expect(parseEngineArgs(['--part', 'all'], {}).parts).toEqual(['all']);
    // A name added to ENGINE_OFF later is measurable without a change here.
    expect(parseEngineArgs(['--part', 'new-part'], {}, [...ENGINE_PARTS, 'new-part']).parts).toEqual(['new-part']);
    const each = parseEngineArgs(['--part', 'each', '--store', 'postgresql'], { DATABASE_URL: 'postgresql://x' });
    expect(each.parts).toEqual([...ENGINE_PARTS, 'all']);
    // On SQLite, each leaves out the parts that act on PostgreSQL only.
    expect(parseEngineArgs(['--part', 'each'], {}).parts).not.toContain('prepared-statements');
  });

  it('refuses a PostgreSQL-only part on SQLite, PostgreSQL without DATABASE_URL, and bad numbers', () => {
    expect(() => parseEngineArgs(['--part', 'prepared-statements'], {})).toThrow(/PostgreSQL only: add --store/);
    expect(() => parseEngineArgs(['--part', 'jit', '--store', 'postgresql'], {})).toThrow(/needs DATABASE_URL/);
    expect(() => parseEngineArgs(['--part', 'jit', '--store', 'mysql'], {})).toThrow(/sqlite or postgresql/);
    expect(() => parseEngineArgs(['--part', 'jit', '--alternate', '0'], {})).toThrow(/--alternate/);
    expect(() => parseEngineArgs(['--part', 'jit', '--concurrency', '16,x'], {})).toThrow(/--concurrency/);
  });

  it('writes the command that reproduces a row', () => {
    const args = parseEngineArgs(['--part', 'jit', '--alternate', '7'], {});
    expect(args).toMatchObject({ rounds: 7, store: 'sqlite', scale: 1, duration: 3, warmup: 1, concurrencies: [16] });
    expect(commandOf('jit', args)).toBe(
      'npm run bench:engine -- --part jit --alternate 7 --store sqlite --scale 1 --duration 3 --warmup 1 ' +
        '--concurrency 16',
    );
  });
});
