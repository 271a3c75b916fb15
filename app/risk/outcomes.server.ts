import { execute, query, sql, type Sql } from "~/core/db/sql.server";
import { shopHasOrder } from "~/core/shopify/order-owner.server";
import { log } from "~/core/utils/log.server";
import { readOrderFacts, shopCountryOf, type OrderFacts } from "~/core/shopify/order-facts";
import { getShop, type Shop } from "~/core/settings/shop.server";
import type { FulfillmentEvent, OrderCreated } from "~/core/shopify/webhook-payloads";
import { clock } from "~/core/utils/clock.server";
import { enqueueFlowTrigger } from "~/core/flow/trigger-jobs.server";
import { enqueueRecalibration } from "./calibration.server";
import { normalizePostalCode } from "./signals";
import { parseTagList } from "~/shared/lists";

export type OrderOutcome = "delivered" | "failed";
/** What told the app (OrderOutcome.reason): the event, the tag as the order carried it (`tag:RTO`), or the carrier's status. */
export type OutcomeReason = "cancelled" | "fulfilled" | "refunded" | `tag:${string}` | "carrier:delivered" | "carrier:failure";

/**
 * What became of a COD order (docs/risk.md), one OrderOutcome row per order, each change one atomic
 * upsert whose condition is the rule, so Shopify's retries, events in any order and concurrent deliveries
 * count the order once per phone and postal code:
 * - delivery evidence (orders/fulfilled, a carrier's `delivered`) makes an order delivered unless it
 *   failed, and is kept under a failure (`deliveredBy`);
 * - a failure (cancelled, refunded, a failure tag, a carrier's `failure`) makes it failed; the first
 *   failure's reason stays, except that firmer evidence replaces a tag (a tag's removal must not undo it);
 * - an orders/updated state with no failure undoes a failure a tag alone made (the merchant removed a
 *   wrong tag): back to delivered when a delivery was seen, else to `none`. orders/updated carries the
 *   order's `updated_at` (`stateAt`): a state older than one already applied changes nothing.
 * Only COD orders are learnt: the score is about cash on delivery.
 */
const ROW = sql`"OrderOutcome" ("shopId", "orderGid", "phone", "postalCode", "outcome", "reason", "deliveredBy", "stateAt", "decidedAt")`;
const KEEP_SUBJECT = `"phone" = COALESCE("OrderOutcome"."phone", excluded."phone"), "postalCode" = COALESCE("OrderOutcome"."postalCode", excluded."postalCode")`;

/** A delivery seen: delivered, unless the order failed (then only remembered, for an undone tag). */
const ON_DELIVERED = sql([`
  ON CONFLICT ("shopId", "orderGid") DO UPDATE SET
    "outcome" = CASE WHEN "OrderOutcome"."outcome" = 'failed' THEN 'failed' ELSE 'delivered' END,
    "reason" = CASE WHEN "OrderOutcome"."outcome" = 'failed' THEN "OrderOutcome"."reason" ELSE excluded."reason" END,
    "decidedAt" = CASE WHEN "OrderOutcome"."outcome" = 'failed' THEN "OrderOutcome"."decidedAt" ELSE excluded."decidedAt" END,
    "deliveredBy" = excluded."deliveredBy", ${KEEP_SUBJECT}
  WHERE "OrderOutcome"."deliveredBy" IS NULL`]);

// A failure changes the outcome of an order not failed yet, or the reason of one a tag alone failed.
const TAKES_OVER = `("OrderOutcome"."outcome" <> 'failed' OR ("OrderOutcome"."reason" LIKE 'tag:%' AND excluded."reason" NOT LIKE 'tag:%'))`;
// The event is no older than the newest orders/updated state applied (events without a state always are).
const NOT_OLDER = `(excluded."stateAt" IS NULL OR "OrderOutcome"."stateAt" IS NULL OR "OrderOutcome"."stateAt" < excluded."stateAt")`;

/** A failure seen: failed (see TAKES_OVER); an orders/updated state also moves the row's state forward. */
const ON_FAILED = sql([`
  ON CONFLICT ("shopId", "orderGid") DO UPDATE SET
    "outcome" = 'failed',
    "reason" = CASE WHEN ${TAKES_OVER} THEN excluded."reason" ELSE "OrderOutcome"."reason" END,
    "decidedAt" = CASE WHEN ${TAKES_OVER} THEN excluded."decidedAt" ELSE "OrderOutcome"."decidedAt" END,
    "stateAt" = COALESCE(excluded."stateAt", "OrderOutcome"."stateAt"), ${KEEP_SUBJECT}
  WHERE ${NOT_OLDER} AND (${TAKES_OVER} OR excluded."stateAt" IS NOT NULL)`]);

