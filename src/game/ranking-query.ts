// Rankings computed by the database: one aggregate over the company's users and the tournament's scored
// predictions (plus dream-finals points in the general ranking), paged with LIMIT/OFFSET and numbered as
// RANK() would (ties share a position: 1, 2, 2, 4) from counts, so a page of a 100,000-user ranking never
// brings the users into the process and never sorts more than the page needs.
// Plain SQL that SQLite and PostgreSQL both run; integers are cast because PostgreSQL sums to bigint.
import { Prisma, sumInHundredths } from '../db/sql.ts';
import type { Db } from '../db/client.ts';
import { tied, type RankedStanding, type Score, type Standing } from '../domain/rankings.ts';
import type { TieRule } from '../domain/scoring-settings.ts';

export interface RankingScope {
  companyId: number;
  tournamentId: number;
  /** One round, or several (a combined-rounds ranking). */
  roundIds?: number[] | null;
  areaId?: number | null;
  /** Only the members of this private league. */
  internalRankingId?: number | null;
  /** The company's tie rule and who is ranked (scoringSettings); the defaults when left out. */
  rules?: RankingRules;
}

export interface RankingRules {
  tieRule: TieRule;
  rankAdmins: boolean;
  rankNonPlayers: boolean;
}

const DEFAULT_RULES: RankingRules = { tieRule: 'HITS', rankAdmins: true, rankNonPlayers: true };
const rulesOf = (scope: RankingScope) => scope.rules ?? DEFAULT_RULES;

/** SQL: the conditions on `u` (a "User") for being ranked in the scope. */
function membersOf(scope: RankingScope) {
  const rules = rulesOf(scope);
  const league =
    scope.internalRankingId != null
      ? Prisma.sql`AND u."id" IN (SELECT mb."userId" FROM "InternalRankingMembership" mb WHERE mb."rankingId" =
        ${scope.internalRankingId})`
      : Prisma.empty;
  const area =
    scope.areaId != null
      ? Prisma.sql`AND (u."areaLevel1Id" = ${scope.areaId} OR u."areaLevel2Id" = ${scope.areaId} OR u."areaLevel3Id" =
        ${scope.areaId})`
      : Prisma.empty;
  const role = rules.rankAdmins ? Prisma.empty : Prisma.sql`AND u."role" = 'player'`;
  // Playing: a prediction on one of the tournament's matches, dream-final picks or a bonus answer in it.
  const played = rules.rankNonPlayers
    ? Prisma.empty
    : Prisma.sql`AND (EXISTS (SELECT 1 FROM "Prediction" pp WHERE pp."userId" = u."id" AND pp."matchId" IN
          (SELECT mm."id" FROM "Match" mm WHERE mm."tournamentId" = ${scope.tournamentId}))
        OR EXISTS (SELECT 1 FROM "DreamFinalPick" dp JOIN "DreamFinalsSetting" ds ON ds."id" = dp."settingId"
          WHERE dp."userId" = u."id" AND ds."tournamentId" = ${scope.tournamentId})
        OR EXISTS (SELECT 1 FROM "BonusAnswer" ba JOIN "BonusQuestion" bq ON bq."id" = ba."questionId"
          WHERE ba."userId" = u."id" AND bq."tournamentId" = ${scope.tournamentId}))`;
  return Prisma.sql`u."companyId" = ${scope.companyId} AND u."deletedAt" IS NULL ${area} ${league} ${role} ${played}`;
}

