// The dream finals rule without I/O: the final positions read from the last matches and the points a pick earns.
import { describe, expect, it } from 'vitest';
import { finalStandings, pickPoints, type DreamMatch } from '../../src/domain/dream-finals.ts';

const m = (
  roundId: number,
  home: number,
  away: number,
  h: number | null,
  a: number | null,
  pw: 'home' | 'away' | null = null,
  status = 'FINISHED',
): DreamMatch => ({
  roundId,
  homeTeamId: home,
  awayTeamId: away,
  homeTeamGoals: h,
  awayTeamGoals: a,
  penaltiesWinner: pw,
  status,
});
const rounds = [
  { id: 1, name: 'Semi-finals', position: 1 },
  { id: 2, name: 'Match for third place', position: 2 },
  { id: 3, name: 'Final', position: 3 },
];

describe('finalStandings (pure)', () => {
  it('reads positions 1-4 from the final and the third-place match, shoot-outs included', () => {
    const s = finalStandings(rounds, [m(3, 10, 20, 1, 1, 'away'), m(2, 30, 40, 2, 0)]);
    expect([...s.entries()].sort()).toEqual([
      [1, 20],
      [2, 10],
      [3, 30],
      [4, 40],
    ]);
    expect(pickPoints(s, 1, 20, 5)).toBe(5);
    expect(pickPoints(s, 2, 20, 5)).toBe(0);
  });
  it('leaves undecided positions open', () => {
    const s = finalStandings(rounds, [m(3, 10, 20, null, null, null, 'SCHEDULED'), m(2, 30, 40, 1, 0)]);
    expect(s.has(1)).toBe(false);
    expect(pickPoints(s, 1, 10, 5)).toBeNull();
    expect(s.get(3)).toBe(30);
  });
});
