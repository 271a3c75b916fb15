-- CreateTable
CREATE TABLE "DayRollup" (
    "shopId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "figures" TEXT NOT NULL,
    "rolledAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DayRollup_pkey" PRIMARY KEY ("shopId","kind","day")
);

-- CreateIndex
CREATE INDEX "OrderRecord_shopId_prepaidAt_idx" ON "OrderRecord"("shopId", "prepaidAt");

-- AddForeignKey
ALTER TABLE "DayRollup" ADD CONSTRAINT "DayRollup_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

