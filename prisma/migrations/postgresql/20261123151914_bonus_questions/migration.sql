-- CreateEnum
CREATE TYPE "BonusQuestionKind" AS ENUM ('CHAMPION', 'FINALIST', 'TOP_SCORER', 'NUMBER', 'CHOICE');

-- CreateTable
CREATE TABLE "BonusQuestion" (
    "id" SERIAL NOT NULL,
    "companyId" INTEGER NOT NULL,
    "tournamentId" INTEGER NOT NULL,
    "kind" "BonusQuestionKind" NOT NULL,
    "text" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "points" INTEGER NOT NULL,
    "closesAt" TIMESTAMP(3) NOT NULL,
    "correctAnswers" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BonusQuestion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BonusAnswer" (
    "id" SERIAL NOT NULL,
    "questionId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "value" TEXT NOT NULL,
    "points" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BonusAnswer_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BonusQuestion_companyId_tournamentId_idx" ON "BonusQuestion"("companyId", "tournamentId");

-- CreateIndex
CREATE INDEX "BonusQuestion_tournamentId_idx" ON "BonusQuestion"("tournamentId");

-- CreateIndex
CREATE INDEX "BonusAnswer_userId_idx" ON "BonusAnswer"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "BonusAnswer_questionId_userId_key" ON "BonusAnswer"("questionId", "userId");

-- AddForeignKey
ALTER TABLE "BonusQuestion" ADD CONSTRAINT "BonusQuestion_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BonusQuestion" ADD CONSTRAINT "BonusQuestion_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BonusAnswer" ADD CONSTRAINT "BonusAnswer_questionId_fkey" FOREIGN KEY ("questionId") REFERENCES "BonusQuestion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BonusAnswer" ADD CONSTRAINT "BonusAnswer_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The response cache's data version counts writes to every table (src/db/data-version.ts)
SELECT prode_meta.track_writes('"BonusQuestion"');
SELECT prode_meta.track_writes('"BonusAnswer"');
