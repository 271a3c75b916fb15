-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "codMethodNamesConfirmedAt" TIMESTAMP(3),
ADD COLUMN     "smsPrices" TEXT,
ADD COLUMN     "testCodeSentAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "DailyStat" (
    "shopId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "dimension" TEXT NOT NULL DEFAULT '',
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "DailyStat_pkey" PRIMARY KEY ("shopId","metric","day","dimension")
);

-- CreateIndex
CREATE INDEX "DailyStat_shopId_day_idx" ON "DailyStat"("shopId", "day");

-- AddForeignKey
ALTER TABLE "DailyStat" ADD CONSTRAINT "DailyStat_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

