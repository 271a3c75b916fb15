-- AlterTable
ALTER TABLE "OrderConfirmation" ADD COLUMN     "answered" TEXT,
ADD COLUMN     "textCappedAt" TIMESTAMP(3);

