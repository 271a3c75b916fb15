-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "capFallback" TEXT NOT NULL DEFAULT 'confirm_after_purchase',
ADD COLUMN     "riskCalibration" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "riskDepositMax" DOUBLE PRECISION,
ADD COLUMN     "riskDepositMin" DOUBLE PRECISION,
ADD COLUMN     "riskHighAction" TEXT NOT NULL DEFAULT 'refuse',
ADD COLUMN     "riskMediumAction" TEXT NOT NULL DEFAULT 'none';

