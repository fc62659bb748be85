// Rankings computed by the database: one aggregate over the company's users and the tournament's scored
// predictions (plus dream-finals points in the general ranking), ranked with RANK() and paged with
// LIMIT/OFFSET, so a page of a 100,000-user ranking never brings the users into the process.
// Plain SQL that SQLite and PostgreSQL both run; integers are cast because PostgreSQL sums to bigint.
import { Prisma } from '../generated/sqlite/client.ts';
import type { Db } from '../db/client.ts';
import type { RankedStanding } from './rankings.ts';

export interface RankingScope {
  companyId: number;
  tournamentId: number;
  /** One round, or several (a combined-rounds ranking). */
  roundIds?: number[] | null;
  areaId?: number | null;
  /** Only the members of this private league. */
  internalRankingId?: number | null;
}

function scoresCte(scope: RankingScope) {
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
  return Prisma.sql`
    WITH scores AS (${scores}),
    ranked AS (
      SELECT "userId", "name", "points", "exactHits", "outcomeHits",
        CAST(RANK() OVER (ORDER BY "points" DESC, "exactHits" DESC, "outcomeHits" DESC) AS INTEGER) AS "position",
        CAST(COUNT(*) OVER () AS INTEGER) AS "total"
      FROM scores
    )`;
}

type Row = RankedStanding & { total: number };
const plain = (r: Row): RankedStanding => ({
  userId: Number(r.userId), name: r.name, points: Number(r.points), exactHits: Number(r.exactHits), outcomeHits: Number(r.outcomeHits), position: Number(r.position),
});

export async function rankingPage(prisma: Db, scope: RankingScope, skip: number, take: number): Promise<{ total: number; entries: RankedStanding[] }> {
  const rows = await prisma.$queryRaw<Row[]>`${scoresCte(scope)}
    SELECT * FROM ranked ORDER BY "position", "name", "userId" LIMIT ${take} OFFSET ${skip}`;
  if (rows.length > 0) return { total: Number(rows[0].total), entries: rows.map(plain) };
  const [count] = await prisma.$queryRaw<Array<{ total: number }>>`
    SELECT CAST(COUNT(*) AS INTEGER) AS "total" FROM "User" u WHERE u."companyId" = ${scope.companyId} AND u."deletedAt" IS NULL
    ${scope.areaId != null ? Prisma.sql`AND (u."areaLevel1Id" = ${scope.areaId} OR u."areaLevel2Id" = ${scope.areaId} OR u."areaLevel3Id" = ${scope.areaId})` : Prisma.empty}
    ${scope.internalRankingId != null ? Prisma.sql`AND u."id" IN (SELECT mb."userId" FROM "InternalRankingMembership" mb WHERE mb."rankingId" = ${scope.internalRankingId})` : Prisma.empty}`;
  return { total: Number(count.total), entries: [] };
}

export async function rankingOf(prisma: Db, scope: RankingScope, userId: number): Promise<RankedStanding | null> {
  const rows = await prisma.$queryRaw<Row[]>`${scoresCte(scope)} SELECT * FROM ranked WHERE "userId" = ${userId}`;
  return rows[0] ? plain(rows[0]) : null;
}
