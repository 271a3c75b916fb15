-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "depositType" TEXT NOT NULL DEFAULT 'percentage',
ADD COLUMN     "depositValue" DOUBLE PRECISION NOT NULL DEFAULT 20,
ADD COLUMN     "discountCodeCod" TEXT,
ADD COLUMN     "discountCodePartial" TEXT,
ADD COLUMN     "discountCodePrepaid" TEXT,
ADD COLUMN     "tagModePrefix" TEXT NOT NULL DEFAULT 'payment-mode:',
ADD COLUMN     "tagOrders" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "tagUnverified" TEXT NOT NULL DEFAULT 'cod-unverified',
ADD COLUMN     "tagVerified" TEXT NOT NULL DEFAULT 'cod-verified';

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderTagJob" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "tags" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "lockedUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "doneAt" TIMESTAMP(3),
    "failedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrderTagJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookDelivery_shop_idx" ON "WebhookDelivery"("shop");

-- CreateIndex
CREATE INDEX "OrderTagJob_nextAttemptAt_idx" ON "OrderTagJob"("nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "OrderTagJob_shop_orderGid_key" ON "OrderTagJob"("shop", "orderGid");

