-- The ROUND_WINS tie rule's key, kept on the standing (src/game/round-wins.ts) and read along its own index. The
-- existing standings get their round wins from the data step that follows this migration (src/bootstrap/migrate.ts):
-- one set-based UPDATE per tournament.
-- AlterTable
ALTER TABLE "TournamentStanding" ADD COLUMN     "roundWins" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "TournamentStanding_round_wins_order_idx" ON "TournamentStanding"("tournamentId", "companyId", "active", "points" DESC, "roundWins" DESC, "name", "userId");

-- Of two indexes that serve a statement equally well the planner may take either: the POINTS rule's index is made
-- again after this one, as on SQLite, so its counts keep reading the narrower index.
DROP INDEX "TournamentStanding_points_order_idx";
CREATE INDEX "TournamentStanding_points_order_idx" ON "TournamentStanding"("tournamentId", "companyId", "active", "points" DESC, "name", "userId");
