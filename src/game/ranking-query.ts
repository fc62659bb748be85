// Rankings computed by the database: one aggregate over the company's users and the tournament's scored
// predictions (plus dream-finals points in the general ranking), paged with LIMIT/OFFSET and numbered as
// RANK() would (ties share a position: 1, 2, 2, 4) from counts, so a page of a 100,000-user ranking never
// brings the users into the process and never sorts more than the page needs.
// Plain SQL that SQLite and PostgreSQL both run; integers are cast because PostgreSQL sums to bigint.
import { Prisma } from '../generated/sqlite/client.ts';
import type { Db } from '../db/client.ts';
import { tied, type RankedStanding, type Standing } from './rankings.ts';

export interface RankingScope {
  companyId: number;
  tournamentId: number;
  /** One round, or several (a combined-rounds ranking). */
  roundIds?: number[] | null;
  areaId?: number | null;
  /** Only the members of this private league. */
  internalRankingId?: number | null;
}

/** Every ranked user of the scope with their points, exact hits and outcome hits (one row per user). */
function scoresSql(scope: RankingScope) {
  const byRound = scope.roundIds != null && scope.roundIds.length > 0;
  const round = byRound ? Prisma.sql`AND m."roundId" IN (${Prisma.join(scope.roundIds!)})` : Prisma.empty;
  const league = scope.internalRankingId != null
    ? Prisma.sql`AND u."id" IN (SELECT mb."userId" FROM "InternalRankingMembership" mb WHERE mb."rankingId" = ${scope.internalRankingId})`
    : Prisma.empty;
  const area = scope.areaId != null
    ? Prisma.sql`AND (u."areaLevel1Id" = ${scope.areaId} OR u."areaLevel2Id" = ${scope.areaId} OR u."areaLevel3Id" = ${scope.areaId})`
    : Prisma.empty;
  // The general ranking reads the kept standings (one row per user, dream-final points included); a ranking
  // of some rounds aggregates those rounds' scored predictions.
  const scores = byRound
    ? Prisma.sql`
      SELECT u."id" AS "userId", u."name" AS "name",
        CAST(COALESCE(SUM(p."points"), 0) AS INTEGER) AS "points",
        CAST(COALESCE(SUM(CASE WHEN p."exactHit" THEN 1 ELSE 0 END), 0) AS INTEGER) AS "exactHits",
        CAST(COALESCE(SUM(CASE WHEN p."outcomeHit" THEN 1 ELSE 0 END), 0) AS INTEGER) AS "outcomeHits"
      FROM "User" u
      LEFT JOIN "Prediction" p ON p."userId" = u."id" AND p."status" = 'SCORED'
        AND p."matchId" IN (SELECT m."id" FROM "Match" m WHERE m."tournamentId" = ${scope.tournamentId} ${round})
      WHERE u."companyId" = ${scope.companyId} AND u."deletedAt" IS NULL ${area} ${league}
      GROUP BY u."id", u."name"`
    : Prisma.sql`
      SELECT u."id" AS "userId", u."name" AS "name",
        COALESCE(s."points", 0) AS "points", COALESCE(s."exactHits", 0) AS "exactHits", COALESCE(s."outcomeHits", 0) AS "outcomeHits"
      FROM "User" u
      LEFT JOIN "TournamentStanding" s ON s."userId" = u."id" AND s."tournamentId" = ${scope.tournamentId}
      WHERE u."companyId" = ${scope.companyId} AND u."deletedAt" IS NULL ${area} ${league}`;
  return Prisma.sql`WITH scores AS (${scores})`;
}

/** SQL: the row `s` of scores ranks strictly ahead of these points, exact hits and outcome hits. */
function ahead(t: Pick<Standing, 'points' | 'exactHits' | 'outcomeHits'>) {
  return Prisma.sql`(s."points" > ${t.points} OR (s."points" = ${t.points} AND (s."exactHits" > ${t.exactHits}
    OR (s."exactHits" = ${t.exactHits} AND s."outcomeHits" > ${t.outcomeHits}))))`;
}

const plain = (r: Standing): Standing => ({
  userId: Number(r.userId), name: r.name, points: Number(r.points), exactHits: Number(r.exactHits), outcomeHits: Number(r.outcomeHits),
});

/**
 * A page in ranking order with RANK() positions, without ranking everyone: the page is a top-N sort, and one
 * counting pass gives the total and how many rank ahead of the page's first row. That row's position is one
 * more; each next row shares its predecessor's position when tied, else its position is its place in the order
 * (everyone before it ranks strictly ahead).
 */
export async function rankingPage(prisma: Db, scope: RankingScope, skip: number, take: number): Promise<{ total: number; entries: RankedStanding[] }> {
  const rows = (await prisma.$queryRaw<Standing[]>`${scoresSql(scope)}
    SELECT * FROM scores ORDER BY "points" DESC, "exactHits" DESC, "outcomeHits" DESC, "name", "userId" LIMIT ${take} OFFSET ${skip}`).map(plain);
  const first = rows[0];
  const [count] = await prisma.$queryRaw<Array<{ total: number; ahead: number }>>`${scoresSql(scope)}
    SELECT CAST(COUNT(*) AS INTEGER) AS "total",
      CAST(COALESCE(SUM(CASE WHEN ${first ? ahead(first) : Prisma.sql`1 = 0`} THEN 1 ELSE 0 END), 0) AS INTEGER) AS "ahead"
    FROM scores s`;
  const entries: RankedStanding[] = [];
  rows.forEach((row, i) => {
    const position = i === 0 ? Number(count.ahead) + 1 : tied(rows[i - 1], row) ? entries[i - 1].position : skip + i + 1;
    entries.push({ ...row, position });
  });
  return { total: Number(count.total), entries };
}

/** The user's standing and RANK() position: one pass counting who ranks strictly ahead. */
export async function rankingOf(prisma: Db, scope: RankingScope, userId: number): Promise<RankedStanding | null> {
  const rows = await prisma.$queryRaw<Array<Standing & { ahead: number }>>`${scoresSql(scope)}
    SELECT mine.*, (SELECT CAST(COUNT(*) AS INTEGER) FROM scores s
      WHERE s."points" > mine."points" OR (s."points" = mine."points" AND (s."exactHits" > mine."exactHits"
        OR (s."exactHits" = mine."exactHits" AND s."outcomeHits" > mine."outcomeHits")))) AS "ahead"
    FROM scores mine WHERE mine."userId" = ${userId}`;
  return rows[0] ? { ...plain(rows[0]), position: Number(rows[0].ahead) + 1 } : null;
}
