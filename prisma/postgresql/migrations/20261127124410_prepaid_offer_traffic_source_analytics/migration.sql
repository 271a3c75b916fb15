-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "prepaidOffer" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "prepaidOfferIncentiveCap" DOUBLE PRECISION,
ADD COLUMN     "prepaidOfferIncentiveType" TEXT NOT NULL DEFAULT 'none',
ADD COLUMN     "prepaidOfferIncentiveValue" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "riskPrepaidSources" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN     "postalCode" TEXT,
ADD COLUMN     "prepaidAt" TIMESTAMP(3),
ADD COLUMN     "products" TEXT,
ADD COLUMN     "trafficCampaign" TEXT,
ADD COLUMN     "trafficMedium" TEXT,
ADD COLUMN     "trafficSource" TEXT;

-- CreateTable
CREATE TABLE "PrepaidOffer" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT,
    "phone" TEXT,
    "tokenHash" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "reason" TEXT,
    "channel" TEXT,
    "amount" DOUBLE PRECISION,
    "currency" TEXT,
    "incentive" DOUBLE PRECISION,
    "sentAt" TIMESTAMP(3),
    "openedAt" TIMESTAMP(3),
    "paidAt" TIMESTAMP(3),
    "incentiveRefundId" TEXT,
    "incentiveError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PrepaidOffer_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PrepaidOffer_tokenHash_key" ON "PrepaidOffer"("tokenHash");

-- CreateIndex
CREATE INDEX "PrepaidOffer_shopId_createdAt_idx" ON "PrepaidOffer"("shopId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PrepaidOffer_shopId_orderGid_key" ON "PrepaidOffer"("shopId", "orderGid");

-- AddForeignKey
ALTER TABLE "PrepaidOffer" ADD CONSTRAINT "PrepaidOffer_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

