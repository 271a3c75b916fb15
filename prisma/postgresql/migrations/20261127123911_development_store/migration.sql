-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "developmentStore" BOOLEAN NOT NULL DEFAULT false;

