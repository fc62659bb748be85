-- CreateTable
CREATE TABLE "Season" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "companyId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Season_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SeasonTournament" (
    "seasonId" INTEGER NOT NULL,
    "tournamentId" INTEGER NOT NULL,
    "weight" REAL NOT NULL DEFAULT 1,
    "position" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("seasonId", "tournamentId"),
    CONSTRAINT "SeasonTournament_seasonId_fkey" FOREIGN KEY ("seasonId") REFERENCES "Season" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "SeasonTournament_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Season_companyId_name_key" ON "Season"("companyId", "name");

-- CreateIndex
CREATE INDEX "SeasonTournament_tournamentId_idx" ON "SeasonTournament"("tournamentId");

-- The response cache's data version counts writes to every table (src/engine/cache/table-versions.ts)

CREATE TRIGGER "_prode_tv_Season_insert" AFTER INSERT ON "Season" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Season', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Season_update" AFTER UPDATE ON "Season" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Season', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_Season_delete" AFTER DELETE ON "Season" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('Season', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_SeasonTournament_insert" AFTER INSERT ON "SeasonTournament" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('SeasonTournament', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_SeasonTournament_update" AFTER UPDATE ON "SeasonTournament" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('SeasonTournament', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_SeasonTournament_delete" AFTER DELETE ON "SeasonTournament" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('SeasonTournament', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;
