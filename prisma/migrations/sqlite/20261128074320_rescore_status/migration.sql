-- CreateTable
CREATE TABLE "RescoreTask" (
    "companyId" INTEGER NOT NULL,
    "matchId" INTEGER NOT NULL,
    "tournamentId" INTEGER NOT NULL,

    PRIMARY KEY ("companyId", "matchId"),
    CONSTRAINT "RescoreTask_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CompanyRescore" (
    "companyId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME,
    "doneMatches" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "CompanyRescore_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "RescoreTask_matchId_idx" ON "RescoreTask"("matchId");

-- CreateIndex
CREATE INDEX "RescoreTask_companyId_tournamentId_idx" ON "RescoreTask"("companyId", "tournamentId");

-- The response cache's data version counts writes to every table (src/engine/cache/table-versions.ts)

CREATE TRIGGER "_prode_tv_RescoreTask_insert" AFTER INSERT ON "RescoreTask" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('RescoreTask', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_RescoreTask_update" AFTER UPDATE ON "RescoreTask" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('RescoreTask', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_RescoreTask_delete" AFTER DELETE ON "RescoreTask" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('RescoreTask', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_CompanyRescore_insert" AFTER INSERT ON "CompanyRescore" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('CompanyRescore', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_CompanyRescore_update" AFTER UPDATE ON "CompanyRescore" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('CompanyRescore', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_CompanyRescore_delete" AFTER DELETE ON "CompanyRescore" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('CompanyRescore', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;
