-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_User" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "companyId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "externalId" TEXT NOT NULL,
    "loginProviderId" TEXT NOT NULL,
    "loginProviderName" TEXT,
    "passwordHash" TEXT,
    "preferredLanguage" TEXT NOT NULL DEFAULT 'es',
    "timezone" TEXT,
    "profilePictureUrl" TEXT,
    "portraitPictureUrl" TEXT,
    "recoverPasswordToken" TEXT,
    "requiresAccountRecovery" BOOLEAN NOT NULL DEFAULT false,
    "role" TEXT NOT NULL DEFAULT 'player',
    "showInitialTour" BOOLEAN NOT NULL DEFAULT true,
    "areaLevel1Id" INTEGER,
    "areaLevel2Id" INTEGER,
    "areaLevel3Id" INTEGER,
    "extraFields" JSONB NOT NULL,
    "notificationSettings" JSONB NOT NULL,
    "lastActiveDate" DATETIME,
    "loginCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "deletedAt" DATETIME,
    "anonymizedAt" DATETIME,
    "tokenVersion" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "User_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "User_areaLevel1Id_fkey" FOREIGN KEY ("areaLevel1Id") REFERENCES "Area" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "User_areaLevel2Id_fkey" FOREIGN KEY ("areaLevel2Id") REFERENCES "Area" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "User_areaLevel3Id_fkey" FOREIGN KEY ("areaLevel3Id") REFERENCES "Area" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_User" ("anonymizedAt", "areaLevel1Id", "areaLevel2Id", "areaLevel3Id", "companyId", "createdAt", "deletedAt", "email", "emailVerified", "externalId", "extraFields", "id", "lastActiveDate", "loginCount", "loginProviderId", "loginProviderName", "name", "notificationSettings", "passwordHash", "portraitPictureUrl", "preferredLanguage", "profilePictureUrl", "recoverPasswordToken", "requiresAccountRecovery", "role", "showInitialTour", "timezone", "updatedAt") SELECT "anonymizedAt", "areaLevel1Id", "areaLevel2Id", "areaLevel3Id", "companyId", "createdAt", "deletedAt", "email", "emailVerified", "externalId", "extraFields", "id", "lastActiveDate", "loginCount", "loginProviderId", "loginProviderName", "name", "notificationSettings", "passwordHash", "portraitPictureUrl", "preferredLanguage", "profilePictureUrl", "recoverPasswordToken", "requiresAccountRecovery", "role", "showInitialTour", "timezone", "updatedAt" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE INDEX "User_companyId_deletedAt_idx" ON "User"("companyId", "deletedAt");
CREATE INDEX "User_companyId_role_idx" ON "User"("companyId", "role");
CREATE INDEX "User_companyId_name_idx" ON "User"("companyId", "name");
CREATE INDEX "User_areaLevel1Id_idx" ON "User"("areaLevel1Id");
CREATE INDEX "User_areaLevel2Id_idx" ON "User"("areaLevel2Id");
CREATE INDEX "User_areaLevel3Id_idx" ON "User"("areaLevel3Id");
CREATE INDEX "User_externalId_idx" ON "User"("externalId");
CREATE UNIQUE INDEX "User_companyId_email_key" ON "User"("companyId", "email");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- The response cache's data version counts writes to every table (src/db/data-version.ts)

CREATE TRIGGER "_prode_tv_User_insert" AFTER INSERT ON "User" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('User', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_User_update" AFTER UPDATE ON "User" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('User', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_User_delete" AFTER DELETE ON "User" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('User', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_user_in_standings" AFTER UPDATE OF "name", "deletedAt" ON "User"
WHEN OLD."name" IS NOT NEW."name" OR OLD."deletedAt" IS NOT NEW."deletedAt"
BEGIN
    UPDATE "TournamentStanding" SET "name" = NEW."name", "active" = (NEW."deletedAt" IS NULL)
    WHERE "userId" = NEW."id";
END;
