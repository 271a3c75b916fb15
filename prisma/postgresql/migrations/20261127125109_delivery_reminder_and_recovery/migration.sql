-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "deliveryFailureTags" TEXT NOT NULL DEFAULT 'NDR',
ADD COLUMN     "deliveryRecovery" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "deliveryReminder" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "storeContact" TEXT;

-- CreateTable
CREATE TABLE "DeliveryReminder" (
    "shopId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "phone" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "note" TEXT,
    "sendingAt" TIMESTAMP(3),
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DeliveryReminder_pkey" PRIMARY KEY ("shopId","orderGid")
);

-- CreateTable
CREATE TABLE "DeliveryRecovery" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT,
    "phone" TEXT,
    "locale" TEXT,
    "tokenHash" TEXT NOT NULL,
    "cause" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "choice" TEXT,
    "choiceDate" TEXT,
    "newPhone" TEXT,
    "notifiedAt" TIMESTAMP(3),
    "answeredAt" TIMESTAMP(3),
    "writtenAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DeliveryRecovery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DeliveryReminder_shopId_createdAt_idx" ON "DeliveryReminder"("shopId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "DeliveryRecovery_tokenHash_key" ON "DeliveryRecovery"("tokenHash");

-- CreateIndex
CREATE INDEX "DeliveryRecovery_shopId_status_createdAt_idx" ON "DeliveryRecovery"("shopId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "DeliveryRecovery_shopId_createdAt_idx" ON "DeliveryRecovery"("shopId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "DeliveryRecovery_shopId_orderGid_key" ON "DeliveryRecovery"("shopId", "orderGid");

-- AddForeignKey
ALTER TABLE "DeliveryReminder" ADD CONSTRAINT "DeliveryReminder_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DeliveryRecovery" ADD CONSTRAINT "DeliveryRecovery_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

