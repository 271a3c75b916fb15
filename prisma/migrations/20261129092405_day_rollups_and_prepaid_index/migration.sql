-- CreateTable
CREATE TABLE "DayRollup" (
    "shopId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "figures" TEXT NOT NULL,
    "rolledAt" DATETIME NOT NULL,

    PRIMARY KEY ("shopId", "kind", "day"),
    CONSTRAINT "DayRollup_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "OrderRecord_shopId_prepaidAt_idx" ON "OrderRecord"("shopId", "prepaidAt");

