-- AlterTable
ALTER TABLE "OrderConfirmation" ADD COLUMN "disputedAt" DATETIME;

