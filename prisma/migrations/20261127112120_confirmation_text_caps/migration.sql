-- AlterTable
ALTER TABLE "OrderConfirmation" ADD COLUMN "answered" TEXT;
ALTER TABLE "OrderConfirmation" ADD COLUMN "textCappedAt" DATETIME;

