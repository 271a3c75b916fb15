-- AlterTable
ALTER TABLE "BlockedPhone" ADD COLUMN "expiresAt" DATETIME;

-- CreateIndex
CREATE INDEX "BlockedPhone_expiresAt_idx" ON "BlockedPhone"("expiresAt");

