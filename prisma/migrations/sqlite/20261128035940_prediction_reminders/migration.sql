-- CreateTable
CREATE TABLE "PredictionReminder" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "matchId" INTEGER NOT NULL,
    "closesAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PredictionReminder_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PredictionReminder_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "Match" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "PredictionReminder_matchId_idx" ON "PredictionReminder"("matchId");

-- CreateIndex
CREATE UNIQUE INDEX "PredictionReminder_userId_matchId_closesAt_key" ON "PredictionReminder"("userId", "matchId", "closesAt");

-- The response cache's data version counts writes to every table (src/engine/cache/table-versions.ts)

CREATE TRIGGER "_prode_tv_PredictionReminder_insert" AFTER INSERT ON "PredictionReminder" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('PredictionReminder', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_PredictionReminder_update" AFTER UPDATE ON "PredictionReminder" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('PredictionReminder', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_PredictionReminder_delete" AFTER DELETE ON "PredictionReminder" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('PredictionReminder', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;
