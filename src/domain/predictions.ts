// Rules of a prediction, pure: whether a match still takes predictions and whether the values are allowed.
export const MAX_GOALS = 99;
const OPEN_STATUSES = new Set(['SCHEDULED', 'TIMED']);

export interface PredictionInput {
  homeTeamGoals: number;
  awayTeamGoals: number;
  penaltiesWinner?: 'home' | 'away' | null;
  /** Doubles the prediction's points; the company allows `jokersPerRound` per round. */
  isJoker?: boolean | null;
}

export interface MatchForPrediction {
  date: Date;
  status: string;
  hasPenalties: boolean | null;
  isTwoWaysSecondMatch?: boolean | null;
}

export type PredictionProblem =
  { kind: 'closed'; message: string } | { kind: 'input'; argument: string; message: string };

/** When predictions on the match close: its kickoff, less the company's deadline. */
export const closingTime = (match: { date: Date }, deadlineMinutes: number) =>
  new Date(match.date.getTime() - deadlineMinutes * 60_000);

/**
 * Null when the prediction may be stored now; otherwise why not. Times compare on the server clock (UTC).
 * In a second leg the aggregate decides the shoot-out, so a shoot-out winner may go with any predicted score.
 */
export function predictionProblem(
  match: MatchForPrediction,
  input: PredictionInput,
  now: Date,
  deadlineMinutes = 0,
): PredictionProblem | null {
  const bad = predictionInputProblem(match, input);
  if (bad) return bad;
  const closes = closingTime(match, deadlineMinutes);
  if (now.getTime() >= closes.getTime()) {
    const when = deadlineMinutes > 0 ? `${deadlineMinutes} minutes before kickoff` : 'at kickoff';
    return { kind: 'closed', message: `predictions closed ${when} (${closes.toISOString()})` };
  }
  if (!OPEN_STATUSES.has(match.status))
    return { kind: 'closed', message: `the match is ${match.status.toLowerCase()}: it takes no predictions` };
  return null;
}

/**
 * Whether the values are allowed for the match, whenever they are entered: the goals, and a shoot-out winner only
 * where the match can have one. An admin's correction after kickoff (src/app/corrections.ts) checks this alone.
 */
export function predictionInputProblem(
  match: Pick<MatchForPrediction, 'hasPenalties' | 'isTwoWaysSecondMatch'>,
  input: PredictionInput,
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
    if (input.homeTeamGoals !== input.awayTeamGoals && !match.isTwoWaysSecondMatch)
      return { kind: 'input', argument: 'penaltiesWinner', message: 'penaltiesWinner goes only with a predicted draw' };
  }
  return null;
}

export interface ResultInput {
  status: string;
  /** The final score (after extra time when it was played). */
  homeTeamGoals?: number | null;
  awayTeamGoals?: number | null;
  /** The score after 90 minutes, given when extra time was played. */
  homeTeamFullTimeGoals?: number | null;
  awayTeamFullTimeGoals?: number | null;
  homeTeamPenaltyGoals?: number | null;
  awayTeamPenaltyGoals?: number | null;
  /** A correction that removes a recorded shoot-out says so. */
  noShootOut?: boolean | null;
  /** A correction that removes recorded extra time says so. */
  noExtraTime?: boolean | null;
  /** Minutes played, for a match in play (IN_PLAY or PAUSED); omitted keeps the clock shown so far. */
  elapsedTime?: number | null;
}

/** What the rules of a result need to know about the match as it stands. */
export interface MatchForResult {
  date: Date;
  hasPenalties: boolean | null;
  isTwoWaysSecondMatch: boolean | null;
  homeTeamPenaltyGoals: number | null;
  homeTeamExtraTimeGoals: number | null;
}

export interface StoredResult {
  status: string;
  homeTeamGoals: number | null;
  awayTeamGoals: number | null;
  homeTeamFullTimeGoals: number | null;
  awayTeamFullTimeGoals: number | null;
  homeTeamExtraTimeGoals: number | null;
  awayTeamExtraTimeGoals: number | null;
  homeTeamPenaltyGoals: number | null;
  awayTeamPenaltyGoals: number | null;
  penaltiesWinner: 'home' | 'away' | null;
  /** undefined: unchanged (a live update without the clock). */
  elapsedTime?: number | null;
}

const FINAL = new Set(['FINISHED', 'AWARDED']);
/** A match's clock runs only while it is played. */
const LIVE = new Set(['IN_PLAY', 'PAUSED']);
/** Statuses a match reaches only once it has kicked off: none is taken before its kickoff. */
const STARTED = new Set([...FINAL, ...LIVE, 'EXTRA_TIME', 'PENALTY_SHOOTOUT', 'SUSPENDED']);
/** 120 minutes and stoppage time, with room to spare. */
export const MAX_ELAPSED_MINUTES = 150;

type Refusal = { ok: false; argument: string; message: string };
const refuse = (argument: string, message: string): Refusal => ({ ok: false, argument, message });

/**
 * Checks a result as a referee would and returns the fields to store (the 90-minute and extra-time scores apart,
 * the shoot-out's winner derived), or the refusal. `firstLeg` is the first leg's final score (its own home side
 * first) when the match is a second leg and that score is known.
 */
