-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "codMethodNamesConfirmedAt" DATETIME;
ALTER TABLE "Shop" ADD COLUMN "smsPrices" TEXT;
ALTER TABLE "Shop" ADD COLUMN "testCodeSentAt" DATETIME;

-- CreateTable
CREATE TABLE "DailyStat" (
    "shopId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "dimension" TEXT NOT NULL DEFAULT '',
    "count" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("shopId", "metric", "day", "dimension"),
    CONSTRAINT "DailyStat_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "DailyStat_shopId_day_idx" ON "DailyStat"("shopId", "day");

