-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "addressCorrectionTtlHours" INTEGER NOT NULL DEFAULT 72,
ADD COLUMN     "autoAddressCorrection" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "AddressCorrection" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT,
    "phone" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "source" TEXT NOT NULL,
    "reason" TEXT,
    "locale" TEXT,
    "before" TEXT NOT NULL,
    "after" TEXT,
    "failure" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "completedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AddressCorrection_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AddressCorrection_tokenHash_key" ON "AddressCorrection"("tokenHash");

-- CreateIndex
CREATE INDEX "AddressCorrection_shopId_orderGid_status_idx" ON "AddressCorrection"("shopId", "orderGid", "status");

-- AddForeignKey
ALTER TABLE "AddressCorrection" ADD CONSTRAINT "AddressCorrection_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

