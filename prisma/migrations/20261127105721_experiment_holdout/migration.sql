-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "codFailureCost" REAL;
ALTER TABLE "Shop" ADD COLUMN "messageCost" REAL;

-- CreateTable
CREATE TABLE "Experiment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "runningShopId" TEXT,
    "holdoutShare" REAL NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "endsAt" DATETIME,
    "stoppedAt" DATETIME,
    "horizon" INTEGER NOT NULL,
    "baseline" REAL NOT NULL,
    "drop" REAL NOT NULL,
    CONSTRAINT "Experiment_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ExperimentAssignment" (
    "experimentId" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "arm" TEXT NOT NULL,
    "assignedAt" DATETIME NOT NULL,

    PRIMARY KEY ("experimentId", "phone"),
    CONSTRAINT "ExperimentAssignment_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ExperimentAssignment_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Experiment_runningShopId_key" ON "Experiment"("runningShopId");

-- CreateIndex
CREATE INDEX "Experiment_shopId_startedAt_idx" ON "Experiment"("shopId", "startedAt");

-- CreateIndex
CREATE INDEX "ExperimentAssignment_shopId_phone_idx" ON "ExperimentAssignment"("shopId", "phone");

