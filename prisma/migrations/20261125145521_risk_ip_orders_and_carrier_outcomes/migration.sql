-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "riskIpOrderLimit" INTEGER;

-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN "ipHash" TEXT;

-- AlterTable
ALTER TABLE "OrderOutcome" ADD COLUMN "deliveredBy" TEXT;
ALTER TABLE "OrderOutcome" ADD COLUMN "stateAt" DATETIME;

-- CreateIndex
CREATE INDEX "OrderRecord_shopId_ipHash_placedAt_idx" ON "OrderRecord"("shopId", "ipHash", "placedAt");


-- Rows learnt delivered before this column: their evidence was orders/fulfilled.
UPDATE "OrderOutcome" SET "deliveredBy" = 'fulfilled' WHERE "outcome" = 'delivered';
