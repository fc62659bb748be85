// Scoring of one prediction against a match result. Pure: no I/O, no clock.
//
// Rules (defaults, per company overridable through Company.scoringSettings):
// - exact score: `exactPoints` (3); otherwise the right outcome (home win / draw / away win): `outcomePoints` (1);
//   otherwise 0. The score compared is the one after extra time when extra time was played.
// - a match decided on penalties: a predicted draw with the right penaltiesWinner earns `penaltiesBonus` (+1).
// - the total is multiplied by the round's multiplier (default 1).
// - a CANCELLED match makes its predictions VOID (no points); a match without a final result leaves them PENDING.

export interface ScoringRules {
  exactPoints: number;
  outcomePoints: number;
  penaltiesBonus: number;
  /** Round id -> multiplier. */
  roundMultipliers: Record<string, number>;
}

export const DEFAULT_SCORING: ScoringRules = {
  exactPoints: 3,
  outcomePoints: 1,
  penaltiesBonus: 1,
  roundMultipliers: {},
};

export type Side = 'home' | 'away';
export type PredictionStatusName = 'PENDING' | 'SCORED' | 'VOID';

export interface PredictedScore {
  homeTeamGoals: number;
  awayTeamGoals: number;
  penaltiesWinner?: Side | null;
}

export interface MatchResult {
  status: string;
  homeTeamGoals: number | null;
  awayTeamGoals: number | null;
  penaltiesWinner?: Side | null;
}

export interface Score {
  status: PredictionStatusName;
  points: number | null;
  exactHit: boolean;
  outcomeHit: boolean;
}

const FINAL_STATUSES = new Set(['FINISHED', 'AWARDED']);

/** Merges stored per-company settings over the defaults, ignoring values of the wrong type. */
export function scoringRules(settings: unknown): ScoringRules {
  const s = (settings && typeof settings === 'object' ? settings : {}) as Partial<Record<keyof ScoringRules, unknown>>;
  const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : d);
  const multipliers: Record<string, number> = {};
  if (s.roundMultipliers && typeof s.roundMultipliers === 'object') {
    for (const [k, v] of Object.entries(s.roundMultipliers)) if (typeof v === 'number' && v >= 0) multipliers[k] = v;
  }
  return {
    exactPoints: num(s.exactPoints, DEFAULT_SCORING.exactPoints),
    outcomePoints: num(s.outcomePoints, DEFAULT_SCORING.outcomePoints),
    penaltiesBonus: num(s.penaltiesBonus, DEFAULT_SCORING.penaltiesBonus),
    roundMultipliers: multipliers,
  };
}

export function roundMultiplier(rules: ScoringRules, roundId: number): number {
  return rules.roundMultipliers[String(roundId)] ?? 1;
}

const outcome = (home: number, away: number) => Math.sign(home - away);

export function scorePrediction(
  prediction: PredictedScore,
  result: MatchResult,
  rules = DEFAULT_SCORING,
  multiplier = 1,
): Score {
  if (result.status === 'CANCELLED') return { status: 'VOID', points: null, exactHit: false, outcomeHit: false };
  if (!FINAL_STATUSES.has(result.status) || result.homeTeamGoals == null || result.awayTeamGoals == null) {
    return { status: 'PENDING', points: null, exactHit: false, outcomeHit: false };
  }
  const exactHit =
    prediction.homeTeamGoals === result.homeTeamGoals && prediction.awayTeamGoals === result.awayTeamGoals;
  const outcomeHit =
    !exactHit &&
    outcome(prediction.homeTeamGoals, prediction.awayTeamGoals) === outcome(result.homeTeamGoals, result.awayTeamGoals);
  let points = exactHit ? rules.exactPoints : outcomeHit ? rules.outcomePoints : 0;
  const predictedDraw = prediction.homeTeamGoals === prediction.awayTeamGoals;
  if (result.penaltiesWinner && predictedDraw && prediction.penaltiesWinner === result.penaltiesWinner) {
    points += rules.penaltiesBonus;
  }
  return { status: 'SCORED', points: points * multiplier, exactHit, outcomeHit };
}
