// Keeps TournamentStanding (a user's scored points, exact and outcome hits, plus dream-final and bonus-question
// points in one tournament) in step with the predictions. Rescoring moves the standings of the predictions it
// rescores by the difference (moveStandings) and refreshes whoever had none; a refresh recomputes a user's row
// from everything they have (delete-and-insert keeps the SQL the same on SQLite and PostgreSQL); a full rebuild
// is for data written around it (a migration, the benchmark generator). A row carries its user's name and whether
// they are deleted, for the ranking order: written here, kept by a trigger on "User" after.
import { Prisma, sumInHundredths } from '../db/sql.ts';
import type { Tx } from '../db/client.ts';
import type { KindChange } from '../domain/rescore-plan.ts';
import { kindsAndPredictions, OF_KIND } from './rescore-sql.ts';

const CHUNK = 5000;

function insertFor(tournamentId: number, users: Prisma.Sql) {
  return Prisma.sql`
    INSERT INTO "TournamentStanding" ("tournamentId", "userId", "companyId", "name", "active", "points", "exactHits",
      "outcomeHits")
    SELECT ${tournamentId}, u."id", u."companyId", u."name", u."deletedAt" IS NULL,
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
    GROUP BY u."id", u."companyId", u."name", u."deletedAt"`;
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

/**
 * Before their predictions take a new score: adds to each standing what the player's predictions of these kinds
 * add now less what they added before. A sum kept to hundredths moved by a difference of hundredths is the sum
 * a refresh would make. Standings not there yet are left to refreshStandings (usersWithoutStanding).
 */
export async function moveStandings(
  tx: Tx,
  changes: KindChange[],
  tournamentOf: (matchId: number) => number,
): Promise<void> {
  const moving = changes.filter((c) => c.standing.points !== 0 || c.standing.exactHits || c.standing.outcomeHits);
  if (moving.length === 0) return;
  await tx.$executeRaw`
    WITH ${kindsAndPredictions(moving, tournamentOf)},
    d AS (SELECT pk."userId" AS "userId", v."tournamentId" AS "tournamentId", SUM(v."pointsDelta") AS "points",
        SUM(v."exactHitsDelta") AS "exactHits", SUM(v."outcomeHitsDelta") AS "outcomeHits"
      FROM pk JOIN v ON ${OF_KIND}
      GROUP BY pk."userId", v."tournamentId")
    UPDATE "TournamentStanding" SET
      "points" = ${sumInHundredths(Prisma.sql`"TournamentStanding"."points" + d."points"`)},
      "exactHits" = "TournamentStanding"."exactHits" + d."exactHits",
      "outcomeHits" = "TournamentStanding"."outcomeHits" + d."outcomeHits"
    FROM d WHERE "TournamentStanding"."tournamentId" = d."tournamentId" AND "TournamentStanding"."userId" = d."userId"`;
}

/** The matches' scored predictors (of one company, if given) without a standing in the match's tournament. */
export async function usersWithoutStanding(
  tx: Tx,
  matchIds: number[],
  companyId?: number,
): Promise<Array<{ tournamentId: number; userIds: number[] }>> {
  const company =
    companyId === undefined
      ? Prisma.empty
      : Prisma.sql`AND p."userId" IN (SELECT u."id" FROM "User" u WHERE u."companyId" = ${companyId})`;
  const rows = await tx.$queryRaw<Array<{ tournamentId: number; userId: number }>>`
    SELECT DISTINCT m."tournamentId" AS "tournamentId", p."userId" AS "userId"
    FROM "Match" m JOIN "Prediction" p ON p."matchId" = m."id"
    WHERE m."id" IN (${Prisma.join(matchIds)}) AND p."status" = 'SCORED' ${company}
      AND NOT EXISTS (SELECT 1 FROM "TournamentStanding" s WHERE s."tournamentId" = m."tournamentId"
        AND s."userId" = p."userId")`;
  const byTournament = new Map<number, number[]>();
  for (const r of rows) {
    const t = Number(r.tournamentId);
    const users = byTournament.get(t) ?? [];
    users.push(Number(r.userId));
    byTournament.set(t, users);
  }
  return [...byTournament].map(([tournamentId, userIds]) => ({ tournamentId, userIds }));
}
