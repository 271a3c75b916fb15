-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "topic" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "OrderTagJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "tags" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL,
    "lockedUntil" DATETIME,
    "lastError" TEXT,
    "doneAt" DATETIME,
    "failedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Shop" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "domain" TEXT NOT NULL,
    "name" TEXT,
    "locale" TEXT NOT NULL DEFAULT 'en',
    "currency" TEXT,
    "installedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" DATETIME,
    "subscriptionStatus" TEXT NOT NULL DEFAULT 'none',
    "subscriptionId" TEXT,
    "subscriptionPlan" TEXT,
    "subscriptionTest" BOOLEAN NOT NULL DEFAULT false,
    "otpEnabled" BOOLEAN NOT NULL DEFAULT true,
    "returningSkipDays" INTEGER NOT NULL DEFAULT 90,
    "otpSendLimit" INTEGER NOT NULL DEFAULT 3,
    "otpSendWindowSeconds" INTEGER NOT NULL DEFAULT 600,
    "otpTtlSeconds" INTEGER NOT NULL DEFAULT 600,
    "otpResendCooldownSeconds" INTEGER NOT NULL DEFAULT 30,
    "otpMaxAttempts" INTEGER NOT NULL DEFAULT 5,
    "dailySendCap" INTEGER NOT NULL DEFAULT 1000,
    "allowedCountries" TEXT NOT NULL DEFAULT '',
    "smsChannel" TEXT NOT NULL DEFAULT 'sms',
    "smsTemplate" TEXT,
    "discountCodeCod" TEXT,
    "discountCodePrepaid" TEXT,
    "discountCodePartial" TEXT,
    "depositType" TEXT NOT NULL DEFAULT 'percentage',
    "depositValue" REAL NOT NULL DEFAULT 20,
    "tagOrders" BOOLEAN NOT NULL DEFAULT true,
    "tagVerified" TEXT NOT NULL DEFAULT 'cod-verified',
    "tagUnverified" TEXT NOT NULL DEFAULT 'cod-unverified',
    "tagModePrefix" TEXT NOT NULL DEFAULT 'payment-mode:',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Shop" ("allowedCountries", "createdAt", "currency", "dailySendCap", "domain", "id", "installedAt", "locale", "name", "otpEnabled", "otpMaxAttempts", "otpResendCooldownSeconds", "otpSendLimit", "otpSendWindowSeconds", "otpTtlSeconds", "returningSkipDays", "smsChannel", "smsTemplate", "subscriptionId", "subscriptionPlan", "subscriptionStatus", "subscriptionTest", "uninstalledAt", "updatedAt") SELECT "allowedCountries", "createdAt", "currency", "dailySendCap", "domain", "id", "installedAt", "locale", "name", "otpEnabled", "otpMaxAttempts", "otpResendCooldownSeconds", "otpSendLimit", "otpSendWindowSeconds", "otpTtlSeconds", "returningSkipDays", "smsChannel", "smsTemplate", "subscriptionId", "subscriptionPlan", "subscriptionStatus", "subscriptionTest", "uninstalledAt", "updatedAt" FROM "Shop";
DROP TABLE "Shop";
ALTER TABLE "new_Shop" RENAME TO "Shop";
CREATE UNIQUE INDEX "Shop_domain_key" ON "Shop"("domain");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "WebhookDelivery_shop_idx" ON "WebhookDelivery"("shop");

-- CreateIndex
CREATE INDEX "OrderTagJob_nextAttemptAt_idx" ON "OrderTagJob"("nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "OrderTagJob_shop_orderGid_key" ON "OrderTagJob"("shop", "orderGid");

