-- CreateTable
CREATE TABLE "CompanySso" (
    "companyId" INTEGER NOT NULL,
    "issuer" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientSecret" TEXT NOT NULL,
    "emailDomains" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CompanySso_pkey" PRIMARY KEY ("companyId")
);

-- CreateTable
CREATE TABLE "SsoIdentity" (
    "id" SERIAL NOT NULL,
    "companyId" INTEGER NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SsoIdentity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SsoSignIn" (
    "stateHash" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "codeVerifier" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "companyId" INTEGER NOT NULL,
    "redirect" TEXT NOT NULL,
    "browserHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SsoSignIn_pkey" PRIMARY KEY ("stateHash")
);

-- CreateTable
CREATE TABLE "SsoLoginCode" (
    "codeHash" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "companyId" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SsoLoginCode_pkey" PRIMARY KEY ("codeHash")
);

-- CreateIndex
CREATE UNIQUE INDEX "SsoIdentity_companyId_issuer_subject_key" ON "SsoIdentity"("companyId", "issuer", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "SsoIdentity_userId_issuer_key" ON "SsoIdentity"("userId", "issuer");

-- CreateIndex
CREATE INDEX "SsoSignIn_expiresAt_idx" ON "SsoSignIn"("expiresAt");

-- CreateIndex
CREATE INDEX "SsoLoginCode_expiresAt_idx" ON "SsoLoginCode"("expiresAt");

-- AddForeignKey
ALTER TABLE "CompanySso" ADD CONSTRAINT "CompanySso_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SsoIdentity" ADD CONSTRAINT "SsoIdentity_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SsoIdentity" ADD CONSTRAINT "SsoIdentity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SsoSignIn" ADD CONSTRAINT "SsoSignIn_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SsoLoginCode" ADD CONSTRAINT "SsoLoginCode_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SsoLoginCode" ADD CONSTRAINT "SsoLoginCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The response cache's data version counts writes to every table (src/engine/cache/table-versions.ts)
SELECT prode_meta.track_writes('"CompanySso"');
SELECT prode_meta.track_writes('"SsoIdentity"');
SELECT prode_meta.track_writes('"SsoSignIn"');
SELECT prode_meta.track_writes('"SsoLoginCode"');
