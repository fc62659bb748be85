-- CreateTable
CREATE TABLE "TournamentStanding" (
    "tournamentId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "companyId" INTEGER NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "exactHits" INTEGER NOT NULL DEFAULT 0,
    "outcomeHits" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "TournamentStanding_pkey" PRIMARY KEY ("tournamentId","userId")
);

-- CreateIndex
CREATE INDEX "TournamentStanding_tournamentId_companyId_points_exactHits__idx" ON "TournamentStanding"("tournamentId", "companyId", "points", "exactHits", "outcomeHits");

-- CreateIndex
CREATE INDEX "TournamentStanding_userId_idx" ON "TournamentStanding"("userId");

-- AddForeignKey
ALTER TABLE "TournamentStanding" ADD CONSTRAINT "TournamentStanding_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TournamentStanding" ADD CONSTRAINT "TournamentStanding_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
