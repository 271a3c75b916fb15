-- CreateTable
CREATE TABLE "InboundKeyword" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "keyword" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "InboundKeyword_createdAt_idx" ON "InboundKeyword"("createdAt");

