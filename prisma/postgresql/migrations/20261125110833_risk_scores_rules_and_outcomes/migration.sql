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

-- CreateTable
CREATE TABLE "OrderOutcome" (
    "shopId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "phone" TEXT,
    "postalCode" TEXT,
    "outcome" TEXT NOT NULL,
    "decidedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrderOutcome_pkey" PRIMARY KEY ("shopId","orderGid")
);

-- CreateIndex
CREATE INDEX "OrderOutcome_shopId_phone_idx" ON "OrderOutcome"("shopId", "phone");

-- CreateIndex
CREATE INDEX "OrderOutcome_shopId_postalCode_idx" ON "OrderOutcome"("shopId", "postalCode");

-- AddForeignKey
ALTER TABLE "OrderOutcome" ADD CONSTRAINT "OrderOutcome_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

