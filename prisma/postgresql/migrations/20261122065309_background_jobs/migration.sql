-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "lockedUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "doneAt" TIMESTAMP(3),
    "failedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Job_nextAttemptAt_idx" ON "Job"("nextAttemptAt");

-- CreateIndex
CREATE INDEX "Job_shop_idx" ON "Job"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "Job_kind_key_key" ON "Job"("kind", "key");

-- Copy the queued and finished order-tag jobs into the one job table (kind "order-tags").
INSERT INTO "Job" ("id", "kind", "key", "shop", "payload", "attempts", "nextAttemptAt", "lockedUntil", "lastError", "doneAt", "failedAt", "createdAt", "updatedAt")
SELECT "id", 'order-tags', "shop" || '|' || "orderGid", "shop", json_build_object('orderGid', "orderGid", 'tags', "tags"::json)::text, "attempts", "nextAttemptAt", "lockedUntil", "lastError", "doneAt", "failedAt", "createdAt", "updatedAt"
FROM "OrderTagJob";

-- DropTable
DROP TABLE "OrderTagJob";

