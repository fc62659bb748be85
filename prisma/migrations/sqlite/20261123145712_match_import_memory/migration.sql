-- AlterTable
ALTER TABLE "Match" ADD COLUMN "importedDate" DATETIME;
ALTER TABLE "Match" ADD COLUMN "importedResult" TEXT;
