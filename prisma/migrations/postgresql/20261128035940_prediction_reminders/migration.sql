-- CreateTable
CREATE TABLE "PredictionReminder" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "matchId" INTEGER NOT NULL,
    "closesAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PredictionReminder_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PredictionReminder_matchId_idx" ON "PredictionReminder"("matchId");

-- CreateIndex
CREATE UNIQUE INDEX "PredictionReminder_userId_matchId_closesAt_key" ON "PredictionReminder"("userId", "matchId", "closesAt");

-- AddForeignKey
ALTER TABLE "PredictionReminder" ADD CONSTRAINT "PredictionReminder_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PredictionReminder" ADD CONSTRAINT "PredictionReminder_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "Match"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The response cache's data version counts writes to every table (src/engine/cache/table-versions.ts)
SELECT prode_meta.track_writes('"PredictionReminder"');
