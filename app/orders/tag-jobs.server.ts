import { z } from "zod";
import { defineJob, enqueueJob, orderJobKey, planJob, type PlannedJob } from "~/core/jobs/queue.server";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { TAGS_ADD, TAGS_REMOVE } from "~/core/shopify/operations";
import { isPhoneBlocked } from "~/otp/blocklist.server";
import { getShop } from "~/core/settings/shop.server";
import { VERIFIED_CUSTOMER_TAG } from "../../extensions/cod-payment-customization/src/proof-format";

/**
 * Order tagging as a background job (app/core/jobs): orders/create queues one job per order and answers
 * Shopify at once; the worker adds the tags with `tagsAdd`, retried with the queue's backoff.
 * `tagsAdd` appends, so a job that runs twice after a crash does no harm.
 */
export const orderTagsJob = defineJob({
  kind: "order-tags",
  payload: z.object({ orderGid: z.string().min(1), tags: z.array(z.string()), withdraw: z.array(z.string()).optional() }),
  // A later delivery for the same order with new tags adds them to the same job, which runs again. Tags
  // withdrawn (removed from the order by their caller, e.g. cod-pending once confirmed) leave the list,
  // so a later run does not add them back.
  merge: (queued, incoming) => {
    const withdraw = incoming.withdraw ?? [];
    const kept = queued.tags.filter((t) => !withdraw.includes(t));
    const fresh = incoming.tags.filter((t) => !kept.includes(t));
    return fresh.length || kept.length !== queued.tags.length ? { orderGid: queued.orderGid, tags: [...kept, ...fresh] } : null;
  },
  run: ({ orderGid, tags }, { shop }) => addTags(shop, orderGid, tags),
});

/**
 * Queues tags for an order; a second call for the same order adds any new tags to the same job, and
 * takes `withdraw` out of it. Call kickJobWorker once the response is ready.
 */
export async function enqueueOrderTags(shop: string, orderGid: string, tags: string[], withdraw: string[] = []) {
  if (!tags.length && !withdraw.length) return;
  await enqueueJob(orderTagsJob, { shop, key: orderJobKey(shop, orderGid), payload: { orderGid, tags, ...(withdraw.length ? { withdraw } : {}) } });
}

/** The order's tags job (`enqueueOrderTags` without a withdrawal) for a caller that queues it with other writes; null for no tags. */
export function orderTagsJobFor(shop: string, orderGid: string, tags: string[]): PlannedJob | null {
  return tags.length ? planJob(orderTagsJob, { shop, key: orderJobKey(shop, orderGid), payload: { orderGid, tags } }) : null;
}

const tagsAddReply = z.object({
  tagsAdd: z.object({ node: z.object({ id: z.string() }).nullable(), userErrors: z.array(z.object({ message: z.string() })) }),
});

async function addTags(shop: string, orderGid: string, tags: string[]): Promise<{ ok: true } | { ok: false; error: string }> {
  const result = await shopifyGraphql<unknown>("admin", shop, TAGS_ADD, { variables: { id: orderGid, tags } });
  if (!result.ok) return { ok: false, error: `${result.cause}: ${result.detail}`.slice(0, 500) };
  const reply = tagsAddReply.safeParse(result.data);
  if (!reply.success) return { ok: false, error: `invalid_response: ${reply.error.message.slice(0, 300)}` };
  if (reply.data.tagsAdd.userErrors.length) return { ok: false, error: `user_errors: ${JSON.stringify(reply.data.tagsAdd.userErrors).slice(0, 400)}` };
  return { ok: true };
}

/**
 * The customer tag the checkout function reads (`cod-verified-customer`), as its own job per customer:
 * added only if the phone that earned it is not blocked when the job runs, and taken off again if a
 * block landed while it was being added. So a job still waiting (Shopify failed, the worker was busy)
 * never puts the tag back after the block's untag job ran (app/otp/blocked-customers.server.ts): the
 * block is stored with its untag job in one transaction, so either this job's last read sees the block,
 * or the untag job is queued after the tag was added and takes it off.
 */
export const customerVerifiedTagJob = defineJob({
  kind: "customer-verified-tag",
  payload: z.object({ customerGid: z.string().min(1), phone: z.string().min(1) }),
  merge: (queued, incoming) => (incoming.phone !== queued.phone ? incoming : null),
  run: ({ customerGid, phone }, { shop }) => tagVerifiedCustomer(shop, customerGid, phone),
});

/** Queues `cod-verified-customer` for the customer whose order `phone` verified. Call kickJobWorker once the response is ready. */
export async function enqueueCustomerVerifiedTag(shop: string, customerGid: string, phone: string) {
  const job = customerVerifiedTagJobFor(shop, customerGid, phone);
  await enqueueJob(job.kind, job.input);
}

export function customerVerifiedTagJobFor(shop: string, customerGid: string, phone: string): PlannedJob {
  return planJob(customerVerifiedTagJob, { shop, key: orderJobKey(shop, customerGid), payload: { customerGid, phone } });
}

const tagsRemoveReply = z.object({ tagsRemove: z.object({ userErrors: z.array(z.object({ message: z.string() })) }) });

async function tagVerifiedCustomer(shopDomain: string, customerGid: string, phone: string): Promise<{ ok: true } | { ok: false; error: string }> {
  const shop = await getShop(shopDomain);
  if (!shop || shop.uninstalledAt || (await isPhoneBlocked(shop.id, phone))) return { ok: true };
  const added = await addTags(shopDomain, customerGid, [VERIFIED_CUSTOMER_TAG]);
  if (!added.ok || !(await isPhoneBlocked(shop.id, phone))) return added;
  const removed = await shopifyGraphql<unknown>("admin", shopDomain, TAGS_REMOVE, { variables: { id: customerGid, tags: [VERIFIED_CUSTOMER_TAG] } });
  if (!removed.ok) return { ok: false, error: `${removed.cause}: ${removed.detail}`.slice(0, 500) };
  const reply = tagsRemoveReply.safeParse(removed.data);
  if (!reply.success) return { ok: false, error: `invalid_response: ${reply.error.message.slice(0, 300)}` };
  if (reply.data.tagsRemove.userErrors.length) return { ok: false, error: `user_errors: ${JSON.stringify(reply.data.tagsRemove.userErrors).slice(0, 400)}` };
  return { ok: true };
}
