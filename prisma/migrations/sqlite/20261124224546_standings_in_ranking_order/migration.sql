-- A page of the general ranking at any offset is read along one index in ranking order (src/game/ranking-query.ts):
-- the standing carries the user's name and whether they are deleted, copied by a trigger on "User" whoever writes
-- it (the API, the importer, an operator's SQL).
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_TournamentStanding" (
    "tournamentId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "companyId" INTEGER NOT NULL,
    "points" REAL NOT NULL DEFAULT 0,
    "exactHits" INTEGER NOT NULL DEFAULT 0,
    "outcomeHits" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL DEFAULT '',
    "active" BOOLEAN NOT NULL DEFAULT true,

    PRIMARY KEY ("tournamentId", "userId"),
    CONSTRAINT "TournamentStanding_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TournamentStanding_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_TournamentStanding" ("companyId", "exactHits", "outcomeHits", "points", "tournamentId", "userId") SELECT "companyId", "exactHits", "outcomeHits", "points", "tournamentId", "userId" FROM "TournamentStanding";
DROP TABLE "TournamentStanding";
ALTER TABLE "new_TournamentStanding" RENAME TO "TournamentStanding";
CREATE INDEX "TournamentStanding_ranking_order_idx" ON "TournamentStanding"("tournamentId", "companyId", "active", "points" DESC, "exactHits" DESC, "outcomeHits" DESC, "name", "userId");
CREATE INDEX "TournamentStanding_userId_idx" ON "TournamentStanding"("userId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


UPDATE "TournamentStanding" SET
  "name" = (SELECT u."name" FROM "User" u WHERE u."id" = "TournamentStanding"."userId"),
  "active" = (SELECT u."deletedAt" IS NULL FROM "User" u WHERE u."id" = "TournamentStanding"."userId");

CREATE TRIGGER "_prode_user_in_standings" AFTER UPDATE OF "name", "deletedAt" ON "User"
WHEN OLD."name" IS NOT NEW."name" OR OLD."deletedAt" IS NOT NEW."deletedAt"
BEGIN
    UPDATE "TournamentStanding" SET "name" = NEW."name", "active" = (NEW."deletedAt" IS NULL)
    WHERE "userId" = NEW."id";
END;

-- The response cache's data version counts writes to every table (src/db/data-version.ts)

CREATE TRIGGER "_prode_tv_TournamentStanding_insert" AFTER INSERT ON "TournamentStanding" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TournamentStanding', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TournamentStanding_update" AFTER UPDATE ON "TournamentStanding" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TournamentStanding', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_TournamentStanding_delete" AFTER DELETE ON "TournamentStanding" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('TournamentStanding', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;
