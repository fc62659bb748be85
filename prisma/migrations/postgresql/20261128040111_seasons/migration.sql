-- CreateTable
CREATE TABLE "Season" (
    "id" SERIAL NOT NULL,
    "companyId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Season_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SeasonTournament" (
    "seasonId" INTEGER NOT NULL,
    "tournamentId" INTEGER NOT NULL,
    "weight" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SeasonTournament_pkey" PRIMARY KEY ("seasonId","tournamentId")
);

-- CreateIndex
CREATE UNIQUE INDEX "Season_companyId_name_key" ON "Season"("companyId", "name");

-- CreateIndex
CREATE INDEX "SeasonTournament_tournamentId_idx" ON "SeasonTournament"("tournamentId");

-- AddForeignKey
ALTER TABLE "Season" ADD CONSTRAINT "Season_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SeasonTournament" ADD CONSTRAINT "SeasonTournament_seasonId_fkey" FOREIGN KEY ("seasonId") REFERENCES "Season"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SeasonTournament" ADD CONSTRAINT "SeasonTournament_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The response cache's data version counts writes to every table (src/engine/cache/table-versions.ts)
SELECT prode_meta.track_writes('"Season"');
SELECT prode_meta.track_writes('"SeasonTournament"');
