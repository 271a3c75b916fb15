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
    "placedAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("shopId", "orderGid"),
    CONSTRAINT "OrderRecord_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "OrderRecord_shopId_placedAt_idx" ON "OrderRecord"("shopId", "placedAt");

-- CreateIndex
CREATE INDEX "OrderRecord_shopId_status_placedAt_idx" ON "OrderRecord"("shopId", "status", "placedAt");

