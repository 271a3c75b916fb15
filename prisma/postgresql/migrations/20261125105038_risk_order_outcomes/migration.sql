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

