-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "failedParcelCost" REAL;

-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN "postalCode" TEXT;
ALTER TABLE "OrderRecord" ADD COLUMN "products" TEXT;

