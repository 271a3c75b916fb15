-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" TIMESTAMP(3),
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "collaborator" BOOLEAN DEFAULT false,
    "emailVerified" BOOLEAN DEFAULT false,
    "refreshToken" TEXT,
    "refreshTokenExpires" TIMESTAMP(3),

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Shop" (
    "id" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "name" TEXT,
    "locale" TEXT NOT NULL DEFAULT 'en',
    "currency" TEXT,
    "installedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" TIMESTAMP(3),
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
    "depositValue" DOUBLE PRECISION NOT NULL DEFAULT 20,
    "tagOrders" BOOLEAN NOT NULL DEFAULT true,
    "tagVerified" TEXT NOT NULL DEFAULT 'cod-verified',
    "tagUnverified" TEXT NOT NULL DEFAULT 'cod-unverified',
    "tagModePrefix" TEXT NOT NULL DEFAULT 'payment-mode:',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Shop_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VerifiedCustomer" (
    "shopId" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "verifiedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VerifiedCustomer_pkey" PRIMARY KEY ("shopId","phone")
);

-- CreateTable
CREATE TABLE "Selection" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "verified" BOOLEAN NOT NULL DEFAULT false,
    "verifiedAt" TIMESTAMP(3),
    "cartToken" TEXT,
    "checkoutUrl" TEXT,
    "draftOrderGid" TEXT,
    "items" TEXT,
    "source" TEXT NOT NULL,
    "orderGid" TEXT,
    "orderName" TEXT,
    "linkedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Selection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RateCounter" (
    "key" TEXT NOT NULL,
    "windowStart" BIGINT NOT NULL,
    "count" INTEGER NOT NULL,
    "expiresAt" BIGINT NOT NULL,

    CONSTRAINT "RateCounter_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderTagJob" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "tags" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "lockedUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "doneAt" TIMESTAMP(3),
    "failedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrderTagJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OtpChallenge" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "sentAt" BIGINT NOT NULL,
    "expiresAt" BIGINT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL,

    CONSTRAINT "OtpChallenge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BlockedPhone" (
    "shopId" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "reason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BlockedPhone_pkey" PRIMARY KEY ("shopId","phone")
);

-- CreateIndex
CREATE INDEX "Session_shop_idx" ON "Session"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "Shop_domain_key" ON "Shop"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "Selection_orderGid_key" ON "Selection"("orderGid");

-- CreateIndex
CREATE INDEX "Selection_shopId_phone_createdAt_idx" ON "Selection"("shopId", "phone", "createdAt");

-- CreateIndex
CREATE INDEX "Selection_shopId_cartToken_idx" ON "Selection"("shopId", "cartToken");

-- CreateIndex
CREATE INDEX "RateCounter_expiresAt_idx" ON "RateCounter"("expiresAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_shop_idx" ON "WebhookDelivery"("shop");

-- CreateIndex
CREATE INDEX "OrderTagJob_nextAttemptAt_idx" ON "OrderTagJob"("nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "OrderTagJob_shop_orderGid_key" ON "OrderTagJob"("shop", "orderGid");

-- CreateIndex
CREATE INDEX "OtpChallenge_expiresAt_idx" ON "OtpChallenge"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "OtpChallenge_shopId_phone_key" ON "OtpChallenge"("shopId", "phone");

-- AddForeignKey
ALTER TABLE "VerifiedCustomer" ADD CONSTRAINT "VerifiedCustomer_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Selection" ADD CONSTRAINT "Selection_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OtpChallenge" ADD CONSTRAINT "OtpChallenge_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BlockedPhone" ADD CONSTRAINT "BlockedPhone_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

