// The game's rules a company chooses (Company.scoringSettings), pure: the defaults, reading what is stored, and
// checking a change. Stored as JSON; a company that never chose plays the defaults.

export type ScoringBasis = 'AFTER_EXTRA_TIME' | 'FULL_TIME';
export type TieRule = 'HITS' | 'POINTS' | 'ROUND_WINS';

export interface RoundMultiplier {
  roundId: number;
  multiplier: number;
}

export interface ScoringSettings {
  /** The exact score. */
  exactScore: number;
  /** The right winner and the right goal difference, not exact. Never for draws. Null: the same as `outcome`. */
  goalDifference: number | null;
  /** The right outcome (home win, draw, away win), not exact. */
  outcome: number;
  /** Added for a predicted draw (or any second-leg prediction) naming the shoot-out's winner. */
  penaltiesWinner: number;
  /** Added for naming the team that goes through in a match that can go to penalties. */
  advancingTeam: number;
  /** Which score predictions are compared with. */
  basis: ScoringBasis;
  /** Multiplies a round's points; rounds not listed count once. */
  roundMultipliers: RoundMultiplier[];
  /** Predictions close this many minutes before kickoff. */
  predictionDeadlineMinutes: number;
  /** How many predictions per round a player may mark as a joker (points doubled). */
  jokersPerRound: number;
  /** Who shares a position in rankings. */
  tieRule: TieRule;
  /** Whether company admins (and resellers, managers) appear in rankings. */
  rankAdmins: boolean;
  /** Whether people who never predicted in the tournament appear in its rankings. */
  rankNonPlayers: boolean;
}

export const DEFAULT_SCORING_SETTINGS: Readonly<ScoringSettings> = Object.freeze({
  exactScore: 3,
  goalDifference: null,
  outcome: 1,
  penaltiesWinner: 1,
  advancingTeam: 0,
  basis: 'AFTER_EXTRA_TIME',
  roundMultipliers: [],
  predictionDeadlineMinutes: 0,
  jokersPerRound: 0,
  tieRule: 'HITS',
  rankAdmins: true,
  rankNonPlayers: true,
});

export const BASES: readonly ScoringBasis[] = ['AFTER_EXTRA_TIME', 'FULL_TIME'];
export const TIE_RULES: readonly TieRule[] = ['HITS', 'POINTS', 'ROUND_WINS'];

/** Limits of what an organiser may choose (and what is read back from storage). */
export const LIMITS = {
  points: 1000,
  multiplier: 100,
  deadlineMinutes: 7 * 24 * 60,
  jokersPerRound: 20,
  roundMultipliers: 500,
} as const;

export type ScoringSettingsInput = Partial<ScoringSettings>;

/** Points rounded to hundredths: multipliers may make decimals, and rankings compare them for equality. */
export const hundredths = (value: number) => Math.round(value * 100) / 100;

const isPoints = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= LIMITS.points && hundredths(v) === v;
const isWhole = (v: unknown, max: number): v is number =>
  Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max;
const isMultiplier = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= LIMITS.multiplier && hundredths(v) === v;

/** The settings a company plays with: what it stored, over the defaults (a stored value of a wrong kind is ignored). */
export function readScoringSettings(stored: unknown): ScoringSettings {
  const s = (stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {}) as Record<string, unknown>;
  const d = DEFAULT_SCORING_SETTINGS;
  // Rows written before the settings had these names: exactPoints, outcomePoints, penaltiesBonus, and
  // roundMultipliers as an object of round id -> multiplier.
  const pick = <T>(ok: (v: unknown) => v is T, fallback: T, ...values: unknown[]): T =>
    (values.find((v) => ok(v)) as T | undefined) ?? fallback;
  let multipliers: RoundMultiplier[] = [];
  if (Array.isArray(s.roundMultipliers)) {
    multipliers = s.roundMultipliers.filter(
      (m): m is RoundMultiplier => !!m && Number.isInteger(m.roundId) && isMultiplier(m.multiplier),
    );
  } else if (s.roundMultipliers && typeof s.roundMultipliers === 'object') {
    multipliers = Object.entries(s.roundMultipliers)
      .filter(([k, v]) => /^\d+$/.test(k) && isMultiplier(v))
      .map(([k, v]) => ({ roundId: Number(k), multiplier: v as number }));
  }
  const isBasis = (v: unknown): v is ScoringBasis => BASES.includes(v as ScoringBasis);
  const isTieRule = (v: unknown): v is TieRule => TIE_RULES.includes(v as TieRule);
  const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
  return {
    exactScore: pick(isPoints, d.exactScore, s.exactScore, s.exactPoints),
    goalDifference: pick(isPoints, null, s.goalDifference),
    outcome: pick(isPoints, d.outcome, s.outcome, s.outcomePoints),
    penaltiesWinner: pick(isPoints, d.penaltiesWinner, s.penaltiesWinner, s.penaltiesBonus),
    advancingTeam: pick(isPoints, d.advancingTeam, s.advancingTeam),
    basis: pick(isBasis, d.basis, s.basis),
    roundMultipliers: multipliers,
    predictionDeadlineMinutes: pick(
      (v): v is number => isWhole(v, LIMITS.deadlineMinutes),
      d.predictionDeadlineMinutes,
      s.predictionDeadlineMinutes,
    ),
    jokersPerRound: pick((v): v is number => isWhole(v, LIMITS.jokersPerRound), d.jokersPerRound, s.jokersPerRound),
    tieRule: pick(isTieRule, d.tieRule, s.tieRule),
    rankAdmins: pick(isBool, d.rankAdmins, s.rankAdmins),
    rankNonPlayers: pick(isBool, d.rankNonPlayers, s.rankNonPlayers),
  };
}

