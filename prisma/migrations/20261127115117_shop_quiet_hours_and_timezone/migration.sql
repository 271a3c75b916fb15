-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "quietHoursEnd" INTEGER;
ALTER TABLE "Shop" ADD COLUMN "quietHoursStart" INTEGER;
ALTER TABLE "Shop" ADD COLUMN "timezone" TEXT;

