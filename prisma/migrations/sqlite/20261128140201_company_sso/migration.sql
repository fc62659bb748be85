-- CreateTable
CREATE TABLE "CompanySso" (
    "companyId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "issuer" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientSecret" TEXT NOT NULL,
    "emailDomains" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "CompanySso_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SsoIdentity" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "companyId" INTEGER NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SsoIdentity_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "SsoIdentity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SsoSignIn" (
    "stateHash" TEXT NOT NULL PRIMARY KEY,
    "nonce" TEXT NOT NULL,
    "codeVerifier" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "companyId" INTEGER NOT NULL,
    "redirect" TEXT NOT NULL,
    "browserHash" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "SsoSignIn_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SsoLoginCode" (
    "codeHash" TEXT NOT NULL PRIMARY KEY,
    "userId" INTEGER NOT NULL,
    "companyId" INTEGER NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "SsoLoginCode_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "SsoLoginCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "SsoIdentity_companyId_issuer_subject_key" ON "SsoIdentity"("companyId", "issuer", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "SsoIdentity_userId_issuer_key" ON "SsoIdentity"("userId", "issuer");

-- CreateIndex
CREATE INDEX "SsoSignIn_expiresAt_idx" ON "SsoSignIn"("expiresAt");

-- CreateIndex
CREATE INDEX "SsoLoginCode_expiresAt_idx" ON "SsoLoginCode"("expiresAt");

-- The response cache's data version counts writes to every table (src/engine/cache/table-versions.ts)

CREATE TRIGGER "_prode_tv_CompanySso_insert" AFTER INSERT ON "CompanySso" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('CompanySso', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_CompanySso_update" AFTER UPDATE ON "CompanySso" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('CompanySso', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_CompanySso_delete" AFTER DELETE ON "CompanySso" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('CompanySso', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_SsoIdentity_insert" AFTER INSERT ON "SsoIdentity" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('SsoIdentity', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_SsoIdentity_update" AFTER UPDATE ON "SsoIdentity" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('SsoIdentity', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_SsoIdentity_delete" AFTER DELETE ON "SsoIdentity" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('SsoIdentity', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_SsoSignIn_insert" AFTER INSERT ON "SsoSignIn" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('SsoSignIn', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_SsoSignIn_update" AFTER UPDATE ON "SsoSignIn" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('SsoSignIn', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_SsoSignIn_delete" AFTER DELETE ON "SsoSignIn" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('SsoSignIn', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_SsoLoginCode_insert" AFTER INSERT ON "SsoLoginCode" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('SsoLoginCode', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_SsoLoginCode_update" AFTER UPDATE ON "SsoLoginCode" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('SsoLoginCode', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;

CREATE TRIGGER "_prode_tv_SsoLoginCode_delete" AFTER DELETE ON "SsoLoginCode" BEGIN
    INSERT INTO "_prode_table_version" ("tbl", "v") VALUES ('SsoLoginCode', 1) ON CONFLICT ("tbl") DO UPDATE SET "v" = "v" + 1;
END;
