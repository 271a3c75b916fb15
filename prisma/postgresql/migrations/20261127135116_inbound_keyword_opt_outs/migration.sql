-- CreateTable
CREATE TABLE "InboundKeyword" (
    "id" TEXT NOT NULL,
    "keyword" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InboundKeyword_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "InboundKeyword_createdAt_idx" ON "InboundKeyword"("createdAt");

