-- AlterTable
ALTER TABLE "Match" ADD COLUMN "awayTeamExtraTimeGoals" INTEGER;
ALTER TABLE "Match" ADD COLUMN "awayTeamFullTimeGoals" INTEGER;
ALTER TABLE "Match" ADD COLUMN "homeTeamExtraTimeGoals" INTEGER;
ALTER TABLE "Match" ADD COLUMN "homeTeamFullTimeGoals" INTEGER;

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

    PRIMARY KEY ("tournamentId", "userId"),
    CONSTRAINT "TournamentStanding_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TournamentStanding_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_TournamentStanding" ("companyId", "exactHits", "outcomeHits", "points", "tournamentId", "userId") SELECT "companyId", "exactHits", "outcomeHits", "points", "tournamentId", "userId" FROM "TournamentStanding";
DROP TABLE "TournamentStanding";
ALTER TABLE "new_TournamentStanding" RENAME TO "TournamentStanding";
CREATE INDEX "TournamentStanding_tournamentId_companyId_points_exactHits_outcomeHits_idx" ON "TournamentStanding"("tournamentId", "companyId", "points", "exactHits", "outcomeHits");
CREATE INDEX "TournamentStanding_userId_idx" ON "TournamentStanding"("userId");
CREATE TABLE "new_Prediction" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "matchId" INTEGER NOT NULL,
    "homeTeamGoals" INTEGER NOT NULL,
    "awayTeamGoals" INTEGER NOT NULL,
    "penaltiesWinner" TEXT,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "points" REAL,
    "isJoker" BOOLEAN NOT NULL DEFAULT false,
    "exactHit" BOOLEAN NOT NULL DEFAULT false,
    "outcomeHit" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Prediction_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Prediction_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "Match" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Prediction" ("awayTeamGoals", "createdAt", "exactHit", "homeTeamGoals", "id", "matchId", "outcomeHit", "penaltiesWinner", "points", "status", "updatedAt", "userId") SELECT "awayTeamGoals", "createdAt", "exactHit", "homeTeamGoals", "id", "matchId", "outcomeHit", "penaltiesWinner", "points", "status", "updatedAt", "userId" FROM "Prediction";
DROP TABLE "Prediction";
ALTER TABLE "new_Prediction" RENAME TO "Prediction";
CREATE INDEX "Prediction_matchId_userId_idx" ON "Prediction"("matchId", "userId");
CREATE UNIQUE INDEX "Prediction_userId_matchId_key" ON "Prediction"("userId", "matchId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Results stored before this migration kept one score, which becomes the 90-minute score too (whether extra time
-- was played was not recorded). Importing the tournament file again fills in the extra time.
UPDATE "Match" SET "homeTeamFullTimeGoals" = "homeTeamGoals", "awayTeamFullTimeGoals" = "awayTeamGoals"
WHERE "homeTeamGoals" IS NOT NULL;
