// Bonus questions (the spec's "extra predictions"), pure: what a question and an answer may be, when answers
// close, and what an answer earns. An answer is kept as text in one canonical form per kind, so "right" is a
// comparison of strings.
import { finalRound, thirdPlaceRound } from './dream-finals.ts';

export const BONUS_KINDS = ['CHAMPION', 'FINALIST', 'TOP_SCORER', 'NUMBER', 'CHOICE'] as const;
export type BonusKind = (typeof BONUS_KINDS)[number];

export const BONUS_LIMITS = { text: 300, options: 10, option: 100, points: 1000, name: 80, number: 100_000 } as const;

export interface BonusQuestionInput {
  kind: BonusKind;
  text: string;
  options?: string[] | null;
  points: number;
  closesAt: Date;
}

export interface Problem {
  argument: string;
  message: string;
}

const TEAM_KINDS = new Set<BonusKind>(['CHAMPION', 'FINALIST']);

/** The first thing wrong with a question, or null. */
export function questionProblem(q: BonusQuestionInput): Problem | null {
  if (!BONUS_KINDS.includes(q.kind)) return { argument: 'kind', message: `kind is one of ${BONUS_KINDS.join(', ')}` };
  const text = q.text.trim();
  if (text.length < 3 || text.length > BONUS_LIMITS.text)
    return { argument: 'text', message: `text must be 3 to ${BONUS_LIMITS.text} characters` };
  if (!Number.isInteger(q.points) || q.points < 0 || q.points > BONUS_LIMITS.points)
    return { argument: 'points', message: `points must be a whole number from 0 to ${BONUS_LIMITS.points}` };
  if (!(q.closesAt instanceof Date) || Number.isNaN(q.closesAt.getTime()))
    return { argument: 'closesAt', message: 'closesAt must be a date-time' };
  const options = (q.options ?? []).map((o) => o.trim());
  if (q.kind === 'CHOICE') {
    if (options.length < 2 || options.length > BONUS_LIMITS.options)
      return { argument: 'options', message: `a CHOICE question has 2 to ${BONUS_LIMITS.options} options` };
    if (options.some((o) => o.length === 0 || o.length > BONUS_LIMITS.option))
      return { argument: 'options', message: `each option is 1 to ${BONUS_LIMITS.option} characters` };
    if (new Set(options.map((o) => o.toLowerCase())).size !== options.length)
      return { argument: 'options', message: 'the options must differ' };
  } else if (options.length > 0) {
    return { argument: 'options', message: 'only CHOICE questions have options' };
  }
  return null;
}

/** Names compare without case, accents or extra spaces ("Kylian  Mbappé" is "kylian mbappe"). */
const plainName = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

export interface QuestionForAnswer {
  kind: BonusKind;
  options: string[];
}

/**
 * The canonical form of an answer (a team id, a plain name, a whole number, an option index), or the problem.
 * `teamIds` are the teams playing in the question's tournament.
 */
export function canonicalAnswer(
  q: QuestionForAnswer,
  raw: string,
  teamIds: ReadonlySet<number>,
): { value: string } | Problem {
  const given = raw.trim();
  if (TEAM_KINDS.has(q.kind)) {
    if (!/^\d{1,9}$/.test(given) || !teamIds.has(Number(given)))
      return { argument: 'answer', message: 'the answer is the id of a team playing in the tournament' };
    return { value: String(Number(given)) };
  }
  if (q.kind === 'TOP_SCORER') {
    const name = plainName(given);
    if (name.length < 2 || name.length > BONUS_LIMITS.name)
      return { argument: 'answer', message: `the answer is a player's name, 2 to ${BONUS_LIMITS.name} characters` };
    return { value: name };
  }
  if (q.kind === 'NUMBER') {
    if (!/^\d{1,6}$/.test(given) || Number(given) > BONUS_LIMITS.number)
      return { argument: 'answer', message: `the answer is a whole number from 0 to ${BONUS_LIMITS.number}` };
    return { value: String(Number(given)) };
  }
  if (!/^\d{1,2}$/.test(given) || Number(given) >= q.options.length)
    return { argument: 'answer', message: `the answer is an option's index, from 0 to ${q.options.length - 1}` };
  return { value: String(Number(given)) };
}

/** The right answers in canonical form: one champion, one or two finalists, one or more of the rest. */
export function canonicalCorrect(
  q: QuestionForAnswer,
  raw: string[],
  teamIds: ReadonlySet<number>,
): { values: string[] } | Problem {
  const most = q.kind === 'CHAMPION' || q.kind === 'NUMBER' ? 1 : q.kind === 'FINALIST' ? 2 : 20;
  if (raw.length < 1 || raw.length > most)
    return { argument: 'correctAnswers', message: `a ${q.kind} question has 1 to ${most} right answer(s)` };
  const values: string[] = [];
  for (const r of raw) {
    const c = canonicalAnswer(q, r, teamIds);
    if ('argument' in c) return { argument: 'correctAnswers', message: c.message };
    values.push(c.value);
  }
  return { values: [...new Set(values)] };
}

/** Points of an answer: the question's when it is one of the right answers, else 0; null until they are set. */
export function answerPoints(value: string, correct: string[] | null, points: number): number | null {
  if (correct === null) return null;
  return correct.includes(value) ? points : 0;
}

/**
 * Answers close at closesAt, and a question about the champion or the finalists no later than the kickoff of the
 * matches that decide it (`deciding`: the final for the champion, the round before it for the finalists), when
 * the answer starts being played out.
 */
export function closesAt(q: { closesAt: Date }, deciding: Date | null): Date {
  return deciding && deciding < q.closesAt ? deciding : q.closesAt;
}

/** The rounds whose first kickoff closes a team question: the final's for CHAMPION, the one before for FINALIST. */
export function decidingRound<R extends { id: number; name: string; position: number }>(
  kind: BonusKind,
  rounds: R[],
): R | null {
  const final = TEAM_KINDS.has(kind) ? finalRound(rounds) : undefined;
  if (!final) return null;
  if (kind === 'CHAMPION') return final;
  // The round before the final, the match for third place aside.
  const third = thirdPlaceRound(rounds);
  const before = rounds.filter((r) => r !== third && r.position < final.position);
  return before.sort((a, b) => b.position - a.position)[0] ?? final;
}