// The failure a tag alone made, which a newer state without the tag undoes.
const TAG_FAILURE = `("OrderOutcome"."outcome" = 'failed' AND "OrderOutcome"."reason" LIKE 'tag:%')`;

// ...and nothing learnt is left once it is undone: the row then keeps no phone nor postal code.
const BACK_TO_NONE = `(${TAG_FAILURE} AND "OrderOutcome"."deliveredBy" IS NULL)`;

/**
 * A newer orders/updated state without any failure: a tag's failure undone; the state remembered either
 * way. A row of an order with nothing learnt (`none`) holds only the order and its state.
 */
const ON_NO_FAILURE = sql([`
  ON CONFLICT ("shopId", "orderGid") DO UPDATE SET
    "outcome" = CASE WHEN ${BACK_TO_NONE} THEN 'none' WHEN ${TAG_FAILURE} THEN 'delivered' ELSE "OrderOutcome"."outcome" END,
    "reason" = CASE WHEN ${TAG_FAILURE} THEN "OrderOutcome"."deliveredBy" ELSE "OrderOutcome"."reason" END,
    "decidedAt" = CASE WHEN ${TAG_FAILURE} THEN excluded."decidedAt" ELSE "OrderOutcome"."decidedAt" END,
    "stateAt" = excluded."stateAt",
    "phone" = CASE WHEN ${BACK_TO_NONE} THEN NULL ELSE "OrderOutcome"."phone" END,
    "postalCode" = CASE WHEN ${BACK_TO_NONE} THEN NULL ELSE "OrderOutcome"."postalCode" END
  WHERE "OrderOutcome"."stateAt" IS NULL OR "OrderOutcome"."stateAt" < excluded."stateAt"`]);

type Change = { outcome: OrderOutcome | "none"; reason: OutcomeReason | null; stateAt: Date | null; decidedAt: Date };

function onConflict(change: Change): Sql {
  if (change.outcome === "delivered") return ON_DELIVERED;
  return change.outcome === "failed" ? ON_FAILED : ON_NO_FAILURE;
}

/** The row an event of the order's own facts brings (orders/fulfilled, cancelled, updated; the backfill). */
function fromFacts(shopId: string, facts: Pick<OrderFacts, "gid" | "phones" | "shippingAddress">, c: Change): Sql {
  const deliveredBy = c.outcome === "delivered" ? c.reason : null;
  return sql`
    INSERT INTO ${ROW}
    SELECT ${shopId}, ${facts.gid}, ${facts.phones[0] ?? null}, ${normalizePostalCode(facts.shippingAddress?.zip)}, ${c.outcome}, ${c.reason?.slice(0, 100) ?? null}, ${deliveredBy}, ${c.stateAt}, ${c.decidedAt}
    WHERE 1 = 1
    ${onConflict(c)}`;
}

/**
 * The row a carrier's event brings: it names only the order, so the phone comes from the order's record
 * (orders/create's) and the postal code from an earlier event's row. Learnt only for an order recorded
 * as COD, or one already learnt (the backfill's orders from before the install).
 */
function fromRecord(shopId: string, orderGid: string, c: Change): Sql {
  const deliveredBy = c.outcome === "delivered" ? c.reason : null;
  return sql`
    INSERT INTO ${ROW}
    SELECT ${shopId}, ${orderGid}, (SELECT "phone" FROM "OrderRecord" WHERE "shopId" = ${shopId} AND "orderGid" = ${orderGid}), NULL, ${c.outcome}, ${c.reason}, ${deliveredBy}, NULL, ${c.decidedAt}
    WHERE EXISTS (SELECT 1 FROM "OrderRecord" WHERE "shopId" = ${shopId} AND "orderGid" = ${orderGid} AND "cod" = ${true})
      OR EXISTS (SELECT 1 FROM "OrderOutcome" WHERE "shopId" = ${shopId} AND "orderGid" = ${orderGid})
    ${onConflict(c)}`;
}

