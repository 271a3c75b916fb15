-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "digipinTarget" TEXT NOT NULL DEFAULT 'metafield';

-- AlterTable
ALTER TABLE "AddressCorrection" ADD COLUMN     "digipin" TEXT;

-- AlterTable
ALTER TABLE "DeliveryRecovery" ADD COLUMN     "digipin" TEXT;

