-- CreateIndex
CREATE INDEX "TournamentStanding_players_count_idx" ON "TournamentStanding"("tournamentId", "companyId");
