-- AlterTable
ALTER TABLE "Match" ADD COLUMN     "importedDate" TIMESTAMP(3),
ADD COLUMN     "importedResult" TEXT;
