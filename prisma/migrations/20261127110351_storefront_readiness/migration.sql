-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "storefrontReadyAt" DATETIME;
ALTER TABLE "Shop" ADD COLUMN "storefrontReadyBy" TEXT;

