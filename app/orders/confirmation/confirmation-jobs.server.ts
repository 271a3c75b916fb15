import { z } from "zod";
import { declareJob, enqueueJob, orderJobKey, planJob, type JobDeclaration, type PlannedJob } from "~/core/jobs/queue.server";
import { CONFIRMATION_ESCALATE } from "~/message-status/confirmation-escalation.server";

/**
 * The steps of a confirmation after purchase as background jobs (app/core/jobs), declared here so the
 * confirmation's opening can plan them (./confirmation.server.ts) and the worker runs them
 * (./confirmation-steps.server.ts): one kind per step, keyed by the order (so customers/redact deletes
 * them with the order's other jobs), payload the confirmation's id. Each step reads the row again and does
 * only what is left, so it is safe to run twice.
 */
export type ConfirmationStep = "notify" | "hold" | "deadline" | "confirmed" | "escalate" | "cancelled";

const stepPayload = z.object({ confirmationId: z.string().min(1), resendAt: z.string().max(40).optional() });
export type StepPayload = z.infer<typeof stepPayload>;
const stepJob = (step: ConfirmationStep, merge?: (queued: StepPayload, incoming: StepPayload) => StepPayload | null) =>
  declareJob({ kind: `order-confirmation.${step}`, payload: stepPayload, merge });

export const STEP_JOBS: Record<ConfirmationStep, JobDeclaration<StepPayload>> = {
  // The merchant's "resend" makes the order's one notify job due again (resendConfirmation): one row,
  // so however many clicks arrive, the sends run one after another and notify's own check sends once.
  notify: stepJob("notify", (queued, incoming) => (incoming.resendAt && incoming.resendAt !== queued.resendAt ? incoming : null)),
  hold: stepJob("hold"),
  deadline: stepJob("deadline"),
  confirmed: stepJob("confirmed"),
  // No answer on WhatsApp within the shop's window, or its message reported failed: the SMS link
  // (declared with the status callback, which makes it due at once: app/message-status).
  escalate: CONFIRMATION_ESCALATE,
  // The shopper pressed Cancel on WhatsApp: tagged, and cancelled when the shop allows it.
  cancelled: stepJob("cancelled"),
};

type StepTarget = { id: string; orderGid: string };

/** A step's job, due at `at` (`resendAt`: the merchant's resend, which makes a notify already done due again). */
export function planConfirmationStep(shop: string, c: StepTarget, step: ConfirmationStep, at: Date, resendAt?: string): PlannedJob {
  return planJob(STEP_JOBS[step], { shop, key: orderJobKey(shop, c.orderGid), payload: { confirmationId: c.id, ...(resendAt ? { resendAt } : {}) }, runAt: at });
}

export async function scheduleConfirmationStep(shop: string, c: StepTarget, step: ConfirmationStep, at: Date) {
  const job = planConfirmationStep(shop, c, step, at);
  await enqueueJob(job.kind, job.input);
}
