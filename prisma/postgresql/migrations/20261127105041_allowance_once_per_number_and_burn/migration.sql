-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "burnDetail" TEXT,
ADD COLUMN     "burnMonth" TEXT,
ADD COLUMN     "burnSeenAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "VerifiedCustomer" ADD COLUMN     "countedMonth" TEXT,
ADD COLUMN     "monthVerifications" INTEGER NOT NULL DEFAULT 0;

