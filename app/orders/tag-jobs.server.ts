import { z } from "zod";
import { defineJob, enqueueJob, orderJobKey } from "~/jobs/queue.server";
import { shopifyGraphql } from "~/shopify/graphql.server";
import { TAGS_ADD } from "~/shopify/operations";

/**
 * Order tagging as a background job (app/jobs): orders/create queues one job per order and answers
 * Shopify at once; the worker adds the tags with `tagsAdd`, retried with the queue's backoff.
 * `tagsAdd` appends, so a job that runs twice after a crash does no harm.
 */
export const orderTagsJob = defineJob({
  kind: "order-tags",
  payload: z.object({ orderGid: z.string().min(1), tags: z.array(z.string()) }),
  // A later delivery for the same order with new tags adds them to the same job, which runs again.
  merge: (queued, incoming) => {
    const fresh = incoming.tags.filter((t) => !queued.tags.includes(t));
    return fresh.length ? { orderGid: queued.orderGid, tags: [...queued.tags, ...fresh] } : null;
  },
  run: ({ orderGid, tags }, { shop }) => addTags(shop, orderGid, tags),
});

/** Queues tags for an order; a second call for the same order adds any new tags to the same job. Call kickJobWorker once the response is ready. */
export async function enqueueOrderTags(shop: string, orderGid: string, tags: string[]) {
  await enqueueJob(orderTagsJob, { shop, key: orderJobKey(shop, orderGid), payload: { orderGid, tags } });
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
