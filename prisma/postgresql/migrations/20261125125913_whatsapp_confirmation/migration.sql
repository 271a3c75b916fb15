-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "cancelOnWhatsappCancel" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "linkDomain" TEXT,
ADD COLUMN     "linksOnWhatsapp" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "otpChannelChoice" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "whatsappConfirmation" TEXT NOT NULL DEFAULT 'off',
ADD COLUMN     "whatsappReplyMinutes" INTEGER NOT NULL DEFAULT 60;

-- AlterTable
ALTER TABLE "OrderConfirmation" ADD COLUMN     "answer" TEXT,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'verify',
ADD COLUMN     "smsLinkAt" TIMESTAMP(3),
ADD COLUMN     "whatsappAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "MessageDelivery" ADD COLUMN     "orderGid" TEXT;

-- CreateTable
CREATE TABLE "WhatsappReply" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "repliedTo" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "sender" TEXT,
    "outcome" TEXT,
    "doneAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WhatsappReply_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WhatsappReply_shopId_orderGid_idx" ON "WhatsappReply"("shopId", "orderGid");

-- CreateIndex
CREATE INDEX "WhatsappReply_shopId_createdAt_idx" ON "WhatsappReply"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "MessageDelivery_shopId_orderGid_idx" ON "MessageDelivery"("shopId", "orderGid");

-- AddForeignKey
ALTER TABLE "WhatsappReply" ADD CONSTRAINT "WhatsappReply_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

