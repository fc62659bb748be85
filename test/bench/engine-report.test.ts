// The verdict bench/ENGINE.md gives each engine part: what decides whether a part stays.
import { describe, expect, it } from 'vitest';
import { signTestP, verdictOf, type Result } from '../../bench/engine-report.ts';

function result(on: number[], off: number[]): Result {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratios = on.map((x, i) => x / off[i]!);
  return {
    part: 'jit',
    store: 'sqlite',
    concurrency: 16,
    workload: 'deep',
    on: { median: median(on), cells: on.join(', '), statements: 8, errors: 0 },
    off: { median: median(off), cells: off.join(', '), statements: 8, errors: 0 },
    ratio: median(on) / median(off),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    load: [1, 1],
    at: '',
    node: 'v22',
    command: '',
  };
}

describe('the engine bench verdict', () => {
  it('computes the one-sided sign test', () => {
    expect(signTestP(7, 7)).toBeCloseTo(1 / 128);
    expect(signTestP(6, 7)).toBeCloseTo(8 / 128);
    expect(signTestP(8, 9)).toBeCloseTo(10 / 512);
    expect(signTestP(0, 9)).toBeCloseTo(1);
  });

  it('keeps a part ahead in every round, and in 8 of 9 with one disturbed round', () => {
    expect(verdictOf(result([20, 21, 22, 20, 21, 22, 20], [10, 10, 11, 10, 11, 10, 10]))).toBe('kept');
    const oneDisturbed = result([82, 87, 88, 57, 77, 73, 84, 82, 82], [70, 77, 67, 71, 63, 70, 74, 65, 77]);
    expect(oneDisturbed.min).toBeLessThan(1);
    expect(verdictOf(oneDisturbed)).toBe('kept');
  });

  it('calls a gain that is not in enough rounds, or too small, inside the noise', () => {
    // 6 of 7 ahead: chance 1 in 16.
    expect(verdictOf(result([12, 9, 12, 12, 12, 12, 12], [10, 10, 10, 10, 10, 10, 10]))).toBe('inside the noise');
    // Every round ahead, but by 1-3%.
    expect(verdictOf(result([101, 102, 103, 101, 102], [100, 100, 100, 100, 100]))).toBe('inside the noise');
  });

  it('calls a part behind in every round slower on, and a run with errors not comparable', () => {
    expect(verdictOf(result([8, 8, 9, 8, 8], [10, 10, 10, 10, 10]))).toBe('slower on');
    const failed = result([10, 10, 10], [10, 10, 10]);
    failed.on.errors = 3;
    expect(verdictOf(failed)).toMatch(/not comparable/);
  });
});