/**
 * Learns one event of a COD order from its facts (one statement). `stateAt`: the order's updated_at when
 * the event is an orders/updated state. Returns the rows changed (0 or 1).
 */
export async function recordOrderOutcome(
  shopId: string,
  facts: Pick<OrderFacts, "gid" | "phones" | "shippingAddress" | "isCod">,
  outcome: OrderOutcome,
  reason: OutcomeReason,
  decidedAt: Date = clock.now(),
  stateAt: Date | null = null,
) {
  if (!facts.isCod) return 0;
  return execute(fromFacts(shopId, facts, { outcome, reason, stateAt, decidedAt }));
}

/**
 * One live event's statement (not the install's backfill of past orders), and Shopify Flow told what the
 * order's outcome now is (`cod-outcome-learnt`, once per order and outcome: a redelivery, or a delivery
 * seen under a failure, queues nothing new). Returns the rows changed (0 or 1).
 */
async function learnt(shopDomain: string, orderGid: string, statement: Sql): Promise<number> {
  const rows = await query<{ outcome: string; reason: string | null }>(sql`${statement} RETURNING "outcome", "reason"`);
  const row = rows[0];
  if (row && (row.outcome === "delivered" || row.outcome === "failed")) {
    await enqueueFlowTrigger(shopDomain, orderGid, "outcomeLearnt", { outcome: row.outcome, reason: row.reason ?? "" }, row.outcome);
  }
  // Any change (an undone failure too) moves the shop's calibration: recounted within the hour.
  if (row) await enqueueRecalibration(shopDomain);
  return rows.length;
}

/**
 * What a learn call did: the rows changed, or `retry` when the order's shop could not be confirmed
 * because Shopify did not answer (the webhook answers 503 and Shopify delivers it again).
 */
export type Learnt = number | "retry";

/**
 * Whether the order belongs to the shop whose header the delivery carried (docs/webhooks.md). A webhook's
 * body is signed but names no shop, so a captured body could be replayed under another shop's header:
 * an outcome counts only for an order the shop is known to have. Known: the order already has an outcome
 * row in this shop (written after this same check, or by the backfill, which reads the shop's own
 * orders). Else the shop is asked (`order(id:)` with its token: null when the order is not its own);
 * the order's record from orders/create is not enough, since that delivery could be a replay too.
 * The delivery texts ask the same before they text anyone (app/delivery/events.server.ts).
 */
export async function orderIsShops(shop: { id: string; domain: string }, orderGid: string): Promise<boolean | "retry"> {
  const [known] = await query<{ known: unknown }>(sql`SELECT 1 AS "known" FROM "OrderOutcome" WHERE "shopId" = ${shop.id} AND "orderGid" = ${orderGid}`);
  if (known) return true;
  return shopHasOrder(shop.domain, orderGid, "risk: an outcome");
}

/**
 * The shop and the order read into its facts, when the order is a COD order the shop is known to have
 * (orderIsShops); else what the webhook learns: nothing (0), or "retry" when the shop could not be asked.
 */
async function shopsCodOrder(shopDomain: string, order: OrderCreated): Promise<{ shop: Shop; facts: OrderFacts } | Learnt> {
  const shop = await getShop(shopDomain);
  if (!shop) return 0;
  const facts = readOrderFacts(order, { codMethodNames: shop.codMethodNames, country: shopCountryOf(shop) }, clock.now());
  if (!facts.isCod) return 0;
  const mine = await orderIsShops(shop, facts.gid);
  if (mine !== true) return mine === "retry" ? "retry" : 0;
  return { shop, facts };
}

/**
 * orders/fulfilled and orders/cancelled: the order read once into its facts (app/core/shopify/order-facts.ts), then learnt.
 * The body must say what its topic says (a cancellation carries `cancelled_at`, a fulfilment
 * `fulfillment_status: fulfilled`): the topic header is not signed, so an order's orders/create body
 * replayed to orders/cancelled learns nothing.
 */
export async function learnOrderOutcome(shopDomain: string, order: OrderCreated, outcome: OrderOutcome): Promise<Learnt> {
  if (!bodyMatches(order, outcome)) {
    log.info("risk: an outcome whose body does not match its topic; ignored", { shop: shopDomain, orderGid: order.admin_graphql_api_id, outcome });
    return 0;
  }
  const found = await shopsCodOrder(shopDomain, order);
  if (typeof found !== "object") return found;
  const { shop, facts } = found;
  const reason = outcome === "failed" ? "cancelled" : "fulfilled";
  return learnt(shop.domain, facts.gid, fromFacts(shop.id, facts, { outcome, reason, stateAt: null, decidedAt: clock.now() }));
}

