-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "riskCodValueCap" DOUBLE PRECISION,
ADD COLUMN     "riskDeniedPostalCodes" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "riskHighThreshold" INTEGER NOT NULL DEFAULT 60,
ADD COLUMN     "riskMediumThreshold" INTEGER NOT NULL DEFAULT 20,
ADD COLUMN     "riskPrepaidPhones" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN     "riskBand" TEXT,
ADD COLUMN     "riskReasons" TEXT,
ADD COLUMN     "riskScore" INTEGER,
ADD COLUMN     "value" DOUBLE PRECISION;

