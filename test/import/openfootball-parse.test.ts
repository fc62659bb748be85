import { describe, expect, it } from 'vitest';
import { FixtureFormatError, parseKickoff, parseOpenfootball } from '../../src/import/openfootball.ts';
import mini from '../fixtures/openfootball/mini-cup.json' with { type: 'json' };

describe('parseKickoff', () => {
  it.each([
    ['2026-06-11', '13:00 UTC-6', '2026-06-11T19:00:00.000Z'],
    ['2026-06-11', '20:00 UTC-6', '2026-06-12T02:00:00.000Z'],
    ['2026-06-01', '21:00 UTC+5:30', '2026-06-01T15:30:00.000Z'],
    ['2030-07-13', '16:00 UTC-3:30', '2030-07-13T19:30:00.000Z'],
    ['2026-06-02', '12:00', '2026-06-02T12:00:00.000Z'],
    ['2026-06-02', undefined, '2026-06-02T00:00:00.000Z'],
  ])('%s %s is %s', (date, time, iso) => {
    expect(parseKickoff(date, time).toISOString()).toBe(iso);
  });

  it('refuses malformed dates and times', () => {
    expect(() => parseKickoff('11/06/2026', '13:00')).toThrow(FixtureFormatError);
    expect(() => parseKickoff('2026-06-11', '25:00 UTC')).toThrow(/time/);
    expect(() => parseKickoff('2026-06-11', 'noon')).toThrow(/time "noon"/);
  });
});

describe('parseOpenfootball', () => {
  const t = parseOpenfootball(mini);

  it('reads rounds in order of appearance, teams and matches', () => {
    expect(t.name).toBe('Mini Cup');
    expect(t.rounds.map((r) => [r.name, r.position, r.hasPenalties])).toEqual([
      ['Group Stage', 1, false],
      ['Semi-finals', 2, true],
      ['Final', 3, true],
    ]);
    expect(t.rounds[2].date.toISOString()).toBe('2030-06-19T00:00:00.000Z');
    expect(t.teams).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot']);
    expect(t.matches).toHaveLength(7);
  });

  it('stores the score after extra time when there was extra time, and penalties with their winner', () => {
    const byKey = Object.fromEntries(t.matches.map((m) => [m.key, m]));
    expect(byKey.m10).toMatchObject({
      homeTeamGoals: 3,
      awayTeamGoals: 2,
      extraTime: true,
      penaltiesWinner: null,
      status: 'FINISHED',
    });
    expect(byKey.m11).toMatchObject({
      homeTeamGoals: 1,
      awayTeamGoals: 1,
      homeTeamPenaltyGoals: 5,
      awayTeamPenaltyGoals: 4,
      penaltiesWinner: 'home',
    });
    expect(byKey.m12).toMatchObject({ homeTeamGoals: null, awayTeamGoals: null, status: 'SCHEDULED' });
    expect(t.matches[0]).toMatchObject({
      key: '2026-06-01:alpha:bravo',
      homeTeamGoals: 2,
      awayTeamGoals: 1,
      group: 'Group A',
      venue: 'North Park',
    });
  });

  it('names the match and field of bad input', () => {
    const bad = (m: object) => () => parseOpenfootball({ name: 'X', matches: [m] });
    const ok = { round: 'R', date: '2026-01-01', team1: 'A', team2: 'B' };
    expect(bad({ ...ok, team2: '' })).toThrow('matches[0].team2');
    expect(bad({ ...ok, score: { ft: [1] } })).toThrow('matches[0].score.ft');
    expect(bad({ ...ok, score: { ft: [1, 1], p: [3, 3] } })).toThrow('cannot be a draw');
    expect(bad({ ...ok, score: { ft: [2, 1], p: [3, 2] } })).toThrow('not drawn');
    expect(() => parseOpenfootball({ name: 'X', matches: {} })).toThrow('matches must be an array');
    expect(() => parseOpenfootball({ name: 'X', matches: [ok, ok] })).toThrow('duplicate match');
  });
});
