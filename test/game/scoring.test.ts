import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SCORING,
  scorePrediction,
  scoringRules,
  type MatchResult,
  type PredictedScore,
} from '../../src/game/scoring.ts';

const finished = (h: number, a: number, penaltiesWinner: 'home' | 'away' | null = null): MatchResult => ({
  status: 'FINISHED',
  homeTeamGoals: h,
  awayTeamGoals: a,
  penaltiesWinner,
});
const pred = (h: number, a: number, penaltiesWinner: 'home' | 'away' | null = null): PredictedScore => ({
  homeTeamGoals: h,
  awayTeamGoals: a,
  penaltiesWinner,
});

describe('scorePrediction (default rules)', () => {
  it.each([
    ['exact home win', pred(2, 1), finished(2, 1), 3, true, false],
    ['right outcome, wrong score', pred(3, 0), finished(2, 1), 1, false, true],
    ['exact draw', pred(1, 1), finished(1, 1), 3, true, false],
    ['draw outcome', pred(0, 0), finished(2, 2), 1, false, true],
    ['wrong outcome', pred(0, 1), finished(2, 1), 0, false, false],
    ['away win exact', pred(0, 2), finished(0, 2), 3, true, false],
    // After extra time: the stored score is the one after extra time (2-1 aet, 1-1 at 90').
    ['extra time: 90-minute draw predicted is wrong', pred(1, 1), finished(2, 1), 0, false, false],
    ['extra time: the aet score is exact', pred(2, 1), finished(2, 1), 3, true, false],
    // Shootouts: 1-1 aet, home won on penalties.
    ['shootout: exact draw and right winner', pred(1, 1, 'home'), finished(1, 1, 'home'), 4, true, false],
    ['shootout: exact draw, wrong winner', pred(1, 1, 'away'), finished(1, 1, 'home'), 3, true, false],
    ['shootout: other draw and right winner', pred(0, 0, 'home'), finished(1, 1, 'home'), 2, false, true],
    ['shootout: draw without a winner', pred(2, 2), finished(1, 1, 'home'), 1, false, true],
    ['shootout: a predicted win gets no bonus', pred(2, 1, 'home'), finished(1, 1, 'home'), 0, false, false],
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

  it('is idempotent and applies the round multiplier to the total', () => {
    const once = scorePrediction(pred(1, 1, 'home'), finished(1, 1, 'home'), DEFAULT_SCORING, 2);
    expect(once.points).toBe(8);
    expect(scorePrediction(pred(1, 1, 'home'), finished(1, 1, 'home'), DEFAULT_SCORING, 2)).toEqual(once);
  });

  it('per-company rules override the defaults and ignore bad values', () => {
    const rules = scoringRules({ exactPoints: 5, outcomePoints: 'two', roundMultipliers: { '7': 3, '8': -1 } });
    expect(rules).toEqual({ exactPoints: 5, outcomePoints: 1, penaltiesBonus: 1, roundMultipliers: { '7': 3 } });
    expect(scorePrediction(pred(2, 0), finished(2, 0), rules, 3).points).toBe(15);
  });
});
