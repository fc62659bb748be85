-- A page of the general ranking at any offset is read along one index in ranking order (src/game/ranking-query.ts):
-- the standing carries the user's name and whether they are deleted, copied by a trigger on "User" whoever writes
-- it (the API, the importer, an operator's SQL). The PL/pgSQL body is an E'' string that writes its semicolons as
-- \073 (Prisma's adapter splits a migration at every semicolon).
-- DropIndex
DROP INDEX "TournamentStanding_tournamentId_companyId_points_exactHits__idx";

-- AlterTable
ALTER TABLE "TournamentStanding" ADD COLUMN     "active" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "name" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "TournamentStanding_ranking_order_idx" ON "TournamentStanding"("tournamentId", "companyId", "active", "points" DESC, "exactHits" DESC, "outcomeHits" DESC, "name", "userId");

UPDATE "TournamentStanding" s SET "name" = u."name", "active" = u."deletedAt" IS NULL
FROM "User" u WHERE u."id" = s."userId";

CREATE FUNCTION prode_meta.copy_user_to_standings() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE "TournamentStanding" SET "name" = NEW."name", "active" = NEW."deletedAt" IS NULL
  WHERE "userId" = NEW."id"\073
  RETURN NULL\073
END';

CREATE TRIGGER prode_user_in_standings AFTER UPDATE OF "name", "deletedAt" ON "User"
FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."deletedAt" IS DISTINCT FROM NEW."deletedAt")
EXECUTE FUNCTION prode_meta.copy_user_to_standings();

-- Like the write-count triggers: it fires for replication-role sessions too (a restore, a logical replica).
ALTER TABLE "User" ENABLE ALWAYS TRIGGER prode_user_in_standings;
