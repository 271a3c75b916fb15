import { z } from "zod";
import { prisma } from "~/core/db.server";
import { USAGE_CHARGE } from "~/enforcement/allowance.server";
import { requestEnforcementSync } from "~/enforcement/enforcement-jobs.server";
import { defineJob } from "~/core/jobs/queue.server";
import { forgetShop } from "~/core/settings/shop.server";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { ACTIVE_USAGE_LINE_ITEM, USAGE_RECORD_CREATE } from "~/core/shopify/operations";
import { log } from "~/core/utils/log.server";

/**
 * Verifications past the plan's allowance, for a merchant who turned usage charges on: each is one
 * Shopify usage record (`appUsageRecordCreate`) on the subscription's usage line item, under the cap
 * the merchant approved with the plan. Exactly once per verification: the job's key is the
 * verification (a second enqueue does nothing), and Shopify's idempotency key is the same id, so a
 * run repeated after a crash charges nothing twice. When Shopify refuses (no usage line item on a
 * plan approved before usage charges existed, or the cap reached) the shop records why, which pauses
 * verification (app/enforcement/pause.ts) until the plan changes.
 */
const lineItemsReply = z.object({
  currentAppInstallation: z.object({
    activeSubscriptions: z.array(
      z.object({ id: z.string(), lineItems: z.array(z.object({ id: z.string(), plan: z.object({ pricingDetails: z.object({ __typename: z.string() }).passthrough() }) })) }),
    ),
  }),
});
const recordReply = z.object({
  appUsageRecordCreate: z.object({
    appUsageRecord: z.object({ id: z.string() }).nullable(),
    userErrors: z.array(z.object({ field: z.array(z.string()).nullish(), message: z.string() })),
  }),
});

export const usageChargeJob = defineJob({
  ...USAGE_CHARGE,
  run: async (charge, job) => {
    const items = await shopifyGraphql<unknown>("admin", job.shop, ACTIVE_USAGE_LINE_ITEM);
    if (!items.ok) return { ok: false, error: `${items.cause}: ${items.detail}` };
    const parsedItems = lineItemsReply.safeParse(items.data);
    if (!parsedItems.success) return { ok: false, error: `invalid_response: ${parsedItems.error.message.slice(0, 200)}` };
    const lineItem = parsedItems.data.currentAppInstallation.activeSubscriptions
      .flatMap((s) => s.lineItems)
      .find((item) => item.plan.pricingDetails.__typename === "AppUsagePricing");
    if (!lineItem) return refused(job.shop, "no_usage_line_item");

    const created = await shopifyGraphql<unknown>("admin", job.shop, USAGE_RECORD_CREATE, {
      variables: {
        subscriptionLineItemId: lineItem.id,
        description: charge.description,
        price: { amount: charge.amount, currencyCode: "USD" },
        idempotencyKey: `verification-${charge.verificationId}`,
      },
    });
    if (!created.ok) return { ok: false, error: `${created.cause}: ${created.detail}` };
    const parsed = recordReply.safeParse(created.data);
    if (!parsed.success) return { ok: false, error: `invalid_response: ${parsed.error.message.slice(0, 200)}` };
    const { appUsageRecord, userErrors } = parsed.data.appUsageRecordCreate;
    if (appUsageRecord && !userErrors.length) return { ok: true };
    const message = userErrors.map((e) => e.message).join("; ");
    if (/cap|exceed/i.test(message)) return refused(job.shop, "cap_reached");
    return { ok: false, error: `user_errors: ${message}` };
  },
});

async function refused(domain: string, why: "no_usage_line_item" | "cap_reached") {
  await prisma.shop.update({ where: { domain }, data: { usageChargesRefused: why } });
  forgetShop(domain);
  log.warn("billing: Shopify refused a usage charge; verification pauses past the allowance", { shop: domain, why });
  // Checkout follows: verification is paused now.
  await requestEnforcementSync(domain, "plan_changed");
  return { ok: false as const, error: `usage charge refused: ${why}`, retry: false };
}
