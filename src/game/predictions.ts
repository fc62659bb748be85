// Rules of a prediction, pure: whether a match still takes predictions and whether the values are allowed.
export const MAX_GOALS = 99;
const OPEN_STATUSES = new Set(['SCHEDULED', 'TIMED']);

export interface PredictionInput {
  homeTeamGoals: number;
  awayTeamGoals: number;
  penaltiesWinner?: 'home' | 'away' | null;
}

export interface MatchForPrediction {
  date: Date;
  status: string;
  hasPenalties: boolean | null;
}

export type PredictionProblem =
  { kind: 'closed'; message: string } | { kind: 'input'; argument: string; message: string };

/** Null when the prediction may be stored now; otherwise why not. Kickoff compares on the server clock (UTC). */
export function predictionProblem(
  match: MatchForPrediction,
  input: PredictionInput,
  now: Date,
): PredictionProblem | null {
  for (const side of ['homeTeamGoals', 'awayTeamGoals'] as const) {
    const goals = input[side];
    if (!Number.isInteger(goals) || goals < 0 || goals > MAX_GOALS) {
      return { kind: 'input', argument: side, message: `${side} must be an integer from 0 to ${MAX_GOALS}` };
    }
  }
  if (input.penaltiesWinner) {
    if (!match.hasPenalties)
      return { kind: 'input', argument: 'penaltiesWinner', message: 'this match cannot go to penalties' };
    if (input.homeTeamGoals !== input.awayTeamGoals)
      return { kind: 'input', argument: 'penaltiesWinner', message: 'penaltiesWinner goes only with a predicted draw' };
  }
  if (now.getTime() >= match.date.getTime())
    return { kind: 'closed', message: `predictions closed at kickoff (${match.date.toISOString()})` };
  if (!OPEN_STATUSES.has(match.status))
    return { kind: 'closed', message: `the match is ${match.status.toLowerCase()}: it takes no predictions` };
  return null;
}

export interface ResultInput {
  status: string;
  homeTeamGoals?: number | null;
  awayTeamGoals?: number | null;
  homeTeamPenaltyGoals?: number | null;
  awayTeamPenaltyGoals?: number | null;
}

const FINAL = new Set(['FINISHED', 'AWARDED']);

/** Validates a match result; returns the fields to store (penaltiesWinner derived) or the problem. */
export function checkResult(input: ResultInput):
  | {
      ok: true;
      data: {
        status: string;
        homeTeamGoals: number | null;
        awayTeamGoals: number | null;
        homeTeamPenaltyGoals: number | null;
        awayTeamPenaltyGoals: number | null;
        penaltiesWinner: 'home' | 'away' | null;
      };
    }
  | { ok: false; argument: string; message: string } {
  const goals = (name: keyof ResultInput) => {
    const v = input[name];
    if (v === undefined || v === null) return null;
    if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > MAX_GOALS)
      throw { argument: name, message: `${name} must be an integer from 0 to ${MAX_GOALS}` };
    return v as number;
  };
  try {
    const home = goals('homeTeamGoals');
    const away = goals('awayTeamGoals');
    const homePen = goals('homeTeamPenaltyGoals');
    const awayPen = goals('awayTeamPenaltyGoals');
    if ((home === null) !== (away === null))
      return { ok: false, argument: 'awayTeamGoals', message: "give both teams' goals or neither" };
    if (FINAL.has(input.status) && home === null)
      return { ok: false, argument: 'homeTeamGoals', message: `a ${input.status} match needs its score` };
    if ((homePen === null) !== (awayPen === null))
      return { ok: false, argument: 'awayTeamPenaltyGoals', message: 'give both penalty scores or neither' };
    if (homePen !== null) {
      if (home !== away)
        return { ok: false, argument: 'homeTeamPenaltyGoals', message: 'a shoot-out follows only a draw' };
      if (homePen === awayPen)
        return {
          ok: false,
          argument: 'homeTeamPenaltyGoals',
          message: 'a shoot-out has a winner: the penalty scores cannot be equal',
        };
    }
    const penaltiesWinner = homePen === null ? null : homePen! > awayPen! ? 'home' : 'away';
    return {
      ok: true,
      data: {
        status: input.status,
        homeTeamGoals: home,
        awayTeamGoals: away,
        homeTeamPenaltyGoals: homePen,
        awayTeamPenaltyGoals: awayPen,
        penaltiesWinner,
      },
    };
  } catch (problem) {
    return { ok: false, ...(problem as { argument: string; message: string }) };
  }
}
