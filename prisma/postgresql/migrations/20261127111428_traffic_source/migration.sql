-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "riskPrepaidSources" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN     "trafficCampaign" TEXT,
ADD COLUMN     "trafficMedium" TEXT,
ADD COLUMN     "trafficSource" TEXT;

