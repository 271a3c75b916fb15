import { z } from "zod";
import { defineJob, enqueueJob, orderJobKey, planJob, type JobResult, type PlannedJob } from "~/core/jobs/queue.server";
import { getShop } from "~/core/settings/shop.server";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { FLOW_TRIGGER_RECEIVE } from "~/core/shopify/operations";
import { log } from "~/core/utils/log.server";
import { FLOW_TRIGGERS, type FlowTriggerName, type FlowTriggerValues } from "./triggers";

/**
 * Shopify Flow triggers (docs/flow.md) as durable jobs, never sent inline: the event that fires one queues
 * a `flow.trigger` row (with the writes of that event where it can), and the worker sends it with
 * `flowTriggerReceive`, retried with the queue's backoff while Shopify cannot be reached. One trigger of a
 * kind per order (the job's key: the order's key, the handle, and `variant` where one order may fire a
 * trigger for two different facts, e.g. an outcome learnt delivered then failed), so Shopify's redelivered
 * webhooks start a merchant's workflow once. customers/redact deletes them with the order's other jobs.
 */
const value = z.union([z.string().max(255), z.number().finite(), z.boolean()]);
const payload = z.object({
  handle: z.string().min(1).max(30),
  orderGid: z.string().regex(/^gid:\/\/shopify\/Order\/\d{1,20}$/),
  fields: z.record(z.string().max(60), value),
});
type TriggerPayload = z.infer<typeof payload>;

export const flowTriggerJob = defineJob({
  kind: "flow.trigger",
  payload,
  run: (p, { shop }) => sendTrigger(shop, p),
});

/** The trigger as a job for a caller that queues it with its own writes. */
export function flowTriggerJobFor<T extends FlowTriggerName>(shop: string, orderGid: string, trigger: T, values: FlowTriggerValues<T>, variant?: string): PlannedJob {
  const { handle } = FLOW_TRIGGERS[trigger];
  const fields = Object.fromEntries(Object.entries(values as Record<string, string | number | boolean>).map(([k, v]) => [k, typeof v === "string" ? v.slice(0, 255) : v]));
  return planJob(flowTriggerJob, { shop, key: `${orderJobKey(shop, orderGid)}|${handle}${variant ? `|${variant}` : ""}`, payload: { handle, orderGid, fields } });
}

/** Queues the trigger (once per order, trigger and variant). Call kickJobWorker once the response is ready, where there is one. */
export async function enqueueFlowTrigger<T extends FlowTriggerName>(shop: string, orderGid: string, trigger: T, values: FlowTriggerValues<T>, variant?: string): Promise<void> {
  const job = flowTriggerJobFor(shop, orderGid, trigger, values, variant);
  await enqueueJob(job.kind, job.input);
}

const reply = z.object({ flowTriggerReceive: z.object({ userErrors: z.array(z.object({ field: z.array(z.string()).nullish(), message: z.string() })) }) });

/**
 * Flow's `order_reference` field is the order's numeric id (`order_id`). Shopify's order ids fit in a
 * double today; one that would not is sent as its digits rather than rounded to another order.
 */
function orderIdOf(gid: string): number | string {
  const digits = gid.slice(gid.lastIndexOf("/") + 1);
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : digits;
}

async function sendTrigger(shopDomain: string, p: TriggerPayload): Promise<JobResult> {
  const shop = await getShop(shopDomain);
  // An uninstalled shop has no token, and no workflow of ours runs there any more.
  if (!shop || shop.uninstalledAt) return { ok: true };
  const result = await shopifyGraphql<unknown>("admin", shopDomain, FLOW_TRIGGER_RECEIVE, {
    variables: { handle: p.handle, payload: { order_id: orderIdOf(p.orderGid), ...p.fields } },
  });
  if (!result.ok) return { ok: false, error: `${result.cause}: ${result.detail}`.slice(0, 500) };
  const parsed = reply.safeParse(result.data);
  if (!parsed.success) return { ok: false, error: `invalid_response: ${parsed.error.message.slice(0, 300)}` };
  const errors = parsed.data.flowTriggerReceive.userErrors;
  if (errors.length) {
    // Flow refused this payload (a handle not deployed, a field it does not know): a retry sends the same.
    log.warn("flow trigger refused", { shop: shopDomain, handle: p.handle, orderGid: p.orderGid, errors: errors.map((e) => e.message).join("; ").slice(0, 300) });
    return { ok: false, error: `user_errors: ${JSON.stringify(errors).slice(0, 400)}`, retry: false };
  }
  return { ok: true };
}
