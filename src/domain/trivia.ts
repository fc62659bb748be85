// Rules of trivia, pure: a question's window on the server clock, what a question may hold, how an answer is
// graded, and the ranking order under the company's tie rule.
//
// A question is open from startsAt (included) to endsAt (excluded). Answers are graded when given (a
// TriviaSolution with isCorrect and the question's points for a right answer), but nothing tells a player whether
// an answer was right until the window has ended: not the question (its correctOption), not their solutions,
// not the trivia ranking, which counts only questions whose window has ended.
import { badInput } from './errors.ts';
import { textInput } from './inputs.ts';
import { rankStandings, type RankedStanding, type Standing } from './rankings.ts';
import type { TieRule } from './scoring-settings.ts';

export const TRIVIA_LIMITS = {
  textLength: 500,
  minOptions: 2,
  maxOptions: 10,
  optionLength: 200,
  maxPoints: 1000,
  /** Windows lie within these years (both databases order and hold such dates alike). */
  firstYear: 2000,
  lastYear: 9999,
} as const;

export type TriviaWindow = 'UPCOMING' | 'OPEN' | 'CLOSED';

/** Where the question's window stands at `now`. */
export function triviaWindow(question: { startsAt: Date; endsAt: Date }, now: Date): TriviaWindow {
  if (now.getTime() < question.startsAt.getTime()) return 'UPCOMING';
  return now.getTime() < question.endsAt.getTime() ? 'OPEN' : 'CLOSED';
}

export interface TriviaQuestionInput {
  text?: string | null;
  options?: string[] | null;
  correctOption?: number | null;
  points?: number | null;
  startsAt?: Date | null;
  endsAt?: Date | null;
}

export interface TriviaQuestionData {
  text: string;
  options: string[];
  correctOption: number;
  points: number;
  startsAt: Date;
  endsAt: Date;
}

export const DEFAULT_TRIVIA_POINTS = 1;

const fold = (s: string) => s.toLocaleLowerCase('en');

function optionsInput(options: string[]): string[] {
  const { minOptions, maxOptions, optionLength } = TRIVIA_LIMITS;
  if (options.length < minOptions || options.length > maxOptions)
    throw badInput(`options must hold ${minOptions} to ${maxOptions} choices`, 'options');
  const trimmed = options.map((o) => o.trim());
  if (trimmed.some((o) => !o)) throw badInput('options must not be empty', 'options');
  if (trimmed.some((o) => o.length > optionLength))
    throw badInput(`each option must be at most ${optionLength} characters`, 'options');
  if (new Set(trimmed.map(fold)).size !== trimmed.length)
    throw badInput('options must differ from each other (case aside)', 'options');
  return trimmed;
}

function dateInput(value: Date, field: string): Date {
  const year = value.getUTCFullYear();
  if (Number.isNaN(value.getTime()) || year < TRIVIA_LIMITS.firstYear || year > TRIVIA_LIMITS.lastYear)
    throw badInput(`${field} must be a date from ${TRIVIA_LIMITS.firstYear} to ${TRIVIA_LIMITS.lastYear}`, field);
  return value;
}

/**
 * The question `input` makes (over `current` on an update: left-out fields stay), checked. Every field but
 * points (default 1) is required to create. The window must end after it starts and after `now`.
 */
export function triviaQuestionData(
  input: TriviaQuestionInput,
  current: TriviaQuestionData | null,
  now: Date,
): TriviaQuestionData {
  const given = <K extends keyof TriviaQuestionInput>(key: K) => input[key] !== undefined && input[key] !== null;
  const required = (key: keyof TriviaQuestionInput) => {
    if (!current && !given(key)) throw badInput(`${key} is required`, key);
  };
  (['text', 'options', 'correctOption', 'startsAt', 'endsAt'] as const).forEach(required);
  const text = given('text') ? textInput(input.text, 'text', TRIVIA_LIMITS.textLength) : current!.text;
  const options = given('options') ? optionsInput(input.options!) : current!.options;
  const correctOption = given('correctOption') ? input.correctOption! : current!.correctOption;
  if (!Number.isInteger(correctOption) || correctOption < 0 || correctOption >= options.length)
    throw badInput(
      `correctOption must be the index of one of the ${options.length} options (0 to ${options.length - 1})`,
      'correctOption',
    );
  const points = given('points') ? input.points! : (current?.points ?? DEFAULT_TRIVIA_POINTS);
  if (!Number.isInteger(points) || points < 0 || points > TRIVIA_LIMITS.maxPoints)
    throw badInput(`points must be an integer from 0 to ${TRIVIA_LIMITS.maxPoints}`, 'points');
  const startsAt = given('startsAt') ? dateInput(input.startsAt!, 'startsAt') : current!.startsAt;
  const endsAt = given('endsAt') ? dateInput(input.endsAt!, 'endsAt') : current!.endsAt;
  if (endsAt.getTime() <= startsAt.getTime()) throw badInput('endsAt must be after startsAt', 'endsAt');
  if (endsAt.getTime() <= now.getTime()) throw badInput('endsAt must be in the future', 'endsAt');
  return { text, options, correctOption, points, startsAt, endsAt };
}

/** The options a stored question holds (its Json column), as strings. */
export const storedOptions = (options: unknown): string[] =>
  Array.isArray(options) ? options.map((o) => (typeof o === 'string' ? o : String(o))) : [];

/** A right answer earns the question's points; a wrong one none. `option` must index one of the options. */
export function gradeTriviaAnswer(
  question: { options: string[]; correctOption: number; points: number },
  option: number,
): { isCorrect: boolean; points: number } {
  const count = question.options.length;
  if (!Number.isInteger(option) || option < 0 || option >= count)
    throw badInput(`option must be the index of one of the ${count} options (0 to ${count - 1})`, 'option');
  const isCorrect = option === question.correctOption;
  return { isCorrect, points: isCorrect ? question.points : 0 };
}

/**
 * The company's tie rule as trivia applies it. HITS: points, then correct answers. POINTS: points alone.
 * ROUND_WINS: each question is a round, and a question's winners are everyone who answered it right (each of them
 * scores the same), so rounds won are correct answers: it ranks as HITS.
 */
export const triviaTieRule = (rule: TieRule): 'HITS' | 'POINTS' => (rule === 'POINTS' ? 'POINTS' : 'HITS');

export interface TriviaStanding {
  userId: number;
  name: string;
  points: number;
  correctAnswers: number;
}

/** A trivia standing in the prediction ranking's terms: correct answers are its exact hits. */
export const asStanding = (s: TriviaStanding): Standing => ({
  userId: s.userId,
  name: s.name,
  points: s.points,
  exactHits: s.correctAnswers,
  outcomeHits: 0,
});

/**
 * The trivia ranking, pure: as the prediction ranking (RANK() positions: 1, 2, 2, 4; within a position by name)
 * under triviaTieRule. The database computes the same (trivia-ranking.ts); this is the reference.
 */
export function rankTrivia(
  standings: TriviaStanding[],
  rule: TieRule,
): Array<TriviaStanding & Pick<RankedStanding, 'position'>> {
  return rankStandings(standings.map(asStanding), triviaTieRule(rule)).map((r) => ({
    userId: r.userId,
    name: r.name,
    points: r.points,
    correctAnswers: r.exactHits,
    position: r.position,
  }));
}
