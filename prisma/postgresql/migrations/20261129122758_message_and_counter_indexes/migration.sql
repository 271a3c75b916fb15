-- DropIndex
DROP INDEX "RateCounter_expiresAt_idx";

-- DropIndex
DROP INDEX "OtpChallenge_expiresAt_idx";

-- DropIndex
DROP INDEX "MessageDelivery_providerId_key";

-- DropIndex
DROP INDEX "MessageDelivery_shopId_orderGid_idx";

-- DropIndex
DROP INDEX "MessageDelivery_shopId_purpose_phone_idx";


-- Hand-written: Prisma's schema cannot express a partial index; the same statements for both engines.
-- A code's text (send-otp, the hot path) names no order, has no provider id until Twilio takes it and is
-- not a merchant's test: with these three partial, its record writes none of them (SQLite wrote every index
-- page again at each commit, PostgreSQL an entry in each on the insert and again on the provider id's update).
-- The lookups they serve all name a value (`= ?`, `IN (...)`, a join on equality), which implies NOT NULL.
CREATE UNIQUE INDEX "MessageDelivery_providerId_key" ON "MessageDelivery"("providerId") WHERE "providerId" IS NOT NULL;
CREATE INDEX "MessageDelivery_shopId_orderGid_idx" ON "MessageDelivery"("shopId", "orderGid") WHERE "orderGid" IS NOT NULL;
-- The burn watch's count of the merchant's own test phones, on every counted verification.
CREATE INDEX "MessageDelivery_merchant_test_idx" ON "MessageDelivery"("shopId", "phone") WHERE "purpose" = 'merchant_test';
