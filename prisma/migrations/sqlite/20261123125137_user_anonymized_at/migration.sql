-- AlterTable
ALTER TABLE "User" ADD COLUMN "anonymizedAt" DATETIME;
