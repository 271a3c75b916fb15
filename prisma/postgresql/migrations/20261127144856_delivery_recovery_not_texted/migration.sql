-- AlterTable
ALTER TABLE "DeliveryRecovery" ADD COLUMN     "notTexted" TEXT;

