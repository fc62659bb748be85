// The SQL the rescoring joins predictions to their kinds with (src/domain/rescore-plan.ts decides the kinds). A
// prediction is of a kind when every column scoring reads and every column of its stored score are equal:
// equality only, so no scoring rule is written here. Plain SQL that SQLite and PostgreSQL both run: enums and
// booleans are compared as text and 0/1, and every value is cast so PostgreSQL types the VALUES list.
import { Prisma } from '../db/sql.ts';
import type { KindChange } from '../domain/rescore-plan.ts';

/** 17 values a kind: under both databases' limits on bound values per statement. */
export const KINDS_PER_STATEMENT = 1000;

const int = (v: number) => Prisma.sql`CAST(${v} AS INTEGER)`;
const real = (v: number | null) => Prisma.sql`CAST(${v} AS DOUBLE PRECISION)`;
const text = (v: string | null) => Prisma.sql`CAST(${v} AS TEXT)`;
const bit = (v: boolean) => int(v ? 1 : 0);

/**
 * For a WITH: `v`, one row per kind (its key, its new score, what it moves a standing by), and `pk`, the kinds'
 * matches' predictions with their key columns as v has them (and `userColumns` of their user). pk is
 * materialised so both databases walk the matches' predictions once along their index and join the few kinds to
 * them, rather than each kind to every user of its company (PostgreSQL's choice when it sees a short VALUES list).
 */
export function kindsAndPredictions(
  changes: KindChange[],
  tournamentOf?: (matchId: number) => number,
  userColumns: Prisma.Sql = Prisma.empty,
): Prisma.Sql {
  const rows = changes.map(({ kind: k, score: s, standing: d }) => {
    const cells = [
      int(k.companyId),
      int(k.matchId),
      int(k.homeTeamGoals),
      int(k.awayTeamGoals),
      text(k.penaltiesWinner ?? ''),
      bit(k.isJoker),
      text(k.status),
      real(k.points ?? -1),
      bit(k.exactHit),
      bit(k.outcomeHit),
      real(s.points),
      bit(s.exactHit),
      bit(s.outcomeHit),
      real(d.points),
      int(d.exactHits),
      int(d.outcomeHits),
      int(tournamentOf ? tournamentOf(k.matchId) : 0),
    ];
    return Prisma.sql`(${Prisma.join(cells)})`;
  });
  const matchIds = [...new Set(changes.map((c) => c.kind.matchId))];
  return Prisma.sql`v ("companyId", "matchId", "homeTeamGoals", "awayTeamGoals", "penaltiesWinner", "isJoker",
      "status", "points", "exactHit", "outcomeHit", "newPoints", "newExactHit", "newOutcomeHit", "pointsDelta",
      "exactHitsDelta", "outcomeHitsDelta", "tournamentId") AS (VALUES ${Prisma.join(rows)}),
    pk AS MATERIALIZED (
      SELECT p."id" AS "id", p."userId" AS "userId", u."companyId" AS "companyId", p."matchId" AS "matchId",
        p."homeTeamGoals" AS "homeTeamGoals", p."awayTeamGoals" AS "awayTeamGoals",
        COALESCE(CAST(p."penaltiesWinner" AS TEXT), '') AS "penaltiesWinner",
        CASE WHEN p."isJoker" THEN 1 ELSE 0 END AS "isJoker", CAST(p."status" AS TEXT) AS "status",
        COALESCE(p."points", -1) AS "points", CASE WHEN p."exactHit" THEN 1 ELSE 0 END AS "exactHit",
        CASE WHEN p."outcomeHit" THEN 1 ELSE 0 END AS "outcomeHit" ${userColumns}
      FROM "Prediction" p JOIN "User" u ON u."id" = p."userId" WHERE p."matchId" IN (${Prisma.join(matchIds)}))`;
}

/**
 * SQL: prediction `pk` is of kind `v` (every key column equal; a missing shoot-out winner is '' and missing points
 * -1 on both sides, so the comparisons are plain equalities a hash join can use).
 */
export const OF_KIND = Prisma.sql`pk."matchId" = v."matchId" AND pk."companyId" = v."companyId"
  AND pk."homeTeamGoals" = v."homeTeamGoals" AND pk."awayTeamGoals" = v."awayTeamGoals"
  AND pk."penaltiesWinner" = v."penaltiesWinner" AND pk."isJoker" = v."isJoker" AND pk."status" = v."status"
  AND pk."points" = v."points" AND pk."exactHit" = v."exactHit" AND pk."outcomeHit" = v."outcomeHit"`;
