-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL,
    "lockedUntil" DATETIME,
    "lastError" TEXT,
    "doneAt" DATETIME,
    "failedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "Job_nextAttemptAt_idx" ON "Job"("nextAttemptAt");

-- CreateIndex
CREATE INDEX "Job_shop_idx" ON "Job"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "Job_kind_key_key" ON "Job"("kind", "key");

-- Copy the queued and finished order-tag jobs into the one job table (kind "order-tags").
INSERT INTO "Job" ("id", "kind", "key", "shop", "payload", "attempts", "nextAttemptAt", "lockedUntil", "lastError", "doneAt", "failedAt", "createdAt", "updatedAt")
SELECT "id", 'order-tags', "shop" || '|' || "orderGid", "shop", json_object('orderGid', "orderGid", 'tags', json("tags")), "attempts", "nextAttemptAt", "lockedUntil", "lastError", "doneAt", "failedAt", "createdAt", "updatedAt"
FROM "OrderTagJob";

-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "OrderTagJob";
PRAGMA foreign_keys=on;

