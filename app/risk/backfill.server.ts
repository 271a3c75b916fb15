import { z } from "zod";
import { defineJob, enqueueJob } from "~/core/jobs/queue.server";
import { getShop, type Shop } from "~/core/settings/shop.server";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { RECENT_ORDER_OUTCOMES } from "~/core/shopify/operations";
import { readOrderFacts, shopCountryOf } from "~/core/shopify/order-facts";
import type { OrderCreated } from "~/core/shopify/webhook-payloads";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { failureOf, recordOrderOutcome } from "./outcomes.server";
import { parseTagList } from "~/shared/lists";
import { shopDay } from "~/shared/shop-day";

/**
 * The outcomes of the shop's recent orders, learnt once on install (docs/risk.md), so the first scores
 * already know the phones and postal codes that failed. A durable job (app/core/jobs): the install queues
 * it, the worker reads the last BACKFILL_DAYS days of orders (read_orders reaches 60) page by page,
 * newest first, up to BACKFILL_PAGES pages, and writes each COD order's outcome with the webhooks' own
 * atomic upsert. A run that fails (Shopify down, a crash) is retried from the start: an order already
 * learnt is not counted again, and a webhook that arrived meanwhile is not overwritten (a failure wins).
 */
export const BACKFILL_DAYS = 60;
export const BACKFILL_PAGES = 20; // x 100 orders

const node = z.object({
  id: z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/),
  createdAt: z.string().nullish(),
  phone: z.string().nullish(),
  cancelledAt: z.string().nullish(),
  displayFulfillmentStatus: z.string().nullish(),
  displayFinancialStatus: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  paymentGatewayNames: z.array(z.string()).nullish(),
  customer: z.object({ phone: z.string().nullish() }).nullish(),
  shippingAddress: z.object({ phone: z.string().nullish(), zip: z.string().nullish(), countryCodeV2: z.string().nullish() }).nullish(),
});
const page = z.object({
  orders: z.object({ nodes: z.array(z.unknown()), pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }) }),
});
type OrderNode = z.infer<typeof node>;

export const riskBackfillJob = defineJob({
  kind: "risk-outcomes-backfill",
  payload: z.object({}),
  run: async (_payload, { shop }) => backfillOutcomes(shop),
});

/** An install step (app/server-build.ts INSTALL_STEPS); once per shop, a reinstall finds it done. */
export async function enqueueRiskBackfill(shop: Pick<Shop, "domain">) {
  await enqueueJob(riskBackfillJob, { shop: shop.domain, key: shop.domain, payload: {} });
}

/** The GraphQL order in the REST shape the webhooks' reading takes (app/core/shopify/order-facts.ts), so both read an order alike. */
function asOrderPayload(o: OrderNode): OrderCreated {
  return {
    admin_graphql_api_id: o.id,
    created_at: o.createdAt ?? null,
    phone: o.phone ?? null,
    cancelled_at: o.cancelledAt ?? null,
    tags: (o.tags ?? []).join(", "),
    financial_status: o.displayFinancialStatus?.toLowerCase() ?? null,
    payment_gateway_names: o.paymentGatewayNames ?? [],
    customer: o.customer ? { phone: o.customer.phone ?? null } : null,
    shipping_address: o.shippingAddress ? { phone: o.shippingAddress.phone ?? null, zip: o.shippingAddress.zip ?? null, country_code: o.shippingAddress.countryCodeV2 ?? null } : null,
  };
}

export async function backfillOutcomes(domain: string): Promise<{ ok: true } | { ok: false; error: string; retry?: boolean }> {
  const shop = await getShop(domain);
  if (!shop || shop.uninstalledAt) return { ok: true };
  const now = clock.now();
  const since = shopDay(new Date(now.getTime() - BACKFILL_DAYS * 86_400_000), shop.timezone);
  const failureTags = parseTagList(shop.riskFailureTags);
  const factsShop = { codMethodNames: shop.codMethodNames, country: shopCountryOf(shop) };
  let after: string | null = null;
  let learnt = 0;
  for (let n = 0; n < BACKFILL_PAGES; n++) {
    const result = await shopifyGraphql<unknown>("admin", domain, RECENT_ORDER_OUTCOMES, { variables: { query: `created_at:>=${since}`, after } });
    if (!result.ok) return { ok: false, error: `${result.cause}: ${result.detail}`.slice(0, 500) };
    const parsed = page.safeParse(result.data);
    if (!parsed.success) return { ok: false, error: `invalid_response: ${parsed.error.message.slice(0, 300)}` };
    for (const raw of parsed.data.orders.nodes) {
      const o = node.safeParse(raw);
      if (!o.success) continue;
      const order = asOrderPayload(o.data);
      const facts = readOrderFacts(order, factsShop, now);
      if (!facts.isCod) continue;
      const failure = o.data.cancelledAt ? "cancelled" : failureOf(order, failureTags);
      const decidedAt = facts.placedAt;
      if (failure) learnt += await recordOrderOutcome(shop.id, facts, "failed", failure, decidedAt);
      else if (o.data.displayFulfillmentStatus === "FULFILLED") learnt += await recordOrderOutcome(shop.id, facts, "delivered", "fulfilled", decidedAt);
    }
    const info = parsed.data.orders.pageInfo;
    if (!info.hasNextPage || !info.endCursor) break;
    after = info.endCursor;
  }
  log.info("risk: outcomes learnt from the shop's recent orders", { shop: domain, learnt });
  return { ok: true };
}
