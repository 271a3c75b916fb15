-- CreateTable
CREATE TABLE "MessageDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "providerId" TEXT,
    "status" TEXT NOT NULL,
    "errorCode" INTEGER,
    "fallbackBody" TEXT,
    "fallbackUntil" BIGINT,
    "fallbackOf" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "MessageDelivery_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Shop" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "domain" TEXT NOT NULL,
    "name" TEXT,
    "primaryDomain" TEXT,
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
    "paymentModes" TEXT NOT NULL DEFAULT 'cod,prepaid,partial',
    "depositsAvailable" BOOLEAN,
    "codFeeType" TEXT NOT NULL DEFAULT 'none',
    "codFeeValue" REAL NOT NULL DEFAULT 0,
    "codFeeVariantId" TEXT,
    "prepaidDiscountType" TEXT NOT NULL DEFAULT 'none',
    "prepaidDiscountValue" REAL NOT NULL DEFAULT 0,
    "discountCodeCod" TEXT,
    "discountCodePrepaid" TEXT,
    "discountCodePartial" TEXT,
    "depositType" TEXT NOT NULL DEFAULT 'percentage',
    "depositValue" REAL NOT NULL DEFAULT 20,
    "tagOrders" BOOLEAN NOT NULL DEFAULT true,
    "tagVerified" TEXT NOT NULL DEFAULT 'cod-verified',
    "tagUnverified" TEXT NOT NULL DEFAULT 'cod-unverified',
    "tagModePrefix" TEXT NOT NULL DEFAULT 'payment-mode:',
    "addressCorrectionTtlHours" INTEGER NOT NULL DEFAULT 72,
    "autoAddressCorrection" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Shop" ("addressCorrectionTtlHours", "allowedCountries", "autoAddressCorrection", "createdAt", "currency", "dailySendCap", "depositType", "depositValue", "discountCodeCod", "discountCodePartial", "discountCodePrepaid", "domain", "id", "installedAt", "locale", "name", "otpEnabled", "otpMaxAttempts", "otpResendCooldownSeconds", "otpSendLimit", "otpSendWindowSeconds", "otpTtlSeconds", "returningSkipDays", "smsChannel", "smsTemplate", "subscriptionId", "subscriptionPlan", "subscriptionStatus", "subscriptionTest", "tagModePrefix", "tagOrders", "tagUnverified", "tagVerified", "uninstalledAt", "updatedAt") SELECT "addressCorrectionTtlHours", "allowedCountries", "autoAddressCorrection", "createdAt", "currency", "dailySendCap", "depositType", "depositValue", "discountCodeCod", "discountCodePartial", "discountCodePrepaid", "domain", "id", "installedAt", "locale", "name", "otpEnabled", "otpMaxAttempts", "otpResendCooldownSeconds", "otpSendLimit", "otpSendWindowSeconds", "otpTtlSeconds", "returningSkipDays", "smsChannel", "smsTemplate", "subscriptionId", "subscriptionPlan", "subscriptionStatus", "subscriptionTest", "tagModePrefix", "tagOrders", "tagUnverified", "tagVerified", "uninstalledAt", "updatedAt" FROM "Shop";
DROP TABLE "Shop";
ALTER TABLE "new_Shop" RENAME TO "Shop";
CREATE UNIQUE INDEX "Shop_domain_key" ON "Shop"("domain");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "MessageDelivery_providerId_key" ON "MessageDelivery"("providerId");

-- CreateIndex
CREATE INDEX "MessageDelivery_shopId_createdAt_idx" ON "MessageDelivery"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "MessageDelivery_shopId_phone_idx" ON "MessageDelivery"("shopId", "phone");

