// Trivia, where the company purchased it (purchasedGames.trivia) and has not switched it off (disableTrivias): its
// admins (and its reseller, and managers) publish questions with options and a time window; the company's people
// answer each once inside the window; a trivia ranking orders them under the company's tie rule.
//
// Who may do what:
// - Not purchased: every trivia operation is FORBIDDEN, managing questions included.
// - disableTrivias: players are FORBIDDEN to read, answer or rank; admins, the reseller and managers still list,
//   manage and rank (to prepare before switching it on), but nobody answers.
// - Answers are given in the caller's own company, by the server clock: not before startsAt (FORBIDDEN), not from
//   endsAt on (FORBIDDEN), once (CONFLICT). They are graded when given, but correctness shows nowhere until the
//   window has ended (src/domain/trivia.ts), so colleagues cannot pass right answers around.
// - A question changes only before its window starts (then CONFLICT: nobody has seen it yet, nobody has answered);
//   it may be deleted at any time, with its answers and their points.
import { roleAtLeast, type RoleName } from '../domain/roles.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { TriviaQuestionRow } from '../db/rows.ts';
import { purchasedGames } from '../domain/defaults.ts';
import { conflict, forbidden, notFound } from '../domain/errors.ts';
import { paging } from '../domain/paging.ts';
import { readScoringSettings } from '../domain/scoring-settings.ts';
import { triviaRankingOf, triviaRankingPage, type RankedTriviaStanding } from '../game/trivia-ranking.ts';
import {
  gradeTriviaAnswer,
  storedOptions,
  triviaQuestionData,
  triviaWindow,
  type TriviaQuestionData,
  type TriviaQuestionInput,
  type TriviaWindow,
} from '../domain/trivia.ts';
import type { Acting, RequestScope } from './scope.ts';

const NOT_PURCHASED = "trivia is not part of this company's plan (purchasedGames.trivia)";
const DISABLED = 'trivia is switched off in this company (disableTrivias)';
const ADMINS_ONLY = "only admins, the company's reseller and managers manage trivia questions";

/** A question as the caller may see it: the right option only to those who manage trivia, or once it has ended. */
export interface TriviaQuestionView {
  id: number;
  text: string;
  options: string[];
  points: number;
  startsAt: Date;
  endsAt: Date;
  window: TriviaWindow;
  correctOption: number | null;
}

/** The caller's own answer to a question; whether it was right (and its points) only once the window has ended. */
export interface MyTriviaAnswer {
  option: number;
  answeredAt: Date;
  isCorrect: boolean | null;
  points: number | null;
}

const purchased = (acting: Acting) => purchasedGames(acting.tenant.purchasedGames).trivia;
const administers = (acting: Acting) => roleAtLeast(acting.viewer.role as RoleName, 'admin');

/** Reading questions and the ranking: anyone of the tenant where trivia is played; its managers even when off. */
function viewing(scope: RequestScope): Acting & { administers: boolean } {
  const acting = scope.requireTenant();
  if (!purchased(acting)) throw forbidden(NOT_PURCHASED);
  const manages = administers(acting);
  if (acting.tenant.disableTrivias && !manages) throw forbidden(DISABLED);
  return { ...acting, administers: manages };
}

/** Publishing, changing and deleting questions: the tenant's admins, its reseller and managers, where purchased. */
function managing(scope: RequestScope): Acting {
  const acting = scope.requireRole('admin', ADMINS_ONLY);
  if (!purchased(acting)) throw forbidden(NOT_PURCHASED);
  return acting;
}

/** Answering: a member of the company, where trivia is purchased and on. */
function playing(scope: RequestScope): Acting {
  const acting = scope.requireOwnCompany('trivia is played in your own company');
  if (!purchased(acting)) throw forbidden(NOT_PURCHASED);
  if (acting.tenant.disableTrivias) throw forbidden(DISABLED);
  return acting;
}

const stored = (row: TriviaQuestionRow): TriviaQuestionData => ({
  text: row.text,
  options: storedOptions(row.options),
  correctOption: row.correctOption,
  points: row.points,
  startsAt: row.startsAt,
  endsAt: row.endsAt,
});

function view(row: TriviaQuestionRow, now: Date, revealed: boolean): TriviaQuestionView {
  const window = triviaWindow(row, now);
  return {
    id: row.id,
    ...stored(row),
    window,
    correctOption: revealed || window === 'CLOSED' ? row.correctOption : null,
  };
}

/** A question of the tenant, or NOT_FOUND (another company's too). */
async function tenantQuestion(scope: RequestScope, companyId: number, id: number): Promise<TriviaQuestionRow> {
  const row = await scope.db.triviaQuestion.findUnique({ where: { id } });
  if (!row || row.companyId !== companyId) throw notFound('trivia question', id);
  return row;
}

/**
 * Players: the questions whose window has started (open ones and ended ones), the right option only once ended.
 * Admins, the reseller and managers: every question of the company, with the right option. Latest start first.
 */
