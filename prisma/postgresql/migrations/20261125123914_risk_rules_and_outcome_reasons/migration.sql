-- DropIndex
DROP INDEX "OrderOutcome_shopId_phone_idx";

-- DropIndex
DROP INDEX "OrderOutcome_shopId_postalCode_idx";

-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "riskFailureTags" TEXT NOT NULL DEFAULT 'RTO, returned, refused',
ADD COLUMN     "riskIpAttemptLimit" INTEGER,
ADD COLUMN     "riskPhoneCodeLimit" INTEGER,
ADD COLUMN     "riskPhoneOrderLimit" INTEGER;

-- AlterTable
ALTER TABLE "OrderOutcome" ADD COLUMN     "reason" TEXT;

-- CreateIndex
CREATE INDEX "OrderRecord_shopId_phone_placedAt_idx" ON "OrderRecord"("shopId", "phone", "placedAt");

-- CreateIndex
CREATE INDEX "OrderOutcome_shopId_phone_outcome_idx" ON "OrderOutcome"("shopId", "phone", "outcome");

-- CreateIndex
CREATE INDEX "OrderOutcome_shopId_postalCode_outcome_idx" ON "OrderOutcome"("shopId", "postalCode", "outcome");

-- CreateIndex
CREATE INDEX "OrderOutcome_shopId_outcome_idx" ON "OrderOutcome"("shopId", "outcome");

