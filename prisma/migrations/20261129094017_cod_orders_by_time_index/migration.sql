-- CreateIndex
CREATE INDEX "OrderRecord_shopId_cod_placedAt_idx" ON "OrderRecord"("shopId", "cod", "placedAt");

