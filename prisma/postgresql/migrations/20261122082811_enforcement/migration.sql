-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "cancelUnconfirmed" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "codMethodNames" TEXT NOT NULL DEFAULT 'Cash on Delivery (COD)',
ADD COLUMN     "confirmDeadlineHours" INTEGER NOT NULL DEFAULT 24,
ADD COLUMN     "enforceAtCheckout" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "holdUnverifiedCod" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "paymentCustomizationEnabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "paymentCustomizationError" TEXT,
ADD COLUMN     "paymentCustomizationId" TEXT,
ADD COLUMN     "paymentCustomizationSyncedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "OrderConfirmation" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT,
    "customerGid" TEXT,
    "phone" TEXT,
    "tokenHash" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "hold" BOOLEAN NOT NULL DEFAULT false,
    "holds" TEXT,
    "holdsReleasedAt" TIMESTAMP(3),
    "locale" TEXT,
    "deadlineAt" TIMESTAMP(3) NOT NULL,
    "notifiedAt" TIMESTAMP(3),
    "confirmedAt" TIMESTAMP(3),
    "closedAt" TIMESTAMP(3),
    "cancelledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrderConfirmation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "OrderConfirmation_tokenHash_key" ON "OrderConfirmation"("tokenHash");

-- CreateIndex
CREATE INDEX "OrderConfirmation_status_deadlineAt_idx" ON "OrderConfirmation"("status", "deadlineAt");

-- CreateIndex
CREATE UNIQUE INDEX "OrderConfirmation_shopId_orderGid_key" ON "OrderConfirmation"("shopId", "orderGid");

-- AddForeignKey
ALTER TABLE "OrderConfirmation" ADD CONSTRAINT "OrderConfirmation_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

