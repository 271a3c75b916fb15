-- AlterTable
ALTER TABLE "Selection" ADD COLUMN "balanceAddedAt" DATETIME;
ALTER TABLE "Selection" ADD COLUMN "balanceAmount" REAL;
ALTER TABLE "Selection" ADD COLUMN "balanceHeldAt" DATETIME;
ALTER TABLE "Selection" ADD COLUMN "depositAmount" REAL;
ALTER TABLE "Selection" ADD COLUMN "depositCode" TEXT;
ALTER TABLE "Selection" ADD COLUMN "depositCurrency" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Selection_depositCode_key" ON "Selection"("depositCode");

