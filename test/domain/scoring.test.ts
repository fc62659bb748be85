import { describe, expect, it } from 'vitest';
import { scorePrediction, type MatchResult, type PredictedScore } from '../../src/domain/scoring.ts';
import {
  DEFAULT_SCORING_SETTINGS,
  mergeSettings,
  readScoringSettings,
  sameScoring,
  settingsProblem,
  type ScoringSettings,
} from '../../src/domain/scoring-settings.ts';

type Pens = 'home' | 'away' | null;
const finished = (h: number, a: number, penaltiesWinner: Pens = null, extra: Partial<MatchResult> = {}) =>
  ({ status: 'FINISHED', homeTeamGoals: h, awayTeamGoals: a, penaltiesWinner, ...extra }) as MatchResult;
/** A knockout match: `ft` after 90 minutes, `final` after extra time. */
const knockout = (ft: [number, number], final: [number, number], penaltiesWinner: Pens = null) =>
  finished(final[0], final[1], penaltiesWinner, {
    homeTeamFullTimeGoals: ft[0],
    awayTeamFullTimeGoals: ft[1],
    hasPenalties: true,
  });
const pred = (h: number, a: number, penaltiesWinner: Pens = null, isJoker = false): PredictedScore => ({
  homeTeamGoals: h,
  awayTeamGoals: a,
  penaltiesWinner,
  isJoker,
});
const rules = (over: Partial<ScoringSettings>): ScoringSettings => ({ ...DEFAULT_SCORING_SETTINGS, ...over });

describe('scorePrediction (default rules: 3 exact / 1 outcome / +1 shoot-out winner)', () => {
  it.each([
    ['exact home win', pred(2, 1), finished(2, 1), 3, true, false],
    ['right outcome, wrong score', pred(3, 0), finished(2, 1), 1, false, true],
    ['right goal difference earns the outcome points by default', pred(3, 2), finished(2, 1), 1, false, true],
    ['exact draw', pred(1, 1), finished(1, 1), 3, true, false],
    ['draw outcome', pred(0, 0), finished(2, 2), 1, false, true],
    ['wrong outcome', pred(0, 1), finished(2, 1), 0, false, false],
    ['away win exact', pred(0, 2), finished(0, 2), 3, true, false],
    // After extra time: the final score counts (2-1 aet, 1-1 at 90').
    ['extra time: 90-minute draw predicted is wrong', pred(1, 1), knockout([1, 1], [2, 1]), 0, false, false],
    ['extra time: the aet score is exact', pred(2, 1), knockout([1, 1], [2, 1]), 3, true, false],
    // Shoot-outs: 1-1 aet, home won on penalties.
    ['shootout: exact draw and right winner', pred(1, 1, 'home'), finished(1, 1, 'home'), 4, true, false],
    ['shootout: exact draw, wrong winner', pred(1, 1, 'away'), finished(1, 1, 'home'), 3, true, false],
    ['shootout: other draw and right winner', pred(0, 0, 'home'), finished(1, 1, 'home'), 2, false, true],
    ['shootout: draw without a winner', pred(2, 2), finished(1, 1, 'home'), 1, false, true],
    ['shootout: a predicted win gets no bonus', pred(2, 1, 'home'), finished(1, 1, 'home'), 0, false, false],
    [
      'a joker counts once while the company plays without jokers',
      pred(2, 1, null, true),
      finished(2, 1),
      3,
      true,
      false,
    ],
  ])('%s', (_name, p, r, points, exactHit, outcomeHit) => {
    expect(scorePrediction(p, r)).toEqual({ status: 'SCORED', points, exactHit, outcomeHit });
  });

  it('a cancelled match voids, an unfinished one stays pending', () => {
    expect(scorePrediction(pred(1, 0), { status: 'CANCELLED', homeTeamGoals: null, awayTeamGoals: null })).toEqual({
      status: 'VOID',
      points: null,
      exactHit: false,
      outcomeHit: false,
    });
    for (const status of ['SCHEDULED', 'TIMED', 'IN_PLAY', 'PAUSED', 'POSTPONED', 'SUSPENDED']) {
      expect(scorePrediction(pred(1, 0), { status, homeTeamGoals: 1, awayTeamGoals: 0 }).status).toBe('PENDING');
    }
  });
});