export async function triviaQuestions(
  scope: RequestScope,
  args: { skip?: number | null; take?: number | null },
): Promise<TriviaQuestionView[]> {
  const acting = viewing(scope);
  const page = paging(args.skip, args.take);
  const rows = await scope.db.triviaQuestion.findMany({
    where: { companyId: acting.tenant.id, ...(acting.administers ? {} : { startsAt: { lte: scope.now } }) },
    orderBy: [{ startsAt: 'desc' }, { id: 'desc' }],
    skip: page.skip,
    take: page.take,
  });
  return rows.map((row) => view(row, scope.now, acting.administers));
}

export async function createTriviaQuestion(
  scope: RequestScope,
  input: TriviaQuestionInput,
): Promise<TriviaQuestionView> {
  const { tenant } = managing(scope);
  const data = triviaQuestionData(input, null, scope.now);
  const row = await scope.write((tx) => tx.triviaQuestion.create({ data: { ...data, companyId: tenant.id } }));
  return view(row, scope.now, true);
}

/** Left-out fields stay. Only before the window starts: nobody has seen the question or answered it yet. */
export async function updateTriviaQuestion(
  scope: RequestScope,
  id: number,
  input: TriviaQuestionInput,
): Promise<TriviaQuestionView> {
  const { tenant } = managing(scope);
  const row = await tenantQuestion(scope, tenant.id, id);
  const started = () =>
    conflict(
      `the question's window started at ${row.startsAt.toISOString()}: it no longer changes (delete it instead)`,
    );
  if (triviaWindow(row, scope.now) !== 'UPCOMING') throw started();
  const data = triviaQuestionData(input, stored(row), scope.now);
  const updated = await scope.write(async (tx) => {
    // An answer given since the check (the window opening meanwhile) keeps the question as it was answered.
    if ((await tx.triviaAnswer.count({ where: { questionId: row.id } })) > 0) throw started();
    return tx.triviaQuestion.update({ where: { id: row.id }, data });
  });
  return view(updated, scope.now, true);
}

/** At any time: the question's answers and their points go with it. */
export async function deleteTriviaQuestion(scope: RequestScope, id: number): Promise<true> {
  const { tenant } = managing(scope);
  const row = await tenantQuestion(scope, tenant.id, id);
  await scope.write((tx) => tx.triviaQuestion.delete({ where: { id: row.id } }));
  return true;
}

/**
 * The caller's answer, once, inside the window (server clock), graded now and kept quiet until the window ends.
 * Answers the question as the caller sees it.
 */
export async function answerTrivia(scope: RequestScope, questionId: number, option: number) {
  const acting = playing(scope);
  const { viewer, tenant } = acting;
  const row = await tenantQuestion(scope, tenant.id, questionId);
  // Whoever administers the company sees the right option while the window is open: they do not play.
  if (administers(acting)) throw forbidden('admins see the right answers: trivia is answered by players');
  const window = triviaWindow(row, scope.now);
  if (window === 'UPCOMING') throw forbidden(`the question opens at ${row.startsAt.toISOString()}`);
  if (window === 'CLOSED') throw forbidden(`the question closed at ${row.endsAt.toISOString()}`);
  const grade = gradeTriviaAnswer(stored(row), option);
  const who = { questionId: row.id, userId: viewer.id, createdAt: scope.now };
  await scope
    .write(async (tx) => {
      await tx.triviaAnswer.create({ data: { ...who, option } });
      await tx.triviaSolution.create({ data: { ...who, ...grade } });
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw conflict('you have answered this question already', 'questionId');
      throw err;
    });
  return view(row, scope.now, administers(acting));
}

/** The caller's own answer to the question (one of the views above), or null. */
export async function myTriviaAnswer(
  scope: RequestScope,
  question: TriviaQuestionView,
): Promise<MyTriviaAnswer | null> {
  if (!scope.caller) return null;
  const [answer] = await scope.loaders.ownTriviaAnswersByQuestion.load(question.id);
  if (!answer) return null;
  const [solution] =
    question.window === 'CLOSED' ? await scope.loaders.ownTriviaSolutionsByQuestion.load(question.id) : [];
  return {
    option: answer.option,
    answeredAt: answer.createdAt,
    isCorrect: solution?.isCorrect ?? null,
    points: solution?.points ?? null,
  };
}

/**
 * A page of the trivia ranking: points of the questions whose window has ended, then (under HITS, and ROUND_WINS,
 * where each question is a round won by everyone who answered it right) correct answers; under POINTS points
 * alone. Ties share a position (1, 2, 2, 4). The company's rankAdmins and rankNonPlayers (people who answered no
 * question) decide who is ranked. `me` is the caller's standing in their own company.
 */
export async function triviaRanking(
  scope: RequestScope,
  args: { skip?: number | null; take?: number | null },
): Promise<{ total: number; entries: RankedTriviaStanding[]; me: RankedTriviaStanding | null }> {
  const { viewer, tenant } = viewing(scope);
  const page = paging(args.skip, args.take);
  const { tieRule, rankAdmins, rankNonPlayers } = readScoringSettings(tenant.scoringSettings);
  const which = { companyId: tenant.id, now: scope.now, rules: { tieRule, rankAdmins, rankNonPlayers } };
  const [{ total, entries }, me] = await Promise.all([
    triviaRankingPage(scope.db, which, page.skip, page.take),
    viewer.companyId === tenant.id ? triviaRankingOf(scope.db, which, viewer.id) : Promise.resolve(null),
  ]);
  return { total, entries, me };
}
