-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "riskFailureTags" TEXT NOT NULL DEFAULT 'RTO, returned, refused',
ADD COLUMN     "riskIpAttemptLimit" INTEGER,
ADD COLUMN     "riskPhoneCodeLimit" INTEGER,
ADD COLUMN     "riskPhoneOrderLimit" INTEGER;

-- AlterTable
ALTER TABLE "OrderOutcome" ADD COLUMN     "reason" TEXT;

