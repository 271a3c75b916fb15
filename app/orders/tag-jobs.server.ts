import { z } from "zod";
import { defineJob, enqueueJob, orderJobKey, planJob, type PlannedJob } from "~/core/jobs/queue.server";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { TAGS_ADD, TAGS_REMOVE } from "~/core/shopify/operations";
import { isPhoneBlocked } from "~/otp/blocklist.server";
import { getShop } from "~/core/settings/shop.server";
import { VERIFIED_CUSTOMER_TAG } from "../../extensions/cod-payment-customization/src/proof-format";

/**
 * Order tagging as a background job (app/core/jobs): orders/create queues one job per order and answers
 * Shopify at once; the worker adds the tags with `tagsAdd` and takes the withdrawn ones off with
 * `tagsRemove`, retried with the queue's backoff until both went through. Both are idempotent, so a job
 * that runs twice after a crash does no harm, and every run leaves the order with what the job says:
 * a removal that failed, or an add of `cod-pending` still in flight when it was withdrawn (the merge makes
 * the job due again, and its next run removes it), ends with the tags right.
 */
export const orderTagsJob = defineJob({
  kind: "order-tags",
  payload: z.object({ orderGid: z.string().min(1), tags: z.array(z.string()), withdraw: z.array(z.string()).optional() }),
  // A later delivery for the same order with new tags adds them to the same job, which runs again. Tags
  // withdrawn (e.g. cod-pending once confirmed) leave the list and join the job's removals, so a later run
  // does not add them back and takes them off; a tag added again later leaves the removals.
  merge: (queued, incoming) => {
    const withdraw = incoming.withdraw ?? [];
    const kept = queued.tags.filter((t) => !withdraw.includes(t));
    const fresh = incoming.tags.filter((t) => !kept.includes(t));
    const removals = [...new Set([...(queued.withdraw ?? []), ...withdraw])].filter((t) => !incoming.tags.includes(t));
    const same = !fresh.length && kept.length === queued.tags.length && removals.length === (queued.withdraw ?? []).length;
    return same ? null : { orderGid: queued.orderGid, tags: [...kept, ...fresh], ...(removals.length ? { withdraw: removals } : {}) };
  },
  run: ({ orderGid, tags, withdraw }, { shop }) => setTags(shop, orderGid, tags, withdraw ?? []),
});

/**
 * Queues tags for an order; a second call for the same order adds any new tags to the same job, and
 * takes `withdraw` out of it and off the order. Call kickJobWorker once the response is ready.
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

const tagsRemoveReply = z.object({
  tagsRemove: z.object({ node: z.object({ id: z.string() }).nullable(), userErrors: z.array(z.object({ message: z.string() })) }),
});

/** The job's run: its tags on the order, then its withdrawn tags off it (a tag in both stays: it was added again). */
async function setTags(shop: string, orderGid: string, tags: string[], withdraw: string[]): Promise<{ ok: true } | { ok: false; error: string }> {
  if (tags.length) {
    const added = await addTags(shop, orderGid, tags);
    if (!added.ok) return added;
  }
  const off = withdraw.filter((t) => !tags.includes(t));
  if (!off.length) return { ok: true };
  const result = await shopifyGraphql<unknown>("admin", shop, TAGS_REMOVE, { variables: { id: orderGid, tags: off } });
  if (!result.ok) return { ok: false, error: `${result.cause}: ${result.detail}`.slice(0, 500) };
  const reply = tagsRemoveReply.safeParse(result.data);
  if (!reply.success) return { ok: false, error: `invalid_response: ${reply.error.message.slice(0, 300)}` };
  if (reply.data.tagsRemove.userErrors.length) return { ok: false, error: `user_errors: ${JSON.stringify(reply.data.tagsRemove.userErrors).slice(0, 400)}` };
  return { ok: true };
}

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
