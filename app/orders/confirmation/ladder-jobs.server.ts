import { z } from "zod";
import { prisma } from "~/core/db.server";
import { declareJob, enqueueJob, orderJobKey, planJob, type JobDeclaration, type PlannedJob } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { rungAfter, RUNGS, type LadderStep, type Rung } from "./ladder";

/**
 * The ladder's rungs as durable jobs, declared here so the confirmation's opening can plan them
 * (app/orders/confirmation/confirmation.server.ts) and the ladder runs them (./ladder.server.ts). One job
 * per rung and order (the key is the order's, so customers/redact deletes them with its other jobs).
 * `at` moves a rung: later (quiet hours) or sooner (the rung before it ended without an answer); the
 * rung itself acts once (its ConfirmationRung row), however often its job runs.
 */
const payload = z.object({ confirmationId: z.string().min(1), at: z.string().max(40).optional() });
export type RungPayload = z.infer<typeof payload>;

export const RUNG_JOBS = Object.fromEntries(
  RUNGS.map((rung) => [
    rung,
    declareJob({ kind: `order-confirmation.rung.${rung}`, payload, merge: (queued: RungPayload, incoming: RungPayload) => (incoming.at && incoming.at !== queued.at ? incoming : null) }),
  ]),
) as Record<Rung, JobDeclaration<RungPayload>>;

/** The rungs' jobs of a confirmation opened at `openedAt`: each due at its delay after it. */
export function ladderJobs(shopDomain: string, c: { id: string; orderGid: string }, ladder: LadderStep[], openedAt: Date): PlannedJob[] {
  return ladder.map((step) =>
    planJob(RUNG_JOBS[step.rung], { shop: shopDomain, key: orderJobKey(shopDomain, c.orderGid), payload: { confirmationId: c.id }, runAt: new Date(openedAt.getTime() + step.minutes * 60_000) }),
  );
}

/** Moves a rung's job to `at` (sooner or later); a rung already acted on stays as it was when its job runs again. */
export function moveRungJob(shopDomain: string, c: { id: string; orderGid: string }, rung: Rung, at: Date): PlannedJob {
  return planJob(RUNG_JOBS[rung], { shop: shopDomain, key: orderJobKey(shopDomain, c.orderGid), payload: { confirmationId: c.id, at: at.toISOString() }, runAt: at });
}

/** The rung after `from` is due now (`from` ended without an answer); returns what moved, or null when `from` was the last. */
export async function bringNextRungForward(shopDomain: string, c: { id: string; orderGid: string }, ladder: LadderStep[], from: Rung): Promise<string | null> {
  const next = rungAfter(ladder, from);
  if (!next) return null;
  const job = moveRungJob(shopDomain, c, next.rung, clock.now());
  await enqueueJob(job.kind, job.input);
  return `${next.rung} now`;
}

/**
 * A rung that went out ended without an answer (`outcome`: failed, no_answer, busy, voicemail): its row
 * says so (from `sent`, once) and the next rung is due now.
 */
export async function advanceLadder(shopDomain: string, c: { id: string; orderGid: string }, ladder: LadderStep[], from: Rung, outcome: string): Promise<string | null> {
  await prisma.confirmationRung.updateMany({ where: { confirmationId: c.id, rung: from, state: "sent" }, data: { state: outcome, endedAt: clock.now() } });
  return bringNextRungForward(shopDomain, c, ladder, from);
}
