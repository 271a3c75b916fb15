-- AlterTable
ALTER TABLE "Selection" ADD COLUMN "riskBehaviour" TEXT;

