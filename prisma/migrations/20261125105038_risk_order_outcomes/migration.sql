-- CreateTable
CREATE TABLE "OrderOutcome" (
    "shopId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "phone" TEXT,
    "postalCode" TEXT,
    "outcome" TEXT NOT NULL,
    "decidedAt" DATETIME NOT NULL,

    PRIMARY KEY ("shopId", "orderGid"),
    CONSTRAINT "OrderOutcome_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "OrderOutcome_shopId_phone_idx" ON "OrderOutcome"("shopId", "phone");

-- CreateIndex
CREATE INDEX "OrderOutcome_shopId_postalCode_idx" ON "OrderOutcome"("shopId", "postalCode");

