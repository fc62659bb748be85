// The ranking order without I/O: positions, ties and each tie rule over given standings.
import { describe, expect, it } from 'vitest';
import { rankStandings, roundWins, type Standing } from '../../src/domain/rankings.ts';

const st = (userId: number, name: string, points: number, exactHits = 0, outcomeHits = 0): Standing => ({
  userId,
  name,
  points,
  exactHits,
  outcomeHits,
});

describe('rankStandings (pure)', () => {
  it('orders by points, exact hits, outcome hits, then name; ties share a position and skip the next', () => {
    const ranked = rankStandings([
      st(1, 'Dora', 1),
      st(2, 'Bob', 3, 1, 0),
      st(3, 'Ann', 5, 1),
      st(4, 'Cid', 3, 1, 0),
      st(5, 'Eve', 3, 0, 3),
      st(6, 'Fay', 0),
    ]);
    expect(ranked.map((r) => [r.name, r.position])).toEqual([
      ['Ann', 1],
      ['Bob', 2],
      ['Cid', 2],
      ['Eve', 4],
      ['Dora', 5],
      ['Fay', 6],
    ]);
  });
  it('everyone tied is first', () => {
    expect(rankStandings([st(1, 'b', 0), st(2, 'a', 0), st(3, 'c', 0)]).map((r) => r.position)).toEqual([1, 1, 1]);
  });

  const field = [
    { ...st(1, 'Ann', 7, 1, 4), roundWins: 1 },
    { ...st(2, 'Bob', 7, 2, 1), roundWins: 0 },
    { ...st(3, 'Cid', 7, 1, 4), roundWins: 2 },
    { ...st(4, 'Dan', 4.5, 0, 3), roundWins: 2 },
    { ...st(5, 'Eve', 4.5, 1, 0), roundWins: 2 },
  ];
  it.each([
    [
      'HITS',
      [
        ['Bob', 1],
        ['Ann', 2],
        ['Cid', 2],
        ['Eve', 4],
        ['Dan', 5],
      ],
    ],
    [
      'POINTS',
      [
        ['Ann', 1],
        ['Bob', 1],
        ['Cid', 1],
        ['Dan', 4],
        ['Eve', 4],
      ],
    ],
    [
      'ROUND_WINS',
      [
        ['Cid', 1],
        ['Ann', 2],
        ['Bob', 3],
        ['Dan', 4],
        ['Eve', 4],
      ],
    ],
  ] as const)('tie rule %s', (rule, expected) => {
    expect(rankStandings(field, rule).map((r) => [r.name, r.position])).toEqual(expected);
  });

  it('round wins: the most points of a round (more than 0), shared when level', () => {
    const wins = roundWins([
      { userId: 1, roundId: 1, points: 3 },
      { userId: 2, roundId: 1, points: 3 },
      { userId: 3, roundId: 1, points: 1 },
      { userId: 1, roundId: 2, points: 0 },
      { userId: 2, roundId: 2, points: 0 },
      { userId: 3, roundId: 3, points: 2.5 },
    ]);
    expect(Object.fromEntries(wins)).toEqual({ 1: 1, 2: 1, 3: 1 });
  });
});
