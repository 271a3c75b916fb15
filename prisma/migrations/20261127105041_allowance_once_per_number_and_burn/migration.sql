-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "burnDetail" TEXT;
ALTER TABLE "Shop" ADD COLUMN "burnMonth" TEXT;
ALTER TABLE "Shop" ADD COLUMN "burnSeenAt" DATETIME;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_VerifiedCustomer" (
    "shopId" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "verifiedAt" DATETIME NOT NULL,
    "countedMonth" TEXT,
    "monthVerifications" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("shopId", "phone"),
    CONSTRAINT "VerifiedCustomer_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_VerifiedCustomer" ("phone", "shopId", "verifiedAt") SELECT "phone", "shopId", "verifiedAt" FROM "VerifiedCustomer";
DROP TABLE "VerifiedCustomer";
ALTER TABLE "new_VerifiedCustomer" RENAME TO "VerifiedCustomer";
CREATE INDEX "VerifiedCustomer_shopId_verifiedAt_idx" ON "VerifiedCustomer"("shopId", "verifiedAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

