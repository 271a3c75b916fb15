-- DropIndex
DROP INDEX "Job_nextAttemptAt_idx";

-- DropIndex
DROP INDEX "Job_doneAt_failedAt_nextAttemptAt_idx";

-- Hand-written: Prisma's schema cannot express a partial index; the same statements for both engines.
-- The worker's claim (app/core/jobs/queue.server.ts) reads the jobs not yet done or failed, in the order
-- they are due: an index of those alone stays as small as the backlog, however many finished jobs are kept.
-- It replaces the two above, so the planner has no other index in due order to take (it took the plain one
-- on statistics gathered before a burst and walked every finished job: 2 ms per claim after 3,600 jobs).
CREATE INDEX "Job_pending_nextAttemptAt_idx" ON "Job"("nextAttemptAt") WHERE "doneAt" IS NULL AND "failedAt" IS NULL;

-- The risk score's usual COD order value (app/risk/assess.server.ts `usualCodValues`): the shop's last 200
-- COD orders with a value. Without it, each orders/create walked every order of the shop that had no value.
CREATE INDEX "OrderRecord_cod_value_placedAt_idx" ON "OrderRecord"("shopId", "placedAt") WHERE "cod" AND "value" IS NOT NULL;
