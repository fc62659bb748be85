-- CreateEnum
CREATE TYPE "AuditKind" AS ENUM ('PREDICTION_ENTERED', 'RESULT_SET', 'SCORING_SETTINGS_CHANGED', 'ROLE_CHANGED', 'COMPANY_SETTINGS_CHANGED', 'USER_DEACTIVATED', 'USER_REACTIVATED', 'USER_DELETED');

-- AlterEnum
ALTER TYPE "NotificationType" ADD VALUE 'predictionEnteredForYou';

-- AlterTable
ALTER TABLE "Prediction" ADD COLUMN     "enteredById" INTEGER;

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" SERIAL NOT NULL,
    "companyId" INTEGER,
    "tournamentId" INTEGER,
    "kind" "AuditKind" NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "actorId" INTEGER NOT NULL,
    "targetUserId" INTEGER,
    "reason" TEXT,
    "before" JSONB,
    "after" JSONB,

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditEntry_companyId_at_idx" ON "AuditEntry"("companyId", "at");

-- CreateIndex
CREATE INDEX "AuditEntry_tournamentId_at_idx" ON "AuditEntry"("tournamentId", "at");

-- CreateIndex
CREATE INDEX "AuditEntry_targetUserId_idx" ON "AuditEntry"("targetUserId");

-- CreateIndex
CREATE INDEX "AuditEntry_actorId_idx" ON "AuditEntry"("actorId");

-- AddForeignKey
ALTER TABLE "Prediction" ADD CONSTRAINT "Prediction_enteredById_fkey" FOREIGN KEY ("enteredById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEntry" ADD CONSTRAINT "AuditEntry_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEntry" ADD CONSTRAINT "AuditEntry_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEntry" ADD CONSTRAINT "AuditEntry_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditEntry" ADD CONSTRAINT "AuditEntry_targetUserId_fkey" FOREIGN KEY ("targetUserId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The response cache's data version counts writes to every table (src/engine/cache/table-versions.ts)
SELECT prode_meta.track_writes('"AuditEntry"');
