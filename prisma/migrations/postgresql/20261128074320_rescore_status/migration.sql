-- CreateTable
CREATE TABLE "RescoreTask" (
    "companyId" INTEGER NOT NULL,
    "matchId" INTEGER NOT NULL,
    "tournamentId" INTEGER NOT NULL,

    CONSTRAINT "RescoreTask_pkey" PRIMARY KEY ("companyId","matchId")
);

-- CreateTable
CREATE TABLE "CompanyRescore" (
    "companyId" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "doneMatches" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CompanyRescore_pkey" PRIMARY KEY ("companyId")
);

-- CreateIndex
CREATE INDEX "RescoreTask_matchId_idx" ON "RescoreTask"("matchId");

-- CreateIndex
CREATE INDEX "RescoreTask_companyId_tournamentId_idx" ON "RescoreTask"("companyId", "tournamentId");

-- AddForeignKey
ALTER TABLE "RescoreTask" ADD CONSTRAINT "RescoreTask_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyRescore" ADD CONSTRAINT "CompanyRescore_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The response cache's data version counts writes to every table (src/engine/cache/table-versions.ts)
SELECT prode_meta.track_writes('"RescoreTask"');
SELECT prode_meta.track_writes('"CompanyRescore"');
