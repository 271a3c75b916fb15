-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "country" TEXT;

