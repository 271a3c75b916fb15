-- CreateTable
CREATE TABLE "DeliveryReminder" (
    "shopId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "phone" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "note" TEXT,
    "sendingAt" DATETIME,
    "sentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("shopId", "orderGid"),
    CONSTRAINT "DeliveryReminder_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DeliveryRecovery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT,
    "phone" TEXT,
    "locale" TEXT,
    "tokenHash" TEXT NOT NULL,
    "cause" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "choice" TEXT,
    "choiceDate" TEXT,
    "newPhone" TEXT,
    "notifiedAt" DATETIME,
    "answeredAt" DATETIME,
    "writtenAt" DATETIME,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "DeliveryRecovery_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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
    "burnMonth" TEXT,
    "burnSeenAt" DATETIME,
    "burnDetail" TEXT,
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
    "storefrontReadyAt" DATETIME,
    "storefrontReadyBy" TEXT,
    "riskMediumThreshold" INTEGER NOT NULL DEFAULT 20,
    "riskHighThreshold" INTEGER NOT NULL DEFAULT 60,
    "riskDeniedPostalCodes" TEXT NOT NULL DEFAULT '',
    "riskPrepaidPhones" TEXT NOT NULL DEFAULT '',
    "riskCodValueCap" REAL,
    "riskPhoneCodeLimit" INTEGER,
    "riskIpAttemptLimit" INTEGER,
    "riskPhoneOrderLimit" INTEGER,
    "riskIpOrderLimit" INTEGER,
    "riskFailureTags" TEXT NOT NULL DEFAULT 'RTO, returned, refused',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "recordRetentionDays" INTEGER NOT NULL DEFAULT 365,
    "prepaidOffer" BOOLEAN NOT NULL DEFAULT false,
    "prepaidOfferIncentiveType" TEXT NOT NULL DEFAULT 'none',
    "prepaidOfferIncentiveValue" REAL NOT NULL DEFAULT 0,
    "prepaidOfferIncentiveCap" REAL,
    "riskPrepaidSources" TEXT NOT NULL DEFAULT '',
    "ladderWhatsappMinutes" INTEGER,
    "ladderSmsMinutes" INTEGER,
    "ladderVoiceMinutes" INTEGER,
    "ladderPersonMinutes" INTEGER,
    "quietHoursStart" INTEGER,
    "quietHoursEnd" INTEGER,
    "timezone" TEXT,
    "codFailureCost" REAL,
    "messageCost" REAL,
    "developmentStore" BOOLEAN NOT NULL DEFAULT false,
    "deliveryReminder" BOOLEAN NOT NULL DEFAULT true,
    "deliveryRecovery" BOOLEAN NOT NULL DEFAULT true,
    "deliveryFailureTags" TEXT NOT NULL DEFAULT 'NDR',
    "storeContact" TEXT
);
INSERT INTO "new_Shop" ("addressCorrectionTtlHours", "allowedCountries", "autoAddressCorrection", "burnDetail", "burnMonth", "burnSeenAt", "cancelOnWhatsappCancel", "cancelUnconfirmed", "codFailureCost", "codFeeType", "codFeeValue", "codFeeVariantId", "codMethodNames", "codMethodNamesConfirmedAt", "confirmDeadlineHours", "country", "createdAt", "currency", "dailySendCap", "depositType", "depositValue", "depositsAvailable", "developmentStore", "discountCodeCod", "discountCodePartial", "discountCodePrepaid", "domain", "enforceAtCheckout", "holdUnverifiedCod", "id", "installedAt", "keepCodHiddenWhenPaused", "ladderPersonMinutes", "ladderSmsMinutes", "ladderVoiceMinutes", "ladderWhatsappMinutes", "linkDomain", "linksOnWhatsapp", "locale", "messageCost", "name", "otpChannelChoice", "otpEnabled", "otpMaxAttempts", "otpResendCooldownSeconds", "otpSendLimit", "otpSendWindowSeconds", "otpTtlSeconds", "paymentCustomizationEnabled", "paymentCustomizationError", "paymentCustomizationId", "paymentCustomizationSyncedAt", "paymentModes", "prepaidDiscountType", "prepaidDiscountValue", "prepaidOffer", "prepaidOfferIncentiveCap", "prepaidOfferIncentiveType", "prepaidOfferIncentiveValue", "primaryDomain", "quietHoursEnd", "quietHoursStart", "recordRetentionDays", "returningSkipDays", "riskCodValueCap", "riskDeniedPostalCodes", "riskFailureTags", "riskHighThreshold", "riskIpAttemptLimit", "riskIpOrderLimit", "riskMediumThreshold", "riskPhoneCodeLimit", "riskPhoneOrderLimit", "riskPrepaidPhones", "riskPrepaidSources", "smsChannel", "smsPrices", "smsTemplate", "storefrontReadyAt", "storefrontReadyBy", "subscriptionId", "subscriptionPlan", "subscriptionStatus", "subscriptionTest", "tagModePrefix", "tagOrders", "tagUnverified", "tagVerified", "testCodeSentAt", "timezone", "uninstalledAt", "updatedAt", "usageChargesEnabled", "usageChargesRefused", "whatsappConfirmation", "whatsappReplyMinutes") SELECT "addressCorrectionTtlHours", "allowedCountries", "autoAddressCorrection", "burnDetail", "burnMonth", "burnSeenAt", "cancelOnWhatsappCancel", "cancelUnconfirmed", "codFailureCost", "codFeeType", "codFeeValue", "codFeeVariantId", "codMethodNames", "codMethodNamesConfirmedAt", "confirmDeadlineHours", "country", "createdAt", "currency", "dailySendCap", "depositType", "depositValue", "depositsAvailable", "developmentStore", "discountCodeCod", "discountCodePartial", "discountCodePrepaid", "domain", "enforceAtCheckout", "holdUnverifiedCod", "id", "installedAt", "keepCodHiddenWhenPaused", "ladderPersonMinutes", "ladderSmsMinutes", "ladderVoiceMinutes", "ladderWhatsappMinutes", "linkDomain", "linksOnWhatsapp", "locale", "messageCost", "name", "otpChannelChoice", "otpEnabled", "otpMaxAttempts", "otpResendCooldownSeconds", "otpSendLimit", "otpSendWindowSeconds", "otpTtlSeconds", "paymentCustomizationEnabled", "paymentCustomizationError", "paymentCustomizationId", "paymentCustomizationSyncedAt", "paymentModes", "prepaidDiscountType", "prepaidDiscountValue", "prepaidOffer", "prepaidOfferIncentiveCap", "prepaidOfferIncentiveType", "prepaidOfferIncentiveValue", "primaryDomain", "quietHoursEnd", "quietHoursStart", "recordRetentionDays", "returningSkipDays", "riskCodValueCap", "riskDeniedPostalCodes", "riskFailureTags", "riskHighThreshold", "riskIpAttemptLimit", "riskIpOrderLimit", "riskMediumThreshold", "riskPhoneCodeLimit", "riskPhoneOrderLimit", "riskPrepaidPhones", "riskPrepaidSources", "smsChannel", "smsPrices", "smsTemplate", "storefrontReadyAt", "storefrontReadyBy", "subscriptionId", "subscriptionPlan", "subscriptionStatus", "subscriptionTest", "tagModePrefix", "tagOrders", "tagUnverified", "tagVerified", "testCodeSentAt", "timezone", "uninstalledAt", "updatedAt", "usageChargesEnabled", "usageChargesRefused", "whatsappConfirmation", "whatsappReplyMinutes" FROM "Shop";
DROP TABLE "Shop";
ALTER TABLE "new_Shop" RENAME TO "Shop";
CREATE UNIQUE INDEX "Shop_domain_key" ON "Shop"("domain");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "DeliveryReminder_shopId_createdAt_idx" ON "DeliveryReminder"("shopId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "DeliveryRecovery_tokenHash_key" ON "DeliveryRecovery"("tokenHash");

-- CreateIndex
CREATE INDEX "DeliveryRecovery_shopId_status_createdAt_idx" ON "DeliveryRecovery"("shopId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "DeliveryRecovery_shopId_createdAt_idx" ON "DeliveryRecovery"("shopId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "DeliveryRecovery_shopId_orderGid_key" ON "DeliveryRecovery"("shopId", "orderGid");

