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

-- AddForeignKey
ALTER TABLE "VerifiedCustomer" ADD CONSTRAINT "VerifiedCustomer_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Selection" ADD CONSTRAINT "Selection_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

