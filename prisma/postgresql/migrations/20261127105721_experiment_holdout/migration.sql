-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "codFailureCost" DOUBLE PRECISION,
ADD COLUMN     "messageCost" DOUBLE PRECISION;

-- CreateTable
CREATE TABLE "Experiment" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "runningShopId" TEXT,
    "holdoutShare" DOUBLE PRECISION NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "endsAt" TIMESTAMP(3),
    "stoppedAt" TIMESTAMP(3),
    "horizon" INTEGER NOT NULL,
    "baseline" DOUBLE PRECISION NOT NULL,
    "drop" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "Experiment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExperimentAssignment" (
    "experimentId" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "arm" TEXT NOT NULL,
    "assignedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ExperimentAssignment_pkey" PRIMARY KEY ("experimentId","phone")
);

-- CreateIndex
CREATE UNIQUE INDEX "Experiment_runningShopId_key" ON "Experiment"("runningShopId");

-- CreateIndex
CREATE INDEX "Experiment_shopId_startedAt_idx" ON "Experiment"("shopId", "startedAt");

-- CreateIndex
CREATE INDEX "ExperimentAssignment_shopId_phone_idx" ON "ExperimentAssignment"("shopId", "phone");

-- AddForeignKey
ALTER TABLE "Experiment" ADD CONSTRAINT "Experiment_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExperimentAssignment" ADD CONSTRAINT "ExperimentAssignment_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExperimentAssignment" ADD CONSTRAINT "ExperimentAssignment_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

