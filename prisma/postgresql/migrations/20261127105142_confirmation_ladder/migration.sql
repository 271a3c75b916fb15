-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "ladderPersonMinutes" INTEGER,
ADD COLUMN     "ladderSmsMinutes" INTEGER,
ADD COLUMN     "ladderVoiceMinutes" INTEGER,
ADD COLUMN     "ladderWhatsappMinutes" INTEGER,
ADD COLUMN     "quietHoursEnd" INTEGER,
ADD COLUMN     "quietHoursStart" INTEGER,
ADD COLUMN     "timezone" TEXT;

-- AlterTable
ALTER TABLE "OrderConfirmation" ADD COLUMN     "ladder" TEXT,
ADD COLUMN     "personAt" TIMESTAMP(3),
ADD COLUMN     "settledBy" TEXT;

-- CreateTable
CREATE TABLE "ConfirmationRung" (
    "id" TEXT NOT NULL,
    "confirmationId" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "rung" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'due',
    "detail" TEXT,
    "providerId" TEXT,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "sentAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConfirmationRung_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PersonAction" (
    "confirmationId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PersonAction_pkey" PRIMARY KEY ("confirmationId","action")
);

-- CreateTable
CREATE TABLE "ContactOptOut" (
    "shopId" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContactOptOut_pkey" PRIMARY KEY ("shopId","phone","channel")
);

-- CreateIndex
CREATE UNIQUE INDEX "ConfirmationRung_providerId_key" ON "ConfirmationRung"("providerId");

-- CreateIndex
CREATE UNIQUE INDEX "ConfirmationRung_confirmationId_rung_key" ON "ConfirmationRung"("confirmationId", "rung");

-- AddForeignKey
ALTER TABLE "ConfirmationRung" ADD CONSTRAINT "ConfirmationRung_confirmationId_fkey" FOREIGN KEY ("confirmationId") REFERENCES "OrderConfirmation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonAction" ADD CONSTRAINT "PersonAction_confirmationId_fkey" FOREIGN KEY ("confirmationId") REFERENCES "OrderConfirmation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ContactOptOut" ADD CONSTRAINT "ContactOptOut_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

