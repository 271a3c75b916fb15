-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "storefrontReadyAt" TIMESTAMP(3),
ADD COLUMN     "storefrontReadyBy" TEXT;

