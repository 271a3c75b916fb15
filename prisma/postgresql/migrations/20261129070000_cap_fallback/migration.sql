-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "capFallback" TEXT NOT NULL DEFAULT 'confirm_after_purchase';

