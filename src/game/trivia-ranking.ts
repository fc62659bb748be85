// The trivia ranking, computed by the database as the prediction ranking is (ranking-query.ts): one aggregate over
// the company's ranked users and their graded answers, paged with LIMIT/OFFSET and numbered as RANK() would
// (1, 2, 2, 4) from how many rank strictly ahead of the page's first row.
// Only questions whose window has ended count: until then nobody may learn whether an answer was right.
// Points are integers (the questions' points), so plain sums compare exactly; PostgreSQL sums to bigint, hence
// the casts.
import type { Db } from '../db/client.ts';
import { Prisma } from '../db/sql.ts';
import type { RankingRules } from './ranking-query.ts';
import { tied } from '../domain/rankings.ts';
import { asStanding, triviaTieRule, type TriviaStanding } from '../domain/trivia.ts';

export interface TriviaRankingScope {
  companyId: number;
  /** The request's clock: questions whose window ended by then count. */
  now: Date;
  /** The company's tie rule and who is ranked (scoringSettings). */
  rules: RankingRules;
}

export type RankedTriviaStanding = TriviaStanding & { position: number };

/** SQL: the conditions on `u` (a "User") for being ranked. */
function membersOf(scope: TriviaRankingScope) {
  const role = scope.rules.rankAdmins ? Prisma.empty : Prisma.sql`AND u."role" = 'player'`;
  // Playing: an answer to one of the company's questions.
  const played = scope.rules.rankNonPlayers
    ? Prisma.empty
    : Prisma.sql`AND EXISTS (SELECT 1 FROM "TriviaAnswer" pa JOIN "TriviaQuestion" pq ON pq."id" = pa."questionId"
        WHERE pa."userId" = u."id" AND pq."companyId" = ${scope.companyId})`;
  return Prisma.sql`u."companyId" = ${scope.companyId} AND u."deletedAt" IS NULL ${role} ${played}`;
}

/** Every ranked user with their points and correct answers on the questions whose window has ended. */
function scoresSelect(scope: TriviaRankingScope) {
  return Prisma.sql`
    SELECT u."id" AS "userId", u."name" AS "name",
      CAST(COALESCE(SUM(ts."points"), 0) AS INTEGER) AS "points",
      CAST(COALESCE(SUM(CASE WHEN ts."isCorrect" THEN 1 ELSE 0 END), 0) AS INTEGER) AS "correctAnswers"
    FROM "User" u
    LEFT JOIN "TriviaSolution" ts ON ts."userId" = u."id" AND ts."questionId" IN
      (SELECT tq."id" FROM "TriviaQuestion" tq WHERE tq."companyId" = ${scope.companyId} AND tq."endsAt" <=
        ${scope.now})
    WHERE ${membersOf(scope)}
    GROUP BY u."id", u."name"`;
}

/** SQL: the row `s` ranks strictly ahead of the row named `other` (an alias written in this file). */
function ahead(other: 'head' | 'mine', scope: TriviaRankingScope) {
  const [p, c] = ['points', 'correctAnswers'].map((col) => Prisma.raw(`${other}."${col}"`));
  if (triviaTieRule(scope.rules.tieRule) === 'POINTS') return Prisma.sql`(s."points" > ${p})`;
  return Prisma.sql`(s."points" > ${p} OR (s."points" = ${p} AND s."correctAnswers" > ${c}))`;
}

/** SQL: ranking order under the tie rule, then by name. */
const order = (scope: TriviaRankingScope) =>
  Prisma.raw(
    triviaTieRule(scope.rules.tieRule) === 'POINTS'
      ? `"points" DESC, "name", "userId"`
      : `"points" DESC, "correctAnswers" DESC, "name", "userId"`,
  );

const plain = (r: TriviaStanding): TriviaStanding => ({
  userId: Number(r.userId),
  name: r.name,
  points: Number(r.points),
  correctAnswers: Number(r.correctAnswers),
});

/** A page in ranking order with RANK() positions; the scores are computed once for the page, total and positions. */
export async function triviaRankingPage(
  prisma: Db,
  scope: TriviaRankingScope,
  skip: number,
  take: number,
): Promise<{ total: number; entries: RankedTriviaStanding[] }> {
  const by = order(scope);
  const rule = triviaTieRule(scope.rules.tieRule);
  const rows = await prisma.$queryRaw<Array<TriviaStanding & { ahead: number; total: number }>>`
    WITH scores AS MATERIALIZED (${scoresSelect(scope)}),
    page AS (SELECT * FROM scores ORDER BY ${by} LIMIT ${take} OFFSET ${skip}),
    head AS (SELECT * FROM page ORDER BY ${by} LIMIT 1)
    SELECT page.*, (SELECT CAST(COUNT(*) AS INTEGER) FROM scores s, head WHERE ${ahead('head', scope)}) AS "ahead",
      (SELECT CAST(COUNT(*) AS INTEGER) FROM scores) AS "total"
    FROM page ORDER BY ${by}`;
  if (rows.length === 0) {
    // Past the end: only the total is asked.
    const [count] = await prisma.$queryRaw<
      Array<{ total: number }>
    >`SELECT CAST(COUNT(*) AS INTEGER) AS "total" FROM (${scoresSelect(scope)}) scores`;
    return { total: Number(count.total), entries: [] };
  }
  // The first row's position is one more than how many rank ahead of it; each next row shares its predecessor's
  // when tied, else its position is its place in the order.
  const entries: RankedTriviaStanding[] = [];
  rows.map(plain).forEach((row, i) => {
    const position =
      i === 0
        ? Number(rows[0].ahead) + 1
        : tied(asStanding(entries[i - 1]), asStanding(row), rule)
          ? entries[i - 1].position
          : skip + i + 1;
    entries.push({ ...row, position });
  });
  return { total: Number(rows[0].total), entries };
}

/** The user's standing and RANK() position; null when the user is not ranked. */
export async function triviaRankingOf(
  prisma: Db,
  scope: TriviaRankingScope,
  userId: number,
): Promise<RankedTriviaStanding | null> {
  const rows = await prisma.$queryRaw<Array<TriviaStanding & { ahead: number }>>`
    WITH scores AS (${scoresSelect(scope)})
    SELECT mine.*, (SELECT CAST(COUNT(*) AS INTEGER) FROM scores s WHERE ${ahead('mine', scope)}) AS "ahead"
    FROM scores mine WHERE mine."userId" = ${userId}`;
  return rows[0] ? { ...plain(rows[0]), position: Number(rows[0].ahead) + 1 } : null;
}