/** Every ranked user of the scope with their points, exact hits, outcome hits and round wins (one row each). */
function scoresSelect(scope: RankingScope) {
  const byRound = scope.roundIds != null && scope.roundIds.length > 0;
  const round = byRound ? Prisma.sql`AND m."roundId" IN (${Prisma.join(scope.roundIds!)})` : Prisma.empty;
  const members = membersOf(scope);
  // The general ranking reads the kept standings (one row per user, dream-final points included); a ranking
  // of some rounds aggregates those rounds' scored predictions.
  const scores = byRound
    ? Prisma.sql`
      SELECT u."id" AS "userId", u."name" AS "name",
        ${sumInHundredths(Prisma.sql`SUM(p."points")`)} AS "points",
        CAST(COALESCE(SUM(CASE WHEN p."exactHit" THEN 1 ELSE 0 END), 0) AS INTEGER) AS "exactHits",
        CAST(COALESCE(SUM(CASE WHEN p."outcomeHit" THEN 1 ELSE 0 END), 0) AS INTEGER) AS "outcomeHits"
      FROM "User" u
      LEFT JOIN "Prediction" p ON p."userId" = u."id" AND p."status" = 'SCORED'
        AND p."matchId" IN (SELECT m."id" FROM "Match" m WHERE m."tournamentId" = ${scope.tournamentId} ${round})
      WHERE ${members}
      GROUP BY u."id", u."name"`
    : Prisma.sql`
      SELECT u."id" AS "userId", u."name" AS "name",
        COALESCE(s."points", 0) AS "points", COALESCE(s."exactHits", 0) AS "exactHits", COALESCE(s."outcomeHits", 0)
          AS "outcomeHits"
      FROM "User" u
      LEFT JOIN "TournamentStanding" s ON s."userId" = u."id" AND s."tournamentId" = ${scope.tournamentId}
      WHERE ${members}`;
  if (rulesOf(scope).tieRule !== 'ROUND_WINS') return Prisma.sql`SELECT base.*, 0 AS "roundWins" FROM (${scores}) base`;
  // A round is won by the ranked people with its most points (more than 0), each of them when level.
  return Prisma.sql`
    WITH rp AS (
      SELECT p."userId" AS "userId", m."roundId" AS "roundId",
        ${sumInHundredths(Prisma.sql`SUM(p."points")`)} AS "points"
      FROM "Prediction" p JOIN "Match" m ON m."id" = p."matchId" JOIN "User" u ON u."id" = p."userId"
      WHERE p."status" = 'SCORED' AND m."tournamentId" = ${scope.tournamentId} ${round} AND ${members}
      GROUP BY p."userId", m."roundId"),
    best AS (SELECT "roundId", MAX("points") AS "points" FROM rp GROUP BY "roundId"),
    wins AS (
      SELECT rp."userId" AS "userId", COUNT(*) AS "roundWins" FROM rp JOIN best ON best."roundId" = rp."roundId"
      WHERE rp."points" = best."points" AND best."points" > 0 GROUP BY rp."userId")
    SELECT base.*, CAST(COALESCE(wins."roundWins", 0) AS INTEGER) AS "roundWins"
    FROM (${scores}) base LEFT JOIN wins ON wins."userId" = base."userId"`;
}

/** SQL: the row `s` ranks strictly ahead of the row named `other` (an alias written in this file). */
function ahead(other: string, rule: TieRule = 'HITS') {
  const [p, e, o, w] = ['points', 'exactHits', 'outcomeHits', 'roundWins'].map((c) => Prisma.raw(`${other}."${c}"`));
  if (rule === 'POINTS') return Prisma.sql`(s."points" > ${p})`;
  if (rule === 'ROUND_WINS') return Prisma.sql`(s."points" > ${p} OR (s."points" = ${p} AND s."roundWins" > ${w}))`;
  return Prisma.sql`(s."points" > ${p} OR (s."points" = ${p} AND (s."exactHits" > ${e} OR (s."exactHits" = ${e} AND
    s."outcomeHits" > ${o}))))`;
}

/** SQL: ranking order under the tie rule, then by name. */
function order(rule: TieRule) {
  if (rule === 'POINTS') return Prisma.raw(`"points" DESC, "name", "userId"`);
  if (rule === 'ROUND_WINS') return Prisma.raw(`"points" DESC, "roundWins" DESC, "name", "userId"`);
  return Prisma.raw(`"points" DESC, "exactHits" DESC, "outcomeHits" DESC, "name", "userId"`);
}

const plain = (r: Standing): Standing => ({
  userId: Number(r.userId),
  name: r.name,
  points: Number(r.points),
  exactHits: Number(r.exactHits),
  outcomeHits: Number(r.outcomeHits),
  ...(r.roundWins === undefined ? {} : { roundWins: Number(r.roundWins) }),
});

