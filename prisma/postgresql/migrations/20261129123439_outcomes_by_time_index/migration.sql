-- CreateIndex
CREATE INDEX "OrderOutcome_shopId_decidedAt_outcome_idx" ON "OrderOutcome"("shopId", "decidedAt", "outcome");

