import crypto from "node:crypto";
import { z } from "zod";
import { prisma } from "~/core/db.server";
import { defineJob, enqueueJob, type JobResult } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { randomToken } from "~/core/utils/crypto.server";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { CUSTOMERS_BY_PHONE, TAGS_REMOVE } from "~/core/shopify/operations";
import { normalizePhone } from "~/shared/phone";
import { VERIFIED_CUSTOMER_TAG } from "../../extensions/cod-payment-customization/src/proof-format";

/**
 * A number the merchant blocks stops being a verified customer: a durable job per blocked batch finds the
 * shop's customers carrying those phones (Admin `customers` search) and removes `cod-verified-customer`
 * from each (`tagsRemove`), retried with the queue's backoff. Removing a tag that is gone changes
 * nothing, so a job that runs twice does no harm.
 */
const PHONES_PER_JOB = 25;

export const blockedCustomersJob = defineJob({
  kind: "blocklist.untag-customers",
  payload: z.object({ phones: z.array(z.string().min(1)).min(1).max(PHONES_PER_JOB) }),
  // Blocking the same numbers again runs the job again (a customer may have been tagged in between).
  merge: (_queued, incoming) => incoming,
  run: ({ phones }, { shop }) => untagBlockedCustomers(shop, phones),
});

/** The untag jobs for these (E.164) numbers: batches of PHONES_PER_JOB, each keyed by its numbers. */
function untagBatches(shopDomain: string, phones: string[]) {
  const unique = [...new Set(phones)].sort();
  const batches: { key: string; payload: { phones: string[] } }[] = [];
  for (let i = 0; i < unique.length; i += PHONES_PER_JOB) {
    const batch = unique.slice(i, i + PHONES_PER_JOB);
    batches.push({ key: `${shopDomain}|${crypto.createHash("sha256").update(batch.join(",")).digest("hex").slice(0, 32)}`, payload: { phones: batch } });
  }
  return batches;
}

/** Queues the untagging for these (E.164) numbers, in batches. Call kickJobWorker once the response is ready. */
export async function enqueueUntagBlockedCustomers(shopDomain: string, phones: string[]) {
  for (const { key, payload } of untagBatches(shopDomain, phones)) await enqueueJob(blockedCustomersJob, { shop: shopDomain, key, payload });
}

/** What queuing needs of a Prisma client or of an interactive transaction's client. */
type JobWriter = Pick<typeof prisma, "job">;

/**
 * The untag jobs written through `tx`, the transaction that stores the blocks (app/otp/blocklist.server.ts),
 * so a stored block always has its job. The same row as enqueueUntagBlockedCustomers' (kind, key), with
 * its merge: a job queued before runs again from the start.
 */
export async function queueUntagBlockedCustomersIn(tx: JobWriter, shopDomain: string, phones: string[]) {
  const now = clock.now();
  for (const { key, payload } of untagBatches(shopDomain, phones)) {
    const text = JSON.stringify(blockedCustomersJob.payload.parse(payload));
    await tx.job.upsert({
      where: { kind_key: { kind: blockedCustomersJob.kind, key } },
      create: { id: randomToken(16), kind: blockedCustomersJob.kind, key, shop: shopDomain, payload: text, attempts: 0, nextAttemptAt: now, createdAt: now, updatedAt: now },
      update: { payload: text, doneAt: null, failedAt: null, attempts: 0, nextAttemptAt: now, lastError: null, updatedAt: now },
    });
  }
}

const customersReply = z.object({
  customers: z.object({ nodes: z.array(z.object({ id: z.string(), phone: z.string().nullable(), tags: z.array(z.string()) })) }),
});
const tagsRemoveReply = z.object({
  tagsRemove: z.object({ node: z.object({ id: z.string() }).nullable(), userErrors: z.array(z.object({ message: z.string() })) }),
});

async function untagBlockedCustomers(shop: string, phones: string[]): Promise<JobResult> {
  const query = phones.map((p) => `phone:"${p}"`).join(" OR ");
  const found = await shopifyGraphql<unknown>("admin", shop, CUSTOMERS_BY_PHONE, { variables: { query } });
  if (!found.ok) return { ok: false, error: `${found.cause}: ${found.detail}`.slice(0, 500) };
  const reply = customersReply.safeParse(found.data);
  if (!reply.success) return { ok: false, error: `invalid_response: ${reply.error.message.slice(0, 300)}` };
  // Search matches loosely: only a customer whose own phone is one of the blocked numbers loses the tag.
  const blocked = new Set(phones);
  const tagged = reply.data.customers.nodes.filter((c) => blocked.has(normalizePhone(c.phone) ?? "") && c.tags.includes(VERIFIED_CUSTOMER_TAG));
  for (const customer of tagged) {
    const removed = await shopifyGraphql<unknown>("admin", shop, TAGS_REMOVE, { variables: { id: customer.id, tags: [VERIFIED_CUSTOMER_TAG] } });
    if (!removed.ok) return { ok: false, error: `${removed.cause}: ${removed.detail}`.slice(0, 500) };
    const parsed = tagsRemoveReply.safeParse(removed.data);
    if (!parsed.success) return { ok: false, error: `invalid_response: ${parsed.error.message.slice(0, 300)}` };
    if (parsed.data.tagsRemove.userErrors.length) return { ok: false, error: `user_errors: ${JSON.stringify(parsed.data.tagsRemove.userErrors).slice(0, 400)}` };
  }
  return { ok: true };
}
