-- AlterTable
ALTER TABLE "OrderConfirmation" ADD COLUMN     "disputedAt" TIMESTAMP(3);

