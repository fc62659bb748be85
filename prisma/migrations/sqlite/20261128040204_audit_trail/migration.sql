-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "companyId" INTEGER,
    "tournamentId" INTEGER,
    "kind" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "actorId" INTEGER NOT NULL,
    "targetUserId" INTEGER,
    "reason" TEXT,
    "before" JSONB,
    "after" JSONB,
    CONSTRAINT "AuditEntry_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "AuditEntry_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "AuditEntry_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "AuditEntry_targetUserId_fkey" FOREIGN KEY ("targetUserId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Prediction" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "matchId" INTEGER NOT NULL,
    "homeTeamGoals" INTEGER NOT NULL,
    "awayTeamGoals" INTEGER NOT NULL,
    "penaltiesWinner" TEXT,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "points" REAL,
    "isJoker" BOOLEAN NOT NULL DEFAULT false,
    "exactHit" BOOLEAN NOT NULL DEFAULT false,
    "outcomeHit" BOOLEAN NOT NULL DEFAULT false,
    "enteredById" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Prediction_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Prediction_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "Match" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Prediction_enteredById_fkey" FOREIGN KEY ("enteredById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Prediction" ("awayTeamGoals", "createdAt", "exactHit", "homeTeamGoals", "id", "isJoker", "matchId", "outcomeHit", "penaltiesWinner", "points", "status", "updatedAt", "userId") SELECT "awayTeamGoals", "createdAt", "exactHit", "homeTeamGoals", "id", "isJoker", "matchId", "outcomeHit", "penaltiesWinner", "points", "status", "updatedAt", "userId" FROM "Prediction";
DROP TABLE "Prediction";
ALTER TABLE "new_Prediction" RENAME TO "Prediction";
CREATE INDEX "Prediction_matchId_userId_idx" ON "Prediction"("matchId", "userId");
CREATE UNIQUE INDEX "Prediction_userId_matchId_key" ON "Prediction"("userId", "matchId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "AuditEntry_companyId_at_idx" ON "AuditEntry"("companyId", "at");

-- CreateIndex
CREATE INDEX "AuditEntry_tournamentId_at_idx" ON "AuditEntry"("tournamentId", "at");

-- CreateIndex
CREATE INDEX "AuditEntry_targetUserId_idx" ON "AuditEntry"("targetUserId");

-- CreateIndex
CREATE INDEX "AuditEntry_actorId_idx" ON "AuditEntry"("actorId");

-- The response cache's data version counts writes to every table (src/engine/cache/table-versions.ts)

CREATE TRIGGER "_prode_tv_AuditEntry_insert" AFTER INSERT ON "AuditEntry" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('AuditEntry', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_AuditEntry_update" AFTER UPDATE ON "AuditEntry" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('AuditEntry', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_AuditEntry_delete" AFTER DELETE ON "AuditEntry" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('AuditEntry', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Prediction_insert" AFTER INSERT ON "Prediction" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Prediction', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Prediction_update" AFTER UPDATE ON "Prediction" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Prediction', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Prediction_delete" AFTER DELETE ON "Prediction" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Prediction', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Prediction_owner_insert" AFTER INSERT ON "Prediction" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Prediction@' || (NEW."userId" % 256), 1)
    ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Prediction_owner_update" AFTER UPDATE ON "Prediction" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Prediction@' || (NEW."userId" % 256), 1)
    ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
    INSERT INTO "_prode_table_version" ("tbl", "v") SELECT 'Prediction@' || (OLD."userId" % 256), 1
    WHERE OLD."userId" % 256 <> NEW."userId" % 256 ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Prediction_owner_delete" AFTER DELETE ON "Prediction" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Prediction@' || (OLD."userId" % 256), 1)
    ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;