const isZero = (t: Score) => t.points === 0 && t.exactHits === 0 && t.outcomeHits === 0;

/**
 * The general ranking (every user of the company, the kept standings, default tie rule): the case the standings
 * index serves.
 */
const isGeneral = (scope: RankingScope) => {
  const rules = rulesOf(scope);
  return (
    (scope.roundIds == null || scope.roundIds.length === 0) &&
    scope.areaId == null &&
    scope.internalRankingId == null &&
    rules.tieRule === 'HITS' &&
    rules.rankAdmins &&
    rules.rankNonPlayers
  );
};

/**
 * SQL: how many of the company's active users rank strictly ahead of these points, exact hits and outcome hits
 * in the general ranking. Only users with a standing row can rank ahead of anyone (the others have nothing), so
 * it counts the active standing rows over a range of the ranking-order index.
 */
function aheadInStandings(scope: RankingScope, other: string) {
  return Prisma.sql`(SELECT COUNT(*) FROM "TournamentStanding" s
      WHERE s."tournamentId" = ${scope.tournamentId} AND s."companyId" = ${scope.companyId} AND s."active" = TRUE
        AND ${ahead(other)})`;
}

/**
 * A page of the general ranking: a walk along the ranking-order index of the standings, which carry the name
 * and deletion of their user, so no user is joined or sorted. Users without a standing row rank below everyone
 * with points or hits, so when the page lies among those (it is full and its last row has points or hits) it is
 * the ranking's page. Otherwise (the tail, or a tournament where nobody has scored yet) null, and the caller
 * ranks the scores instead.
 */
async function generalPageFromStandings(
  prisma: Db,
  scope: RankingScope,
  skip: number,
  take: number,
): Promise<{ total: number; entries: RankedStanding[] } | null> {
  // One statement, so the page, the total and the positions come from one state of the database.
  const rows = await prisma.$queryRaw<Array<Standing & { ahead: number; total: number }>>`
    WITH page AS MATERIALIZED (
      SELECT s."userId" AS "userId", s."name" AS "name", s."points" AS "points", s."exactHits" AS "exactHits",
        s."outcomeHits" AS "outcomeHits"
      FROM "TournamentStanding" s
      WHERE s."tournamentId" = ${scope.tournamentId} AND s."companyId" = ${scope.companyId} AND s."active" = TRUE
      ORDER BY s."points" DESC, s."exactHits" DESC, s."outcomeHits" DESC, s."name", s."userId" LIMIT ${take} OFFSET
        ${skip}),
    head AS (SELECT * FROM page ORDER BY "points" DESC, "exactHits" DESC, "outcomeHits" DESC, "name", "userId" LIMIT 1)
    SELECT page.*, (SELECT CAST(${aheadInStandings(scope, 'head')} AS INTEGER) FROM head) AS "ahead",
      CAST((SELECT COUNT(*) FROM "User" u WHERE u."companyId" = ${scope.companyId} AND u."deletedAt" IS NULL) AS
        INTEGER) AS "total"
    FROM page ORDER BY "points" DESC, "exactHits" DESC, "outcomeHits" DESC, "name", "userId"`;
  const page = rows.map(plain);
  if (page.length < take || isZero(page[page.length - 1])) return null;
  return { total: Number(rows[0].total), entries: numbered(page, Number(rows[0].ahead), skip) };
}

/** Positions as RANK() gives them, from how many rank ahead of the first row and the page's offset. */
function numbered(rows: Standing[], aheadOfFirst: number, skip: number, rule: TieRule = 'HITS'): RankedStanding[] {
  const entries: RankedStanding[] = [];
  rows.forEach((row, i) => {
    const position = i === 0 ? aheadOfFirst + 1 : tied(rows[i - 1], row, rule) ? entries[i - 1].position : skip + i + 1;
    entries.push({ ...row, position });
  });
  return entries;
}

