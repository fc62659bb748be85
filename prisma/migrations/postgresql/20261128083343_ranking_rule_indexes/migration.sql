-- CreateIndex
CREATE INDEX "TournamentStanding_points_order_idx" ON "TournamentStanding"("tournamentId", "companyId", "active", "points" DESC, "name", "userId");
