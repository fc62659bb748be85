-- CreateTable
CREATE TABLE "RescoreJob" (
    "matchId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "requestedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "retryAt" DATETIME
);

-- CreateIndex
CREATE INDEX "RescoreJob_retryAt_requestedAt_idx" ON "RescoreJob"("retryAt", "requestedAt");

-- The response cache's data version counts writes to every table (src/db/data-version.ts)

CREATE TRIGGER "_prode_tv_RescoreJob_insert" AFTER INSERT ON "RescoreJob" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('RescoreJob', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_RescoreJob_update" AFTER UPDATE ON "RescoreJob" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('RescoreJob', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_RescoreJob_delete" AFTER DELETE ON "RescoreJob" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('RescoreJob', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;
