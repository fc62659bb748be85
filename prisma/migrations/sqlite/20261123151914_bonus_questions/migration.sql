-- CreateTable
CREATE TABLE "BonusQuestion" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "companyId" INTEGER NOT NULL,
    "tournamentId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "points" INTEGER NOT NULL,
    "closesAt" DATETIME NOT NULL,
    "correctAnswers" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "BonusQuestion_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "BonusQuestion_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "BonusAnswer" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "questionId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "value" TEXT NOT NULL,
    "points" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "BonusAnswer_questionId_fkey" FOREIGN KEY ("questionId") REFERENCES "BonusQuestion" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "BonusAnswer_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "BonusQuestion_companyId_tournamentId_idx" ON "BonusQuestion"("companyId", "tournamentId");

-- CreateIndex
CREATE INDEX "BonusQuestion_tournamentId_idx" ON "BonusQuestion"("tournamentId");

-- CreateIndex
CREATE INDEX "BonusAnswer_userId_idx" ON "BonusAnswer"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "BonusAnswer_questionId_userId_key" ON "BonusAnswer"("questionId", "userId");
