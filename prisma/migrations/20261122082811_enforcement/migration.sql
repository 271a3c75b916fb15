-- CreateTable
CREATE TABLE "OrderConfirmation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT,
    "customerGid" TEXT,
    "phone" TEXT,
    "tokenHash" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "hold" BOOLEAN NOT NULL DEFAULT false,
    "holds" TEXT,
    "holdsReleasedAt" DATETIME,
    "locale" TEXT,
    "deadlineAt" DATETIME NOT NULL,
    "notifiedAt" DATETIME,
    "confirmedAt" DATETIME,
    "closedAt" DATETIME,
    "cancelledAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "OrderConfirmation_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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
    "enforceAtCheckout" BOOLEAN NOT NULL DEFAULT true,
    "codMethodNames" TEXT NOT NULL DEFAULT 'Cash on Delivery (COD)',
    "holdUnverifiedCod" BOOLEAN NOT NULL DEFAULT false,
    "confirmDeadlineHours" INTEGER NOT NULL DEFAULT 24,
    "cancelUnconfirmed" BOOLEAN NOT NULL DEFAULT false,
    "paymentCustomizationId" TEXT,
    "paymentCustomizationEnabled" BOOLEAN NOT NULL DEFAULT false,
    "paymentCustomizationSyncedAt" DATETIME,
    "paymentCustomizationError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Shop" ("addressCorrectionTtlHours", "allowedCountries", "autoAddressCorrection", "codFeeType", "codFeeValue", "codFeeVariantId", "createdAt", "currency", "dailySendCap", "depositType", "depositValue", "depositsAvailable", "discountCodeCod", "discountCodePartial", "discountCodePrepaid", "domain", "id", "installedAt", "locale", "name", "otpEnabled", "otpMaxAttempts", "otpResendCooldownSeconds", "otpSendLimit", "otpSendWindowSeconds", "otpTtlSeconds", "paymentModes", "prepaidDiscountType", "prepaidDiscountValue", "primaryDomain", "returningSkipDays", "smsChannel", "smsTemplate", "subscriptionId", "subscriptionPlan", "subscriptionStatus", "subscriptionTest", "tagModePrefix", "tagOrders", "tagUnverified", "tagVerified", "uninstalledAt", "updatedAt") SELECT "addressCorrectionTtlHours", "allowedCountries", "autoAddressCorrection", "codFeeType", "codFeeValue", "codFeeVariantId", "createdAt", "currency", "dailySendCap", "depositType", "depositValue", "depositsAvailable", "discountCodeCod", "discountCodePartial", "discountCodePrepaid", "domain", "id", "installedAt", "locale", "name", "otpEnabled", "otpMaxAttempts", "otpResendCooldownSeconds", "otpSendLimit", "otpSendWindowSeconds", "otpTtlSeconds", "paymentModes", "prepaidDiscountType", "prepaidDiscountValue", "primaryDomain", "returningSkipDays", "smsChannel", "smsTemplate", "subscriptionId", "subscriptionPlan", "subscriptionStatus", "subscriptionTest", "tagModePrefix", "tagOrders", "tagUnverified", "tagVerified", "uninstalledAt", "updatedAt" FROM "Shop";
DROP TABLE "Shop";
ALTER TABLE "new_Shop" RENAME TO "Shop";
CREATE UNIQUE INDEX "Shop_domain_key" ON "Shop"("domain");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "OrderConfirmation_tokenHash_key" ON "OrderConfirmation"("tokenHash");

-- CreateIndex
CREATE INDEX "OrderConfirmation_status_deadlineAt_idx" ON "OrderConfirmation"("status", "deadlineAt");

-- CreateIndex
CREATE UNIQUE INDEX "OrderConfirmation_shopId_orderGid_key" ON "OrderConfirmation"("shopId", "orderGid");

