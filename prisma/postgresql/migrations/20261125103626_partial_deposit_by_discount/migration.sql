-- AlterTable
ALTER TABLE "Selection" ADD COLUMN     "balanceAddedAt" TIMESTAMP(3),
ADD COLUMN     "balanceAmount" DOUBLE PRECISION,
ADD COLUMN     "balanceHeldAt" TIMESTAMP(3),
ADD COLUMN     "depositAmount" DOUBLE PRECISION,
ADD COLUMN     "depositCode" TEXT,
ADD COLUMN     "depositCurrency" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Selection_depositCode_key" ON "Selection"("depositCode");

