-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "codFeeType" TEXT NOT NULL DEFAULT 'none',
ADD COLUMN     "codFeeValue" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "codFeeVariantId" TEXT,
ADD COLUMN     "depositsAvailable" BOOLEAN,
ADD COLUMN     "paymentModes" TEXT NOT NULL DEFAULT 'cod,prepaid,partial',
ADD COLUMN     "prepaidDiscountType" TEXT NOT NULL DEFAULT 'none',
ADD COLUMN     "prepaidDiscountValue" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "primaryDomain" TEXT;

-- CreateTable
CREATE TABLE "MessageDelivery" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "providerId" TEXT,
    "status" TEXT NOT NULL,
    "errorCode" INTEGER,
    "fallbackBody" TEXT,
    "fallbackUntil" BIGINT,
    "fallbackOf" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MessageDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "MessageDelivery_providerId_key" ON "MessageDelivery"("providerId");

-- CreateIndex
CREATE INDEX "MessageDelivery_shopId_createdAt_idx" ON "MessageDelivery"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "MessageDelivery_shopId_phone_idx" ON "MessageDelivery"("shopId", "phone");

-- AddForeignKey
ALTER TABLE "MessageDelivery" ADD CONSTRAINT "MessageDelivery_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

