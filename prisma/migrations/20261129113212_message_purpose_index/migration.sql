-- CreateIndex
CREATE INDEX "MessageDelivery_shopId_purpose_phone_idx" ON "MessageDelivery"("shopId", "purpose", "phone");

