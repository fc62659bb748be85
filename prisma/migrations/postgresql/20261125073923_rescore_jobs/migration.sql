-- CreateTable
CREATE TABLE "RescoreJob" (
    "matchId" INTEGER NOT NULL,
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "retryAt" TIMESTAMP(3),

    CONSTRAINT "RescoreJob_pkey" PRIMARY KEY ("matchId")
);

-- CreateIndex
CREATE INDEX "RescoreJob_retryAt_requestedAt_idx" ON "RescoreJob"("retryAt", "requestedAt");

-- The response cache's data version counts writes to every table (src/db/data-version.ts)
SELECT prode_meta.track_writes('"RescoreJob"');
