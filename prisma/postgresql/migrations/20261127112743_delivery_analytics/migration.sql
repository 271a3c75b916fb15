-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "failedParcelCost" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN     "postalCode" TEXT,
ADD COLUMN     "products" TEXT;

