import { registerOrderJobKind, runDueTagJobs, scheduleOrderJob } from "~/orders/tag-jobs.server";
import { prisma } from "~/db.server";
import { runConfirmationStep, type ConfirmationStep } from "./confirmation.server";

/**
 * The steps of verification after purchase as durable order jobs (app/orders/tag-jobs.server.ts: rows
 * claimed by one worker at a time across instances, retried with backoff, surviving restarts). Kind
 * "confirmation:<step>", payload the confirmation's id.
 */
const STEPS: readonly ConfirmationStep[] = ["notify", "hold", "deadline", "confirmed"];

registerOrderJobKind("confirmation", async (job) => {
  const step = job.kind.slice("confirmation:".length) as ConfirmationStep;
  if (!STEPS.includes(step) || !job.payload) return { ok: false, retry: false, error: `unknown job ${job.kind}` };
  return runConfirmationStep(job.payload, step);
});

export async function scheduleConfirmationStep(shop: string, confirmationId: string, step: ConfirmationStep, at: Date) {
  const c = await prisma.orderConfirmation.findUniqueOrThrow({ where: { id: confirmationId }, select: { orderGid: true } });
  await scheduleOrderJob(shop, c.orderGid, `confirmation:${step}`, confirmationId, at);
}

/** Tests and scripts: run what is due now (every order job kind, confirmation steps included). */
export function runDueConfirmationJobs() {
  return runDueTagJobs();
}
