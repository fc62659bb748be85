// The trivia ranking, computed by the database as the prediction ranking is (ranking-query.ts): one aggregate over
// the company's ranked users and their graded answers, paged with LIMIT/OFFSET and numbered as RANK() would
// (1, 2, 2, 4) from how many rank strictly ahead of the page's first row.
// Only questions whose window has ended count: until then nobody may learn whether an answer was right.
// Points are integers (the questions' points), so plain sums compare exactly; PostgreSQL sums to bigint, hence
// the casts.
import type { Db } from '../db/client.ts';
import { Prisma } from '../db/sql.ts';
import { aliased, derived, Model, query, rowsOf } from '../db/typed-sql.ts';
import type { RankingRules } from './ranking-query.ts';
import { tied } from '../domain/rankings.ts';
import { asStanding, triviaTieRule, type TriviaStanding } from '../domain/trivia.ts';
import { scoresOfSql, scoresPageSql, scoresTotalSql, type RankedScores } from './scores-page.ts';

export interface TriviaRankingScope {
  companyId: number;
  /** The request's clock: questions whose window ended by then count. */
  now: Date;
  /** The company's tie rule and who is ranked (scoringSettings). */
  rules: RankingRules;
}

export type RankedTriviaStanding = TriviaStanding & { position: number };

const u = aliased(Model.User, 'u');

/** SQL: the conditions on `u` (a "User") for being ranked. */
function membersOf(scope: TriviaRankingScope) {
  const role = scope.rules.rankAdmins ? Prisma.empty : Prisma.sql`AND ${u.c('role')} = 'player'`;
  const [pa, pq] = [aliased(Model.TriviaAnswer, 'pa'), aliased(Model.TriviaQuestion, 'pq')];
  // Playing: an answer to one of the company's questions.
  const played = scope.rules.rankNonPlayers
    ? Prisma.empty
    : Prisma.sql`AND EXISTS (SELECT 1 FROM ${pa} JOIN ${pq} ON ${pq.c('id')} = ${pa.c('questionId')}
        WHERE ${pa.c('userId')} = ${u.c('id')} AND ${pq.c('companyId')} = ${scope.companyId})`;
  return Prisma.sql`${u.c('companyId')} = ${scope.companyId} AND ${u.c('deletedAt')} IS NULL ${role} ${played}`;
}

/** Every ranked user with their points and correct answers on the questions whose window has ended. */
function scoresSelect(scope: TriviaRankingScope) {
  const [ts, tq] = [aliased(Model.TriviaSolution, 'ts'), aliased(Model.TriviaQuestion, 'tq')];
  return Prisma.sql`
    SELECT ${u.c('id')} AS "userId", ${u.c('name')} AS "name",
      CAST(COALESCE(SUM(${ts.c('points')}), 0) AS INTEGER) AS "points",
      CAST(COALESCE(SUM(CASE WHEN ${ts.c('isCorrect')} THEN 1 ELSE 0 END), 0) AS INTEGER) AS "correctAnswers"
    FROM ${u}
    LEFT JOIN ${ts} ON ${ts.c('userId')} = ${u.c('id')} AND ${ts.c('questionId')} IN
      (SELECT ${tq.c('id')} FROM ${tq} WHERE ${tq.c('companyId')} = ${scope.companyId} AND ${tq.c('endsAt')} <=
        ${scope.now})
    WHERE ${membersOf(scope)}
    GROUP BY ${u.c('id')}, ${u.c('name')}`;
}

/** SQL: the row `s` ranks strictly ahead of the row named `other` (head or mine, in scores-page.ts). */
function ahead(other: 'head' | 'mine', scope: TriviaRankingScope) {
  const [s, o] = [derived<TriviaStanding>('s'), derived<TriviaStanding>(other)];
  const points = Prisma.sql`${s.c('points')} > ${o.c('points')}`;
  if (triviaTieRule(scope.rules.tieRule) === 'POINTS') return Prisma.sql`(${points})`;
  return Prisma.sql`(${points} OR (${s.c('points')} = ${o.c('points')}
    AND ${s.c('correctAnswers')} > ${o.c('correctAnswers')}))`;
}

/** SQL: ranking order under the tie rule, then by name. */
const order = (scope: TriviaRankingScope) =>
  Prisma.raw(
    triviaTieRule(scope.rules.tieRule) === 'POINTS'
      ? `"points" DESC, "name", "userId"`
      : `"points" DESC, "correctAnswers" DESC, "name", "userId"`,
  );

const STANDING = { userId: 'number', name: 'string', points: 'number', correctAnswers: 'number' } as const;

/** The standing of a row, without the counts read beside it. */
const plain = (r: TriviaStanding): TriviaStanding => ({
  userId: r.userId,
  name: r.name,
  points: r.points,
  correctAnswers: r.correctAnswers,
});

/** The scores, order and tie rule, for the statements both rankings page with (scores-page.ts). */
const ranked = (scope: TriviaRankingScope): RankedScores => ({
  select: scoresSelect(scope),
  order: order(scope),
  ahead: (other) => ahead(other, scope),
});

/** A page of the scores in ranking order, with how many rank ahead of its head and the total. */
const scoresPage = query(
  { ...STANDING, ahead: 'number', total: 'number' },
  (scope: TriviaRankingScope, skip: number, take: number) => scoresPageSql(ranked(scope), skip, take),
);

/** How many are ranked. */
const scoresTotal = query({ total: 'number' }, (scope: TriviaRankingScope) => scoresTotalSql(scoresSelect(scope)));

/** The user's scores, with how many rank ahead of them. */
const scoresOf = query({ ...STANDING, ahead: 'number' }, (scope: TriviaRankingScope, userId: number) =>
  scoresOfSql(ranked(scope), userId, { materialized: false }),
);

/** A page in ranking order with RANK() positions; the scores are computed once for the page, total and positions. */
export async function triviaRankingPage(
  prisma: Db,
  scope: TriviaRankingScope,
  skip: number,
  take: number,
): Promise<{ total: number; entries: RankedTriviaStanding[] }> {
  const rule = triviaTieRule(scope.rules.tieRule);
  const rows = await rowsOf(prisma, scoresPage, scope, skip, take);
  if (rows.length === 0) {
    // Past the end: only the total is asked.
    const [count] = await rowsOf(prisma, scoresTotal, scope);
    return { total: count.total, entries: [] };
  }
  // The first row's position is one more than how many rank ahead of it; each next row shares its predecessor's
  // when tied, else its position is its place in the order.
  const entries: RankedTriviaStanding[] = [];
  rows.map(plain).forEach((row, i) => {
    const position =
      i === 0
        ? rows[0].ahead + 1
        : tied(asStanding(entries[i - 1]), asStanding(row), rule)
          ? entries[i - 1].position
          : skip + i + 1;
    entries.push({ ...row, position });
  });
  return { total: rows[0].total, entries };
}

/** The user's standing and RANK() position; null when the user is not ranked. */
export async function triviaRankingOf(
  prisma: Db,
  scope: TriviaRankingScope,
  userId: number,
): Promise<RankedTriviaStanding | null> {
  const [row] = await rowsOf(prisma, scoresOf, scope, userId);
  return row ? { ...plain(row), position: row.ahead + 1 } : null;
}

/** This file's statements, for the test that runs each on SQLite and PostgreSQL (test/db/typed-sql.test.ts). */
export const triviaRankingSql = { scoresPage, scoresTotal, scoresOf };