export function checkResult(
  input: ResultInput,
  match: MatchForResult,
  now: Date,
  firstLeg: { homeTeamGoals: number; awayTeamGoals: number } | null = null,
): { ok: true; data: StoredResult } | Refusal {
  const goals = (name: keyof ResultInput): number | null | Refusal => {
    const v = input[name];
    if (v === undefined || v === null) return null;
    if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > MAX_GOALS)
      return refuse(name, `${name} must be an integer from 0 to ${MAX_GOALS}`);
    return v as number;
  };
  const values = (
    [
      'homeTeamGoals',
      'awayTeamGoals',
      'homeTeamFullTimeGoals',
      'awayTeamFullTimeGoals',
      'homeTeamPenaltyGoals',
      'awayTeamPenaltyGoals',
    ] as const
  ).map(goals);
  const bad = values.find((v): v is Refusal => typeof v === 'object' && v !== null);
  if (bad) return bad;
  const [home, away, homeFt, awayFt, homePen, awayPen] = values as Array<number | null>;

  if ((home === null) !== (away === null)) return refuse('awayTeamGoals', "give both teams' goals or neither");
  if ((homeFt === null) !== (awayFt === null))
    return refuse('awayTeamFullTimeGoals', "give both teams' 90-minute goals or neither");
  if ((homePen === null) !== (awayPen === null))
    return refuse('awayTeamPenaltyGoals', 'give both penalty scores or neither');
  if (FINAL.has(input.status) && home === null)
    return refuse('homeTeamGoals', `a ${input.status} match needs its score`);
  if (STARTED.has(input.status) && now.getTime() < match.date.getTime()) {
    const what = FINAL.has(input.status) ? 'it has no result' : `it cannot be ${input.status}`;
    return refuse('status', `the match kicks off at ${match.date.toISOString()}: ${what} before then`);
  }
  if (home === null && (homeFt !== null || homePen !== null))
    return refuse('homeTeamGoals', 'a 90-minute or penalty score needs the final score');
  const elapsed = input.elapsedTime;
  if (elapsed !== undefined && elapsed !== null) {
    if (!LIVE.has(input.status))
      return refuse('elapsedTime', 'elapsedTime is the clock of a match in play (status IN_PLAY or PAUSED)');
    if (!Number.isInteger(elapsed) || elapsed < 0 || elapsed > MAX_ELAPSED_MINUTES)
      return refuse('elapsedTime', `elapsedTime must be a whole number of minutes from 0 to ${MAX_ELAPSED_MINUTES}`);
  }

  // A level tie: the match itself, or over both legs for a second leg.
  const level = (h: number, a: number) =>
    match.isTwoWaysSecondMatch && firstLeg
      ? h + firstLeg.awayTeamGoals === a + firstLeg.homeTeamGoals
      : !match.isTwoWaysSecondMatch && h === a;
  const tie = match.isTwoWaysSecondMatch ? 'the aggregate over both legs' : 'the match';

  if (homeFt !== null && input.noExtraTime) return refuse('noExtraTime', 'noExtraTime goes without a 90-minute score');
  if (homeFt !== null) {
    if (!match.hasPenalties)
      return refuse('homeTeamFullTimeGoals', 'this match cannot go to extra time (it cannot go to penalties)');
    if (!level(homeFt, awayFt!)) return refuse('homeTeamFullTimeGoals', `extra time follows only when ${tie} is level`);
    if (home! < homeFt || away! < awayFt!)
      return refuse('homeTeamGoals', 'the score after extra time cannot be lower than the 90-minute score');
  }
  if (homePen !== null) {
    if (!match.hasPenalties) return refuse('homeTeamPenaltyGoals', 'this match cannot go to penalties');
    if (match.isTwoWaysSecondMatch && !firstLeg)
      return refuse('homeTeamPenaltyGoals', 'the first leg has no result yet: the aggregate is not known');
    if (!level(home!, away!)) return refuse('homeTeamPenaltyGoals', `a shoot-out follows only when ${tie} is level`);
    if (homePen === awayPen)
      return refuse('homeTeamPenaltyGoals', 'a shoot-out has a winner: the penalty scores cannot be equal');
    if (input.noShootOut) return refuse('noShootOut', 'noShootOut goes without penalty scores');
  } else if (home !== null && match.homeTeamPenaltyGoals !== null && !input.noShootOut) {
    return refuse(
      'homeTeamPenaltyGoals',
      'the match has a recorded shoot-out: give its penalty scores again, or noShootOut: true to remove it',
    );
  }
  if (home !== null && homeFt === null && match.homeTeamExtraTimeGoals != null && !input.noExtraTime) {
    return refuse(
      'homeTeamFullTimeGoals',
      'the match has a recorded extra time: give its 90-minute score again, or noExtraTime: true to remove it',
    );
  }
  return {
    ok: true,
    data: {
      status: input.status,
      homeTeamGoals: home,
      awayTeamGoals: away,
      homeTeamFullTimeGoals: homeFt ?? home,
      awayTeamFullTimeGoals: awayFt ?? away,
      homeTeamExtraTimeGoals: homeFt === null ? null : home,
      awayTeamExtraTimeGoals: awayFt === null ? null : away,
      homeTeamPenaltyGoals: homePen,
      awayTeamPenaltyGoals: awayPen,
      penaltiesWinner: homePen === null ? null : homePen > awayPen! ? 'home' : 'away',
      elapsedTime: LIVE.has(input.status) ? (elapsed ?? undefined) : null,
    },
  };
}
