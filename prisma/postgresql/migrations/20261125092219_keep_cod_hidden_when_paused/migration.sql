-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "keepCodHiddenWhenPaused" BOOLEAN NOT NULL DEFAULT false;

