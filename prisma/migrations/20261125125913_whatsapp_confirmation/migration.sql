-- AlterTable
ALTER TABLE "MessageDelivery" ADD COLUMN "orderGid" TEXT;

-- CreateTable
CREATE TABLE "WhatsappReply" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "repliedTo" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "sender" TEXT,
    "outcome" TEXT,
    "doneAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WhatsappReply_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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
    "country" TEXT,
    "installedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" DATETIME,
    "subscriptionStatus" TEXT NOT NULL DEFAULT 'none',
    "subscriptionId" TEXT,
    "subscriptionPlan" TEXT,
    "subscriptionTest" BOOLEAN NOT NULL DEFAULT false,
    "codMethodNamesConfirmedAt" DATETIME,
    "testCodeSentAt" DATETIME,
    "smsPrices" TEXT,
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
    "keepCodHiddenWhenPaused" BOOLEAN NOT NULL DEFAULT false,
    "usageChargesEnabled" BOOLEAN NOT NULL DEFAULT false,
    "usageChargesRefused" TEXT,
    "codMethodNames" TEXT NOT NULL DEFAULT 'Cash on Delivery (COD)',
    "holdUnverifiedCod" BOOLEAN NOT NULL DEFAULT false,
    "confirmDeadlineHours" INTEGER NOT NULL DEFAULT 24,
    "cancelUnconfirmed" BOOLEAN NOT NULL DEFAULT false,
    "whatsappConfirmation" TEXT NOT NULL DEFAULT 'off',
    "whatsappReplyMinutes" INTEGER NOT NULL DEFAULT 60,
    "cancelOnWhatsappCancel" BOOLEAN NOT NULL DEFAULT false,
    "otpChannelChoice" BOOLEAN NOT NULL DEFAULT false,
    "linksOnWhatsapp" BOOLEAN NOT NULL DEFAULT false,
    "linkDomain" TEXT,
    "paymentCustomizationId" TEXT,
    "paymentCustomizationEnabled" BOOLEAN NOT NULL DEFAULT false,
    "paymentCustomizationSyncedAt" DATETIME,
    "paymentCustomizationError" TEXT,
    "riskMediumThreshold" INTEGER NOT NULL DEFAULT 20,
    "riskHighThreshold" INTEGER NOT NULL DEFAULT 60,
    "riskDeniedPostalCodes" TEXT NOT NULL DEFAULT '',
    "riskPrepaidPhones" TEXT NOT NULL DEFAULT '',
    "riskCodValueCap" REAL,
    "riskPhoneCodeLimit" INTEGER,
    "riskIpAttemptLimit" INTEGER,
    "riskPhoneOrderLimit" INTEGER,
    "riskFailureTags" TEXT NOT NULL DEFAULT 'RTO, returned, refused',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "recordRetentionDays" INTEGER NOT NULL DEFAULT 365
);
INSERT INTO "new_Shop" ("addressCorrectionTtlHours", "allowedCountries", "autoAddressCorrection", "cancelUnconfirmed", "codFeeType", "codFeeValue", "codFeeVariantId", "codMethodNames", "codMethodNamesConfirmedAt", "confirmDeadlineHours", "country", "createdAt", "currency", "dailySendCap", "depositType", "depositValue", "depositsAvailable", "discountCodeCod", "discountCodePartial", "discountCodePrepaid", "domain", "enforceAtCheckout", "holdUnverifiedCod", "id", "installedAt", "keepCodHiddenWhenPaused", "locale", "name", "otpEnabled", "otpMaxAttempts", "otpResendCooldownSeconds", "otpSendLimit", "otpSendWindowSeconds", "otpTtlSeconds", "paymentCustomizationEnabled", "paymentCustomizationError", "paymentCustomizationId", "paymentCustomizationSyncedAt", "paymentModes", "prepaidDiscountType", "prepaidDiscountValue", "primaryDomain", "recordRetentionDays", "returningSkipDays", "riskCodValueCap", "riskDeniedPostalCodes", "riskFailureTags", "riskHighThreshold", "riskIpAttemptLimit", "riskMediumThreshold", "riskPhoneCodeLimit", "riskPhoneOrderLimit", "riskPrepaidPhones", "smsChannel", "smsPrices", "smsTemplate", "subscriptionId", "subscriptionPlan", "subscriptionStatus", "subscriptionTest", "tagModePrefix", "tagOrders", "tagUnverified", "tagVerified", "testCodeSentAt", "uninstalledAt", "updatedAt", "usageChargesEnabled", "usageChargesRefused") SELECT "addressCorrectionTtlHours", "allowedCountries", "autoAddressCorrection", "cancelUnconfirmed", "codFeeType", "codFeeValue", "codFeeVariantId", "codMethodNames", "codMethodNamesConfirmedAt", "confirmDeadlineHours", "country", "createdAt", "currency", "dailySendCap", "depositType", "depositValue", "depositsAvailable", "discountCodeCod", "discountCodePartial", "discountCodePrepaid", "domain", "enforceAtCheckout", "holdUnverifiedCod", "id", "installedAt", "keepCodHiddenWhenPaused", "locale", "name", "otpEnabled", "otpMaxAttempts", "otpResendCooldownSeconds", "otpSendLimit", "otpSendWindowSeconds", "otpTtlSeconds", "paymentCustomizationEnabled", "paymentCustomizationError", "paymentCustomizationId", "paymentCustomizationSyncedAt", "paymentModes", "prepaidDiscountType", "prepaidDiscountValue", "primaryDomain", "recordRetentionDays", "returningSkipDays", "riskCodValueCap", "riskDeniedPostalCodes", "riskFailureTags", "riskHighThreshold", "riskIpAttemptLimit", "riskMediumThreshold", "riskPhoneCodeLimit", "riskPhoneOrderLimit", "riskPrepaidPhones", "smsChannel", "smsPrices", "smsTemplate", "subscriptionId", "subscriptionPlan", "subscriptionStatus", "subscriptionTest", "tagModePrefix", "tagOrders", "tagUnverified", "tagVerified", "testCodeSentAt", "uninstalledAt", "updatedAt", "usageChargesEnabled", "usageChargesRefused" FROM "Shop";
DROP TABLE "Shop";
ALTER TABLE "new_Shop" RENAME TO "Shop";
CREATE UNIQUE INDEX "Shop_domain_key" ON "Shop"("domain");
CREATE TABLE "new_OrderConfirmation" (
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
    "disputedAt" DATETIME,
    "kind" TEXT NOT NULL DEFAULT 'verify',
    "answer" TEXT,
    "whatsappAt" DATETIME,
    "smsLinkAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "OrderConfirmation_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_OrderConfirmation" ("cancelledAt", "closedAt", "confirmedAt", "createdAt", "customerGid", "deadlineAt", "disputedAt", "hold", "holds", "holdsReleasedAt", "id", "locale", "notifiedAt", "orderGid", "orderName", "phone", "shopId", "status", "tokenHash", "updatedAt") SELECT "cancelledAt", "closedAt", "confirmedAt", "createdAt", "customerGid", "deadlineAt", "disputedAt", "hold", "holds", "holdsReleasedAt", "id", "locale", "notifiedAt", "orderGid", "orderName", "phone", "shopId", "status", "tokenHash", "updatedAt" FROM "OrderConfirmation";
DROP TABLE "OrderConfirmation";
ALTER TABLE "new_OrderConfirmation" RENAME TO "OrderConfirmation";
CREATE UNIQUE INDEX "OrderConfirmation_tokenHash_key" ON "OrderConfirmation"("tokenHash");
CREATE INDEX "OrderConfirmation_status_deadlineAt_idx" ON "OrderConfirmation"("status", "deadlineAt");
CREATE INDEX "OrderConfirmation_shopId_createdAt_idx" ON "OrderConfirmation"("shopId", "createdAt");
CREATE UNIQUE INDEX "OrderConfirmation_shopId_orderGid_key" ON "OrderConfirmation"("shopId", "orderGid");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "WhatsappReply_shopId_orderGid_idx" ON "WhatsappReply"("shopId", "orderGid");

-- CreateIndex
CREATE INDEX "WhatsappReply_shopId_createdAt_idx" ON "WhatsappReply"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "MessageDelivery_shopId_orderGid_idx" ON "MessageDelivery"("shopId", "orderGid");