/** Points for the right winner and goal difference: `goalDifference`, or `outcome` when it was never chosen. */
export const goalDifferencePoints = (s: ScoringSettings) => s.goalDifference ?? s.outcome;

/** The settings as the API shows them: goalDifference as the points it gives. */
export const shownSettings = (s: ScoringSettings) => ({ ...s, goalDifference: goalDifferencePoints(s) });

export function multiplierOf(settings: ScoringSettings, roundId: number): number {
  return settings.roundMultipliers.find((m) => m.roundId === roundId)?.multiplier ?? 1;
}

export interface SettingsProblem {
  argument: string;
  message: string;
}

/**
 * The first thing wrong with a change, or null. `roundIds` are the rounds of the company's tournaments: a
 * multiplier names one of them.
 */
export function settingsProblem(input: ScoringSettingsInput, roundIds: ReadonlySet<number>): SettingsProblem | null {
  for (const name of ['exactScore', 'outcome', 'penaltiesWinner', 'advancingTeam'] as const) {
    const v = input[name];
    if (v != null && !isPoints(v))
      return { argument: name, message: `${name} must be from 0 to ${LIMITS.points}, in hundredths at most` };
  }
  if (input.goalDifference !== undefined && input.goalDifference !== null && !isPoints(input.goalDifference)) {
    return {
      argument: 'goalDifference',
      message: `goalDifference must be from 0 to ${LIMITS.points}, in hundredths at most (or null: as outcome)`,
    };
  }
  if (input.predictionDeadlineMinutes != null && !isWhole(input.predictionDeadlineMinutes, LIMITS.deadlineMinutes))
    return {
      argument: 'predictionDeadlineMinutes',
      message: `predictionDeadlineMinutes must be a whole number of minutes from 0 to ${LIMITS.deadlineMinutes}`,
    };
  if (input.jokersPerRound != null && !isWhole(input.jokersPerRound, LIMITS.jokersPerRound))
    return {
      argument: 'jokersPerRound',
      message: `jokersPerRound must be a whole number from 0 to ${LIMITS.jokersPerRound}`,
    };
  if (input.basis != null && !BASES.includes(input.basis))
    return { argument: 'basis', message: `basis is one of ${BASES.join(', ')}` };
  if (input.tieRule != null && !TIE_RULES.includes(input.tieRule))
    return { argument: 'tieRule', message: `tieRule is one of ${TIE_RULES.join(', ')}` };
  if (input.roundMultipliers != null) {
    if (input.roundMultipliers.length > LIMITS.roundMultipliers)
      return { argument: 'roundMultipliers', message: `at most ${LIMITS.roundMultipliers} round multipliers` };
    const seen = new Set<number>();
    for (const m of input.roundMultipliers) {
      if (!roundIds.has(m.roundId))
        return { argument: 'roundMultipliers', message: `round ${m.roundId} is not in your company's tournaments` };
      if (seen.has(m.roundId)) return { argument: 'roundMultipliers', message: `round ${m.roundId} is listed twice` };
      seen.add(m.roundId);
      if (!isMultiplier(m.multiplier))
        return {
          argument: 'roundMultipliers',
          message: `a multiplier is from 0 to ${LIMITS.multiplier}, in hundredths at most (round ${m.roundId})`,
        };
    }
  }
  return null;
}

/**
 * What to store after a change: the settings played now with the given fields replaced. Left-out fields and
 * nulls keep their value, except goalDifference, whose null means "as outcome". All of it is stored, so a
 * default changed here later does not move a game already configured.
 */
export function mergeSettings(stored: unknown, input: ScoringSettingsInput): ScoringSettings {
  const next: Record<string, unknown> = { ...readScoringSettings(stored) };
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || (value === null && key !== 'goalDifference') || !(key in next)) continue;
    next[key] = key === 'roundMultipliers' ? (value as RoundMultiplier[]).map((m) => ({ ...m })) : value;
  }
  return next as unknown as ScoringSettings;
}

/** Whether two settings score predictions the same (ties and who is ranked aside). */
export function sameScoring(a: ScoringSettings, b: ScoringSettings): boolean {
  const scoring = (s: ScoringSettings) =>
    JSON.stringify([
      s.exactScore,
      goalDifferencePoints(s),
      s.outcome,
      s.penaltiesWinner,
      s.advancingTeam,
      s.basis,
      [...s.roundMultipliers].sort((x, y) => x.roundId - y.roundId),
      s.jokersPerRound > 0,
    ]);
  return scoring(a) === scoring(b);
}
