-- CreateTable
CREATE TABLE "LiveEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "topic" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "LiveEvent_topic_id_idx" ON "LiveEvent"("topic", "id");

-- CreateIndex
CREATE INDEX "LiveEvent_createdAt_idx" ON "LiveEvent"("createdAt");

-- The response cache's data version counts writes to every table (src/engine/cache/table-versions.ts)

CREATE TRIGGER "_prode_tv_LiveEvent_insert" AFTER INSERT ON "LiveEvent" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('LiveEvent', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_LiveEvent_update" AFTER UPDATE ON "LiveEvent" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('LiveEvent', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_LiveEvent_delete" AFTER DELETE ON "LiveEvent" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('LiveEvent', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;
