// Scoring of one prediction against a match result, with the company's settings. Pure: no I/O, no clock.
//
// - The score compared is the final one (after extra time when it was played: basis AFTER_EXTRA_TIME), or the
//   one after 90 minutes (basis FULL_TIME).
// - Exact score: `exactScore`. Otherwise the right winner and the right goal difference: `goalDifference` (never
//   for draws: a draw that is not exact earns `outcome`). Otherwise the right outcome: `outcome`. Otherwise 0.
// - A shoot-out: a predicted draw naming its winner adds `penaltiesWinner`. In a second leg the aggregate decides
//   the shoot-out, not the match, so there any prediction naming the winner adds it.
// - A match that can go to penalties: naming the team that goes through adds `advancingTeam`. The predicted one
//   is the predicted winner, or the named shoot-out winner for a predicted draw; in a second leg, the winner of
//   the aggregate the prediction makes with the first leg's result.
// - The sum is multiplied by the round's multiplier, and doubled for a joker (while jokers are played), and
//   rounded to hundredths.
// - A CANCELLED match makes its predictions VOID (no points); a match without a final result leaves them PENDING.
import {
  DEFAULT_SCORING_SETTINGS,
  goalDifferencePoints,
  hundredths,
  multiplierOf,
  type ScoringSettings,
} from './scoring-settings.ts';

export type Side = 'home' | 'away';
export type PredictionStatusName = 'PENDING' | 'SCORED' | 'VOID';

export interface PredictedScore {
  homeTeamGoals: number;
  awayTeamGoals: number;
  penaltiesWinner?: Side | null;
  isJoker?: boolean;
}

export interface MatchResult {
  status: string;
  roundId?: number;
  /** The final score. */
  homeTeamGoals: number | null;
  awayTeamGoals: number | null;
  /** After 90 minutes; null means the same as the final score. */
  homeTeamFullTimeGoals?: number | null;
  awayTeamFullTimeGoals?: number | null;
  penaltiesWinner?: Side | null;
  hasPenalties?: boolean | null;
  isTwoWaysSecondMatch?: boolean | null;
}

/** The first leg's final score, as its own home and away teams scored it (the second leg's away and home). */
export interface FirstLeg {
  homeTeamGoals: number;
  awayTeamGoals: number;
}

export interface Score {
  status: PredictionStatusName;
  points: number | null;
  exactHit: boolean;
  outcomeHit: boolean;
}

const FINAL_STATUSES = new Set(['FINISHED', 'AWARDED']);
const sign = (home: number, away: number) => Math.sign(home - away);

/** The team that goes through: the winner, else the shoot-out's; over both legs for a second leg. */
function advancing(home: number, away: number, shootOut: Side | null | undefined, firstLeg?: FirstLeg | null) {
  const aggregateHome = home + (firstLeg?.awayTeamGoals ?? 0);
  const aggregateAway = away + (firstLeg?.homeTeamGoals ?? 0);
  if (aggregateHome !== aggregateAway) return aggregateHome > aggregateAway ? 'home' : 'away';
  return shootOut ?? null;
}

export function scorePrediction(
  prediction: PredictedScore,
  result: MatchResult,
  settings: ScoringSettings = DEFAULT_SCORING_SETTINGS,
  firstLeg: FirstLeg | null = null,
): Score {
  if (result.status === 'CANCELLED') return { status: 'VOID', points: null, exactHit: false, outcomeHit: false };
  if (!FINAL_STATUSES.has(result.status) || result.homeTeamGoals == null || result.awayTeamGoals == null) {
    return { status: 'PENDING', points: null, exactHit: false, outcomeHit: false };
  }
  const fullTime = settings.basis === 'FULL_TIME' && result.homeTeamFullTimeGoals != null;
  const home = fullTime ? result.homeTeamFullTimeGoals! : result.homeTeamGoals;
  const away = fullTime ? result.awayTeamFullTimeGoals! : result.awayTeamGoals;
  const { homeTeamGoals: ph, awayTeamGoals: pa } = prediction;

  const exactHit = ph === home && pa === away;
  const outcomeHit = !exactHit && sign(ph, pa) === sign(home, away);
  const differenceHit = outcomeHit && home !== away && ph - pa === home - away;
  let points = exactHit
    ? settings.exactScore
    : differenceHit
      ? goalDifferencePoints(settings)
      : outcomeHit
        ? settings.outcome
        : 0;

  const secondLeg = !!result.isTwoWaysSecondMatch;
  const shootOut = result.penaltiesWinner;
  if (shootOut && prediction.penaltiesWinner === shootOut && (ph === pa || secondLeg))
    points += settings.penaltiesWinner;
  if (result.hasPenalties && settings.advancingTeam > 0) {
    const leg = secondLeg ? firstLeg : null;
    const actual = advancing(result.homeTeamGoals, result.awayTeamGoals, shootOut, leg);
    const predicted = advancing(ph, pa, prediction.penaltiesWinner, leg);
    if (actual && predicted === actual) points += settings.advancingTeam;
  }

  const multiplier = result.roundId === undefined ? 1 : multiplierOf(settings, result.roundId);
  const joker = prediction.isJoker && settings.jokersPerRound > 0 ? 2 : 1;
  return { status: 'SCORED', points: hundredths(points * multiplier * joker), exactHit, outcomeHit };
}