describe('scorePrediction under each setting', () => {
  const leading = rules({ exactScore: 4, goalDifference: 3, outcome: 2 });
  const round7 = (r: MatchResult) => ({ ...r, roundId: 7 });
  it.each<[string, Partial<ScoringSettings>, PredictedScore, MatchResult, number]>([
    // goalDifference: the right winner and difference, never a draw.
    ['4/3/2: exact', leading, pred(2, 1), finished(2, 1), 4],
    ['4/3/2: right difference', leading, pred(3, 2), finished(2, 1), 3],
    ['4/3/2: right winner only', leading, pred(3, 0), finished(2, 1), 2],
    ['4/3/2: a non-exact draw is an outcome, not a difference', leading, pred(0, 0), finished(2, 2), 2],
    ['4/3/2: away difference', leading, pred(0, 2), finished(1, 3), 3],
    ['4/3/2: wrong', leading, pred(0, 2), finished(1, 0), 0],
    ['goalDifference null follows outcome', { outcome: 2 }, pred(3, 2), finished(2, 1), 2],
    // basis
    ['AFTER_EXTRA_TIME: the aet score', {}, pred(2, 1), knockout([1, 1], [2, 1]), 3],
    ['FULL_TIME: the 90-minute draw is exact', { basis: 'FULL_TIME' }, pred(1, 1), knockout([1, 1], [2, 1]), 3],
    ['FULL_TIME: the aet score is wrong', { basis: 'FULL_TIME' }, pred(2, 1), knockout([1, 1], [2, 1]), 0],
    ['FULL_TIME without a 90-minute score uses the final', { basis: 'FULL_TIME' }, pred(2, 1), finished(2, 1), 3],
    [
      'FULL_TIME: shoot-out bonus still counts',
      { basis: 'FULL_TIME' },
      pred(0, 0, 'away'),
      knockout([1, 1], [1, 1], 'away'),
      2,
    ],
    // penaltiesWinner points
    ['penaltiesWinner 2', { penaltiesWinner: 2 }, pred(1, 1, 'home'), finished(1, 1, 'home'), 5],
    ['penaltiesWinner 0', { penaltiesWinner: 0 }, pred(1, 1, 'home'), finished(1, 1, 'home'), 3],
    // advancingTeam: only in matches that can go to penalties
    ['advancing: predicted winner goes through', { advancingTeam: 2 }, pred(1, 0), knockout([0, 0], [2, 1]), 3],
    [
      'advancing: named shoot-out winner',
      { advancingTeam: 2 },
      pred(0, 0, 'away'),
      knockout([1, 1], [1, 1], 'away'),
      4,
    ],
    ['advancing: draw without a named winner', { advancingTeam: 2 }, pred(0, 0), knockout([1, 1], [1, 1], 'away'), 1],
    ['advancing: wrong team', { advancingTeam: 2 }, pred(0, 1), knockout([1, 0], [1, 0]), 0],
    ['advancing: not in a group match', { advancingTeam: 2 }, pred(1, 0), finished(2, 0), 1],
    ['advancing: exact adds it too', { advancingTeam: 2 }, pred(2, 1), knockout([1, 1], [2, 1]), 5],
    // round multipliers, decimals kept in hundredths
    [
      'multiplier 2',
      { roundMultipliers: [{ roundId: 7, multiplier: 2 }] },
      pred(1, 1, 'home'),
      round7(finished(1, 1, 'home')),
      8,
    ],
    [
      'multiplier 1.5',
      { roundMultipliers: [{ roundId: 7, multiplier: 1.5 }] },
      pred(2, 0),
      round7(finished(2, 1)),
      1.5,
    ],
    [
      'multiplier 1.1 in hundredths',
      { roundMultipliers: [{ roundId: 7, multiplier: 1.1 }] },
      pred(2, 1),
      round7(finished(2, 1)),
      3.3,
    ],
    [
      'other rounds count once',
      { roundMultipliers: [{ roundId: 8, multiplier: 3 }] },
      pred(2, 1),
      round7(finished(2, 1)),
      3,
    ],
    // jokers double (after the multiplier)
    ['joker doubles', { jokersPerRound: 1 }, pred(2, 1, null, true), finished(2, 1), 6],
    ['joker with shoot-out bonus', { jokersPerRound: 1 }, pred(1, 1, 'home', true), finished(1, 1, 'home'), 8],
    [
      'joker and multiplier',
      { jokersPerRound: 2, roundMultipliers: [{ roundId: 7, multiplier: 1.5 }] },
      pred(3, 0, null, true),
      round7(finished(2, 1)),
      3,
    ],
    ['a wrong joker is still 0', { jokersPerRound: 1 }, pred(0, 1, null, true), finished(2, 1), 0],
  ])('%s', (_name, over, p, r, points) => {
    expect(scorePrediction(p, r, rules(over)).points).toBe(points);
  });

  it('second legs: the shoot-out and the advancing team come from the aggregate', () => {
    // First leg: B 2-1 A. Second leg (A at home): A 1-0 B, 2-2 on aggregate, A wins the shoot-out.
    const firstLeg = { homeTeamGoals: 2, awayTeamGoals: 1 };
    const second = finished(1, 0, 'home', { hasPenalties: true, isTwoWaysSecondMatch: true });
    const s = rules({ advancingTeam: 2 });
    // Exact and A named as shoot-out winner (a predicted win may name it in a second leg): 3 + 1 + 2.
    expect(scorePrediction(pred(1, 0, 'home'), second, s, firstLeg).points).toBe(6);
    // 2-0 makes A go through on aggregate without a shoot-out: outcome 1 + advancing 2.
    expect(scorePrediction(pred(2, 0), second, s, firstLeg).points).toBe(3);
    // 0-0 makes B go through on aggregate: nothing.
    expect(scorePrediction(pred(0, 0), second, s, firstLeg).points).toBe(0);
  });

  it('is idempotent', () => {
    const s = rules({ jokersPerRound: 1, roundMultipliers: [{ roundId: 7, multiplier: 1.25 }] });
    const r = { ...finished(1, 1, 'home'), roundId: 7 };
    expect(scorePrediction(pred(1, 1, 'home', true), r, s)).toEqual(scorePrediction(pred(1, 1, 'home', true), r, s));
  });
});

