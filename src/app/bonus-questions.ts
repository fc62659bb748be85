// Bonus questions (the spec's extra predictions): a company's admins ask them per tournament where
// disableExtraPredictions is off; its players answer each once before it closes; the right answers, set later,
// score every answer and move the general ranking in the same transaction (as dream finals do).
import type { Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { CompanyRow } from '../db/rows.ts';
import { badInput, conflict, forbidden, notFound } from '../domain/errors.ts';
import {
  answerPoints,
  canonicalAnswer,
  canonicalCorrect,
  closesAt,
  decidingRound,
  questionProblem,
  type BonusKind,
  type BonusQuestionInput,
} from '../domain/bonus-questions.ts';
import { dropNonPlayers, refreshStandings } from '../game/standings.ts';
import type { RequestScope } from './scope.ts';

export interface BonusQuestionView {
  id: number;
  tournamentId: number;
  kind: BonusKind;
  text: string;
  options: string[];
  points: number;
  /** When answers close: closesAt, or earlier for team questions (the deciding matches' kickoff). */
  closesAt: Date;
  correctAnswers: string[] | null;
  myAnswer: { value: string; points: number | null } | null;
}

type QuestionRow = Awaited<ReturnType<Tx['bonusQuestion']['findUniqueOrThrow']>>;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

function refuseWhereOff(company: CompanyRow) {
  if (company.disableExtraPredictions) throw forbidden('this company plays without bonus questions');
}

async function tournamentOf(scope: RequestScope, companyId: number, tournamentId: number) {
  const tournaments = await scope.loaders.tournamentsByCompany.load(companyId);
  if (!tournaments.some((t) => t.id === tournamentId)) throw notFound('tournament', tournamentId);
}

/** The first kickoff of the round deciding a team question, if the tournament has one. */
async function decidingKickoff(scope: RequestScope, kind: BonusKind, tournamentId: number): Promise<Date | null> {
  const round = decidingRound(kind, await scope.db.round.findMany({ where: { tournamentId } }));
  if (!round) return null;
  const first = await scope.db.match.findFirst({ where: { roundId: round.id }, orderBy: { date: 'asc' } });
  return first?.date ?? null;
}

async function teamsOf(scope: RequestScope, tournamentId: number): Promise<Set<number>> {
  const matches = await scope.db.match.findMany({
    where: { tournamentId },
    select: { homeTeamId: true, awayTeamId: true },
  });
  return new Set(matches.flatMap((m) => [m.homeTeamId, m.awayTeamId]));
}

/** A question of the company the request acts on, for its admins; another company's is NOT_FOUND. */
async function ownQuestion(scope: RequestScope, id: number) {
  const { tenant } = scope.requireRole('admin', 'only admins manage bonus questions');
  const question = await scope.db.bonusQuestion.findUnique({ where: { id } });
  if (!question || question.companyId !== tenant.id) throw notFound('bonus question', id);
  return { tenant, question };
}

function view(q: QuestionRow, closing: Date, mine: { value: string; points: number | null } | null) {
  return {
    id: q.id,
    tournamentId: q.tournamentId,
    kind: q.kind as BonusKind,
    text: q.text,
    options: strings(q.options),
    points: q.points,
    closesAt: closing,
    correctAnswers: q.correctAnswers == null ? null : strings(q.correctAnswers),
    myAnswer: mine,
  } satisfies BonusQuestionView;
}

/** The company's questions about a tournament, with the caller's own answer; none where the game is off. */
export async function bonusQuestions(scope: RequestScope, tournamentId: number): Promise<BonusQuestionView[]> {
  const { viewer, tenant } = scope.requireTenant();
  await tournamentOf(scope, tenant.id, tournamentId);
  if (tenant.disableExtraPredictions) return [];
  const questions = await scope.db.bonusQuestion.findMany({
    where: { companyId: tenant.id, tournamentId },
    orderBy: [{ closesAt: 'asc' }, { id: 'asc' }],
  });
  const answers = await scope.db.bonusAnswer.findMany({
    where: { userId: viewer.id, questionId: { in: questions.map((q) => q.id) } },
  });
  const champion = await decidingKickoff(scope, 'CHAMPION', tournamentId);
  const finalists = await decidingKickoff(scope, 'FINALIST', tournamentId);
  return questions.map((q) => {
    const deciding = q.kind === 'CHAMPION' ? champion : q.kind === 'FINALIST' ? finalists : null;
    const mine = answers.find((a) => a.questionId === q.id);
    return view(q, closesAt(q, deciding), mine ? { value: mine.value, points: mine.points } : null);
  });
}

export async function createBonusQuestion(
  scope: RequestScope,
  input: BonusQuestionInput & { tournamentId: number },
): Promise<BonusQuestionView> {
  const { tenant } = scope.requireRole('admin', 'only admins ask bonus questions');
  refuseWhereOff(tenant);
  await tournamentOf(scope, tenant.id, input.tournamentId);
  const problem = questionProblem(input);
  if (problem) throw badInput(problem.message, problem.argument);
  if (input.closesAt <= scope.now) throw badInput('closesAt must be in the future', 'closesAt');
  const row = await scope.write((tx) =>
    tx.bonusQuestion.create({
      data: {
        companyId: tenant.id,
        tournamentId: input.tournamentId,
        kind: input.kind,
        text: input.text.trim(),
        options: (input.options ?? []).map((o) => o.trim()),
        points: input.points,
        closesAt: input.closesAt,
      },
    }),
  );
  return view(row, closesAt(row, await decidingKickoff(scope, row.kind, row.tournamentId)), null);
}

/** Text, options, points and closing time, while nobody has answered (answers were given to this question). */
export async function updateBonusQuestion(
  scope: RequestScope,
  id: number,
  input: Partial<Omit<BonusQuestionInput, 'kind'>>,
): Promise<BonusQuestionView> {
  const { tenant, question } = await ownQuestion(scope, id);
  refuseWhereOff(tenant);
  const next = {
    kind: question.kind as BonusKind,
    text: input.text ?? question.text,
    options: input.options ?? strings(question.options),
    points: input.points ?? question.points,
    closesAt: input.closesAt ?? question.closesAt,
  };
  const problem = questionProblem(next);
  if (problem) throw badInput(problem.message, problem.argument);
  if (input.closesAt && input.closesAt <= scope.now) throw badInput('closesAt must be in the future', 'closesAt');
  const row = await scope.write(async (tx) => {
    if ((await tx.bonusAnswer.count({ where: { questionId: id } })) > 0)
      throw conflict('people have answered this question: it no longer changes (delete it instead)');
    return tx.bonusQuestion.update({
      where: { id },
      data: {
        text: next.text.trim(),
        options: next.options.map((o) => o.trim()),
        points: next.points,
        closesAt: next.closesAt,
      },
    });
  });
  return view(row, closesAt(row, await decidingKickoff(scope, row.kind, row.tournamentId)), null);
}

/** The question and its answers; their points leave the ranking in the same step. */
export async function deleteBonusQuestion(scope: RequestScope, id: number): Promise<true> {
  const { question } = await ownQuestion(scope, id);
  await scope.write(async (tx) => {
    const answers = await tx.bonusAnswer.findMany({ where: { questionId: id }, select: { userId: true } });
    await tx.bonusQuestion.delete({ where: { id } });
    const answerers = answers.map((a) => a.userId);
    await refreshStandings(tx, question.tournamentId, answerers);
    // Those whose only part in the tournament was this answer have not played in it now.
    await dropNonPlayers(tx, question.tournamentId, answerers);
  });
  scope.live.publish({ kind: 'ranking', tournamentId: question.tournamentId, companyId: question.companyId });
  return true;
}

/** The right answers, once the question has closed: every answer is scored and the ranking moves at once. */
export async function setBonusAnswers(
  scope: RequestScope,
  id: number,
  correctAnswers: string[],
): Promise<BonusQuestionView> {
  const { question } = await ownQuestion(scope, id);
  const closing = closesAt(question, await decidingKickoff(scope, question.kind as BonusKind, question.tournamentId));
  if (closing > scope.now)
    throw conflict(`the question is open until ${closing.toISOString()}: its answer is set after it closes`);
  const q = { kind: question.kind as BonusKind, options: strings(question.options) };
  const checked = canonicalCorrect(q, correctAnswers, await teamsOf(scope, question.tournamentId));
  if ('argument' in checked) throw badInput(checked.message, checked.argument);
  const row = await scope.write(async (tx) => {
    const updated = await tx.bonusQuestion.update({ where: { id }, data: { correctAnswers: checked.values } });
    const answers = await tx.bonusAnswer.findMany({ where: { questionId: id } });
    for (const points of [question.points, 0]) {
      const ids = answers
        .filter((a) => answerPoints(a.value, checked.values, question.points) === points)
        .map((a) => a.id);
      if (ids.length) await tx.bonusAnswer.updateMany({ where: { id: { in: ids } }, data: { points } });
    }
    await refreshStandings(
      tx,
      question.tournamentId,
      answers.map((a) => a.userId),
    );
    return updated;
  });
  scope.live.publish({ kind: 'ranking', tournamentId: question.tournamentId, companyId: question.companyId });
  return view(row, closing, null);
}

/** The caller's one answer, before the question closes, in their own company. */
export async function answerBonusQuestion(scope: RequestScope, id: number, answer: string): Promise<BonusQuestionView> {
  const { viewer, tenant } = scope.requireOwnCompany('bonus questions are answered in your own company');
  const question = await scope.db.bonusQuestion.findUnique({ where: { id } });
  if (!question || question.companyId !== tenant.id) throw notFound('bonus question', id);
  refuseWhereOff(tenant);
  // A tournament the company has left takes no more answers.
  await tournamentOf(scope, tenant.id, question.tournamentId);
  const closing = closesAt(question, await decidingKickoff(scope, question.kind as BonusKind, question.tournamentId));
  if (scope.now >= closing) throw forbidden(`answers closed at ${closing.toISOString()}`);
  const q = { kind: question.kind as BonusKind, options: strings(question.options) };
  const checked = canonicalAnswer(q, answer, await teamsOf(scope, question.tournamentId));
  if ('argument' in checked) throw badInput(checked.message, checked.argument);
  const mine = await scope
    .write((tx) => tx.bonusAnswer.create({ data: { questionId: id, userId: viewer.id, value: checked.value } }))
    .catch((err: unknown) => {
      // Answered already (or twice at once: the unique index let one in).
      if (isUniqueViolation(err)) throw conflict('you have answered this question already');
      throw err;
    });
  return view(question, closing, { value: mine.value, points: mine.points });
}