/** orders/cancelled's body is a cancelled order; orders/fulfilled's a fulfilled one. */
export function bodyMatches(order: Pick<OrderCreated, "cancelled_at" | "fulfillment_status">, outcome: OrderOutcome): boolean {
  return outcome === "failed" ? Boolean(order.cancelled_at) : order.fulfillment_status === "fulfilled";
}

/**
 * What an order's current state says of its outcome, or null: a tag the merchant lists as a failure
 * (theirs or a shipping app's, e.g. `RTO`; compared without case), else a whole refund (financial
 * status `refunded`: paid on delivery, then returned and paid back). A partial refund says nothing.
 */
export function failureOf(order: Pick<OrderCreated, "tags" | "financial_status">, failureTags: string[]): OutcomeReason | null {
  const tags = (order.tags ?? "").split(",").map((t) => t.trim()).filter(Boolean);
  const tag = tags.find((t) => failureTags.includes(t.toLowerCase()));
  if (tag) return `tag:${tag}`;
  if (order.financial_status === "refunded") return "refunded";
  return null;
}

/**
 * orders/updated (docs/risk.md): a failure tag, a whole refund or a cancellation makes a COD order failed
 * (once); a state with none of them undoes a failure a tag alone made. Each state is applied only when
 * newer than the last one applied (the order's updated_at), so a redelivery or an older state arriving
 * late changes nothing. A state without updated_at can fail an order but never undo one.
 */
export async function learnOrderUpdate(shopDomain: string, order: OrderCreated): Promise<Learnt> {
  const found = await shopsCodOrder(shopDomain, order);
  if (typeof found !== "object") return found;
  const { shop, facts } = found;
  const stateAt = dateOf(order.updated_at);
  const failure = failureOf(order, parseTagList(shop.riskFailureTags)) ?? (order.cancelled_at ? "cancelled" : null);
  if (failure) return learnt(shop.domain, facts.gid, fromFacts(shop.id, facts, { outcome: "failed", reason: failure, stateAt, decidedAt: clock.now() }));
  if (!stateAt) return 0;
  // Nothing is learnt from this state: the order's row keeps the state, not the phone or postal code.
  return learnt(shop.domain, facts.gid, fromFacts(shop.id, { gid: facts.gid, phones: [], shippingAddress: null }, { outcome: "none", reason: null, stateAt, decidedAt: clock.now() }));
}

/**
 * fulfillment_events/create: a carrier's status for one of the order's shipments. `delivered` is a
 * delivery, `failure` a failed delivery; every other status (`attempted_delivery` included: the courier
 * tries again, and a refusal ends in a failure, a cancellation or a return tag) says nothing yet.
 */
export async function learnCarrierEvent(shopDomain: string, event: FulfillmentEvent): Promise<Learnt> {
  const change: Pick<Change, "outcome" | "reason"> | null =
    event.status === "delivered" ? { outcome: "delivered", reason: "carrier:delivered" } : event.status === "failure" ? { outcome: "failed", reason: "carrier:failure" } : null;
  if (!change) return 0;
  const shop = await getShop(shopDomain);
  if (!shop) return 0;
  // Only an order recorded as COD, or learnt already, is learnt (fromRecord): the shop is asked only for those.
  const [candidate] = await query<{ c: unknown }>(sql`SELECT 1 AS "c" WHERE EXISTS (SELECT 1 FROM "OrderRecord" WHERE "shopId" = ${shop.id} AND "orderGid" = ${event.orderGid} AND "cod" = ${true})
    OR EXISTS (SELECT 1 FROM "OrderOutcome" WHERE "shopId" = ${shop.id} AND "orderGid" = ${event.orderGid})`);
  if (!candidate) return 0;
  const mine = await orderIsShops(shop, event.orderGid);
  if (mine !== true) return mine === "retry" ? "retry" : 0;
  return learnt(shop.domain, event.orderGid, fromRecord(shop.id, event.orderGid, { ...change, stateAt: null, decidedAt: clock.now() }));
}

function dateOf(text: string | null | undefined): Date | null {
  const t = text ? Date.parse(text) : NaN;
  return Number.isFinite(t) ? new Date(t) : null;
}