describe('scoring settings', () => {
  it('reads the defaults, older key names and ignores values of the wrong kind', () => {
    expect(readScoringSettings(null)).toEqual(DEFAULT_SCORING_SETTINGS);
    const s = readScoringSettings({
      exactPoints: 5,
      outcomePoints: 'two',
      roundMultipliers: { '7': 3, '8': -1 },
      basis: 'HALF_TIME',
      jokersPerRound: 1.5,
    });
    expect(s).toEqual({
      ...DEFAULT_SCORING_SETTINGS,
      exactScore: 5,
      roundMultipliers: [{ roundId: 7, multiplier: 3 }],
    });
  });

  it.each<[string, object, string | null]>([
    ['a valid change', { exactScore: 4, goalDifference: 3, outcome: 2, basis: 'FULL_TIME' }, null],
    ['negative points', { exactScore: -1 }, 'exactScore'],
    ['thousandths', { outcome: 1.005 }, 'outcome'],
    ['too many points', { advancingTeam: 1001 }, 'advancingTeam'],
    ['goalDifference null is allowed', { goalDifference: null }, null],
    ['a deadline in fractions', { predictionDeadlineMinutes: 2.5 }, 'predictionDeadlineMinutes'],
    ['a deadline over a week', { predictionDeadlineMinutes: 7 * 24 * 60 + 1 }, 'predictionDeadlineMinutes'],
    ['too many jokers', { jokersPerRound: 21 }, 'jokersPerRound'],
    ['a round of another company', { roundMultipliers: [{ roundId: 99, multiplier: 2 }] }, 'roundMultipliers'],
    [
      'a round twice',
      {
        roundMultipliers: [
          { roundId: 7, multiplier: 2 },
          { roundId: 7, multiplier: 3 },
        ],
      },
      'roundMultipliers',
    ],
    ['a negative multiplier', { roundMultipliers: [{ roundId: 7, multiplier: -2 }] }, 'roundMultipliers'],
    ['an unknown basis', { basis: 'HALF_TIME' }, 'basis'],
    ['an unknown tie rule', { tieRule: 'COIN_TOSS' }, 'tieRule'],
  ])('settingsProblem: %s', (_name, input, argument) => {
    expect(settingsProblem(input, new Set([7, 8]))?.argument ?? null).toBe(argument);
  });

  it('merges a change over what is played, keeps left-out fields, and knows when scoring changes', () => {
    const stored = { exactScore: 5, jokersPerRound: 1 };
    const next = mergeSettings(stored, { outcome: 2, tieRule: 'POINTS', exactScore: undefined });
    expect(next).toEqual({
      ...DEFAULT_SCORING_SETTINGS,
      exactScore: 5,
      jokersPerRound: 1,
      outcome: 2,
      tieRule: 'POINTS',
    });
    const before = readScoringSettings(stored);
    expect(sameScoring(before, next)).toBe(false);
    expect(sameScoring(before, mergeSettings(stored, { tieRule: 'ROUND_WINS', rankAdmins: false }))).toBe(true);
    // goalDifference equal to outcome scores the same as following it.
    expect(sameScoring(readScoringSettings({}), readScoringSettings({ goalDifference: 1 }))).toBe(true);
  });
});
