-- CreateIndex
CREATE INDEX "Job_doneAt_failedAt_nextAttemptAt_idx" ON "Job"("doneAt", "failedAt", "nextAttemptAt");

