// Keeps TournamentStanding (a user's scored points, exact and outcome hits, plus dream-final and bonus-question
// points in one tournament) in step with the predictions. Called by rescoring for the users it touched; a full rebuild
// for data written around it (a migration, the benchmark generator). Delete-and-insert keeps the SQL the
// same on SQLite and PostgreSQL.
import { Prisma, sumInHundredths } from '../db/sql.ts';
import type { Tx } from '../db/client.ts';

const CHUNK = 5000;

function insertFor(tournamentId: number, users: Prisma.Sql) {
  return Prisma.sql`
    INSERT INTO "TournamentStanding" ("tournamentId", "userId", "companyId", "points", "exactHits", "outcomeHits")
    SELECT ${tournamentId}, u."id", u."companyId",
      ${sumInHundredths(Prisma.sql`COALESCE(SUM(p."points"), 0) + COALESCE((SELECT SUM(dp."points")
        FROM "DreamFinalPick" dp JOIN "DreamFinalsSetting" ds ON ds."id" = dp."settingId"
        WHERE dp."userId" = u."id" AND ds."tournamentId" = ${tournamentId}), 0)
        + COALESCE((SELECT SUM(ba."points") FROM "BonusAnswer" ba JOIN "BonusQuestion" bq ON bq."id" = ba."questionId"
        WHERE ba."userId" = u."id" AND bq."tournamentId" = ${tournamentId}), 0)`)},
      CAST(COALESCE(SUM(CASE WHEN p."exactHit" THEN 1 ELSE 0 END), 0) AS INTEGER),
      CAST(COALESCE(SUM(CASE WHEN p."outcomeHit" THEN 1 ELSE 0 END), 0) AS INTEGER)
    FROM "User" u
    LEFT JOIN "Prediction" p ON p."userId" = u."id" AND p."status" = 'SCORED'
      AND p."matchId" IN (SELECT m."id" FROM "Match" m WHERE m."tournamentId" = ${tournamentId})
    WHERE u."id" IN (${users})
    GROUP BY u."id", u."companyId"`;
}

/** Recomputes the standings of these users in the tournament. */
export async function refreshStandings(tx: Tx, tournamentId: number, userIds: number[]): Promise<void> {
  const ids = [...new Set(userIds)];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = Prisma.join(ids.slice(i, i + CHUNK));
    await tx.$executeRaw`DELETE FROM "TournamentStanding" WHERE "tournamentId" = ${tournamentId} AND "userId" IN
      (${chunk})`;
    await tx.$executeRaw(insertFor(tournamentId, chunk));
  }
}

/** Rebuilds every standing of the tournaments (everyone who predicted or picked in them). */
export async function rebuildStandings(tx: Tx, tournamentIds: number[]): Promise<void> {
  for (const tournamentId of tournamentIds) {
    await tx.$executeRaw`DELETE FROM "TournamentStanding" WHERE "tournamentId" = ${tournamentId}`;
    await tx.$executeRaw(
      insertFor(
        tournamentId,
        Prisma.sql`
      SELECT p2."userId" FROM "Prediction" p2 JOIN "Match" m2 ON m2."id" = p2."matchId" WHERE m2."tournamentId" =
        ${tournamentId}
      UNION SELECT dp2."userId" FROM "DreamFinalPick" dp2 JOIN "DreamFinalsSetting" ds2 ON ds2."id" = dp2."settingId"
      WHERE ds2."tournamentId" = ${tournamentId}
      UNION SELECT ba2."userId" FROM "BonusAnswer" ba2 JOIN "BonusQuestion" bq2 ON bq2."id" = ba2."questionId"
      WHERE bq2."tournamentId" = ${tournamentId}`,
      ),
    );
  }
}
