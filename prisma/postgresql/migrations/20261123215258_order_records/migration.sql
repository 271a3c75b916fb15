-- CreateTable
CREATE TABLE "OrderRecord" (
    "shopId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT,
    "phone" TEXT,
    "mode" TEXT,
    "cod" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "verifiedBy" TEXT,
    "placedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrderRecord_pkey" PRIMARY KEY ("shopId","orderGid")
);

-- CreateIndex
CREATE INDEX "OrderRecord_shopId_placedAt_idx" ON "OrderRecord"("shopId", "placedAt");

-- CreateIndex
CREATE INDEX "OrderRecord_shopId_status_placedAt_idx" ON "OrderRecord"("shopId", "status", "placedAt");

-- AddForeignKey
ALTER TABLE "OrderRecord" ADD CONSTRAINT "OrderRecord_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

