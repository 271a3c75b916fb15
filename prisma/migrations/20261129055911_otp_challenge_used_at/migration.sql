-- AlterTable
ALTER TABLE "OtpChallenge" ADD COLUMN "usedAt" BIGINT;

