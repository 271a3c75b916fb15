import { z } from "zod";
import { declareJob, enqueueJob, orderJobKey } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";

/**
 * The order confirmation's escalation: no answer on WhatsApp within the shop's window, or its WhatsApp
 * message reported failed, and the shopper gets the SMS link. Declared here, where a failed report
 * arrives; run by app/orders/confirmation (its `escalate` step), one job per order: a failed report
 * makes it due at once (`resendAt`), so the link goes once whichever comes first.
 */
const payload = z.object({ confirmationId: z.string().min(1), resendAt: z.string().max(40).optional() });
export const CONFIRMATION_ESCALATE = declareJob({
  kind: "order-confirmation.escalate",
  payload,
  merge: (queued: z.infer<typeof payload>, incoming: z.infer<typeof payload>) => (incoming.resendAt && incoming.resendAt !== queued.resendAt ? incoming : null),
});

/** A confirmation's WhatsApp message failed: its escalation is due now. */
export async function escalateNow(shopDomain: string, c: { id: string; orderGid: string }) {
  const now = clock.now();
  await enqueueJob(CONFIRMATION_ESCALATE, { shop: shopDomain, key: orderJobKey(shopDomain, c.orderGid), payload: { confirmationId: c.id, resendAt: now.toISOString() }, runAt: now });
}
