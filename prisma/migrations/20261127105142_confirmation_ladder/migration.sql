-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "ladderPersonMinutes" INTEGER;
ALTER TABLE "Shop" ADD COLUMN "ladderSmsMinutes" INTEGER;
ALTER TABLE "Shop" ADD COLUMN "ladderVoiceMinutes" INTEGER;
ALTER TABLE "Shop" ADD COLUMN "ladderWhatsappMinutes" INTEGER;
ALTER TABLE "Shop" ADD COLUMN "quietHoursEnd" INTEGER;
ALTER TABLE "Shop" ADD COLUMN "quietHoursStart" INTEGER;
ALTER TABLE "Shop" ADD COLUMN "timezone" TEXT;

-- AlterTable
ALTER TABLE "OrderConfirmation" ADD COLUMN "ladder" TEXT;
ALTER TABLE "OrderConfirmation" ADD COLUMN "personAt" DATETIME;
ALTER TABLE "OrderConfirmation" ADD COLUMN "settledBy" TEXT;

-- CreateTable
CREATE TABLE "ConfirmationRung" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "confirmationId" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "rung" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'due',
    "detail" TEXT,
    "providerId" TEXT,
    "dueAt" DATETIME NOT NULL,
    "sentAt" DATETIME,
    "endedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ConfirmationRung_confirmationId_fkey" FOREIGN KEY ("confirmationId") REFERENCES "OrderConfirmation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PersonAction" (
    "confirmationId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("confirmationId", "action"),
    CONSTRAINT "PersonAction_confirmationId_fkey" FOREIGN KEY ("confirmationId") REFERENCES "OrderConfirmation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ContactOptOut" (
    "shopId" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("shopId", "phone", "channel"),
    CONSTRAINT "ContactOptOut_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "ConfirmationRung_providerId_key" ON "ConfirmationRung"("providerId");

-- CreateIndex
CREATE UNIQUE INDEX "ConfirmationRung_confirmationId_rung_key" ON "ConfirmationRung"("confirmationId", "rung");

