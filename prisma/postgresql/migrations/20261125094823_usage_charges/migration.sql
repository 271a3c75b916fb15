-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "usageChargesEnabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "usageChargesRefused" TEXT;