/**
 * A page in ranking order with RANK() positions, without ranking everyone. The general ranking's pages come
 * from the standings index where they can (generalPageFromStandings); otherwise the page is a top-N sort of
 * the scores, which are counted for the total and for how many rank ahead of the page's first row. That row's
 * position is one more; each next row shares its predecessor's position when tied, else its position is its
 * place in the order (everyone before it ranks strictly ahead).
 */
export async function rankingPage(
  prisma: Db,
  scope: RankingScope,
  skip: number,
  take: number,
): Promise<{ total: number; entries: RankedStanding[] }> {
  if (isGeneral(scope) && take > 0) {
    const fast = await generalPageFromStandings(prisma, scope, skip, take);
    if (fast) return fast;
  }
  const rule = rulesOf(scope).tieRule;
  const by = order(rule);
  const shown = (r: Standing) => (rule === 'ROUND_WINS' ? plain(r) : { ...plain(r), roundWins: undefined });
  // One statement (the scores computed once), so the page, the total and the positions share one state.
  const rows = await prisma.$queryRaw<Array<Standing & { ahead: number; total: number }>>`
    WITH scores AS MATERIALIZED (${scoresSelect(scope)}),
    page AS (SELECT * FROM scores ORDER BY ${by} LIMIT ${take} OFFSET ${skip}),
    head AS (SELECT * FROM page ORDER BY ${by} LIMIT 1)
    SELECT page.*, (SELECT CAST(COUNT(*) AS INTEGER) FROM scores s, head WHERE ${ahead('head', rule)}) AS "ahead",
      (SELECT CAST(COUNT(*) AS INTEGER) FROM scores) AS "total"
    FROM page ORDER BY ${by}`;
  if (rows.length > 0)
    return { total: Number(rows[0].total), entries: numbered(rows.map(shown), Number(rows[0].ahead), skip, rule) };
  // Past the end: only the total is asked.
  const [count] = await prisma.$queryRaw<
    Array<{ total: number }>
  >`SELECT CAST(COUNT(*) AS INTEGER) AS "total" FROM (${scoresSelect(scope)}) scores`;
  return { total: Number(count.total), entries: [] };
}

/** The user's standing and RANK() position: one pass counting who ranks strictly ahead. */
export async function rankingOf(prisma: Db, scope: RankingScope, userId: number): Promise<RankedStanding | null> {
  if (isGeneral(scope)) {
    const rows = await prisma.$queryRaw<Array<Standing & { ahead: number }>>`
      SELECT mine.*, CAST(${aheadInStandings(scope, 'mine')} AS INTEGER) AS "ahead"
      FROM (SELECT u."id" AS "userId", u."name" AS "name", COALESCE(st."points", 0) AS "points",
          COALESCE(st."exactHits", 0) AS "exactHits", COALESCE(st."outcomeHits", 0) AS "outcomeHits"
        FROM "User" u LEFT JOIN "TournamentStanding" st ON st."userId" = u."id" AND st."tournamentId" =
          ${scope.tournamentId}
        WHERE u."id" = ${userId} AND u."companyId" = ${scope.companyId} AND u."deletedAt" IS NULL) mine`;
    return rows[0] ? { ...plain(rows[0]), position: Number(rows[0].ahead) + 1 } : null;
  }
  const rule = rulesOf(scope).tieRule;
  // The scores are read twice (the caller's row, who ranks ahead). Round wins are worth computing once; plain
  // scores SQLite filters to the caller's row faster when it may fold them into the query (bench:ranking).
  const materialized = Prisma.raw(rule === 'ROUND_WINS' ? 'MATERIALIZED' : '');
  const rows = await prisma.$queryRaw<Array<Standing & { ahead: number }>>`
    WITH scores AS ${materialized} (${scoresSelect(scope)})
    SELECT mine.*, (SELECT CAST(COUNT(*) AS INTEGER) FROM scores s WHERE ${ahead('mine', rule)}) AS "ahead"
    FROM scores mine WHERE mine."userId" = ${userId}`;
  if (!rows[0]) return null;
  const mine = plain(rows[0]);
  return {
    ...mine,
    roundWins: rule === 'ROUND_WINS' ? mine.roundWins : undefined,
    position: Number(rows[0].ahead) + 1,
  };
}
