-- AlterTable
ALTER TABLE "Match" ADD COLUMN     "awayTeamExtraTimeGoals" INTEGER,
ADD COLUMN     "awayTeamFullTimeGoals" INTEGER,
ADD COLUMN     "homeTeamExtraTimeGoals" INTEGER,
ADD COLUMN     "homeTeamFullTimeGoals" INTEGER;

-- AlterTable
ALTER TABLE "TournamentStanding" ALTER COLUMN "points" SET DEFAULT 0,
ALTER COLUMN "points" SET DATA TYPE DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Prediction" ADD COLUMN     "isJoker" BOOLEAN NOT NULL DEFAULT false,
ALTER COLUMN "points" SET DATA TYPE DOUBLE PRECISION;

-- Results stored before this migration kept one score, which becomes the 90-minute score too (whether extra time
-- was played was not recorded). Importing the tournament file again fills in the extra time.
UPDATE "Match" SET "homeTeamFullTimeGoals" = "homeTeamGoals", "awayTeamFullTimeGoals" = "awayTeamGoals"
WHERE "homeTeamGoals" IS NOT NULL;
