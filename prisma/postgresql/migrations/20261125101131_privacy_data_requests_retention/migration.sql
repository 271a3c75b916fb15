-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "recordRetentionDays" INTEGER NOT NULL DEFAULT 365;

-- CreateTable
CREATE TABLE "DataRequestReport" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "requestKey" TEXT NOT NULL,
    "customerId" TEXT,
    "customerEmail" TEXT,
    "customerPhone" TEXT,
    "ordersRequested" TEXT NOT NULL,
    "report" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DataRequestReport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DataRequestReport_shopId_createdAt_idx" ON "DataRequestReport"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "DataRequestReport_createdAt_idx" ON "DataRequestReport"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "DataRequestReport_shopId_requestKey_key" ON "DataRequestReport"("shopId", "requestKey");

-- CreateIndex
CREATE INDEX "VerifiedCustomer_shopId_verifiedAt_idx" ON "VerifiedCustomer"("shopId", "verifiedAt");

-- CreateIndex
CREATE INDEX "Selection_shopId_createdAt_idx" ON "Selection"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "AddressCorrection_shopId_createdAt_idx" ON "AddressCorrection"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "OrderConfirmation_shopId_createdAt_idx" ON "OrderConfirmation"("shopId", "createdAt");

-- AddForeignKey
ALTER TABLE "DataRequestReport" ADD CONSTRAINT "DataRequestReport_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

