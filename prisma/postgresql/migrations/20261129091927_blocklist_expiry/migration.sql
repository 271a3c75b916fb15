-- AlterTable
ALTER TABLE "BlockedPhone" ADD COLUMN     "expiresAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "BlockedPhone_expiresAt_idx" ON "BlockedPhone"("expiresAt");

