import { joinSql, query, sql, sqliteIndexedBy, toBoolean, toDate, type Sql } from "~/core/db/sql.server";
import type { Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { flowTriggerJobFor } from "~/core/flow/trigger-jobs.server";
import { log } from "~/core/utils/log.server";
import type { OrderFacts } from "~/core/shopify/order-facts";
import { deliverySeen, recordDelivery, type Delivery } from "~/core/shopify/webhook-deliveries.server";
import { afterJobFound, type PlannedJob } from "~/core/jobs/queue.server";
import { paymentModeOf, tagsForOrder } from "./order-tags";
import { asksVerifiedOrders, confirmationOpening, confirmsAfterPurchase, scheduleExistingConfirmation } from "~/orders/confirmation/confirmation.server";
import { PENDING_TAG } from "~/orders/confirmation/texts";
import { customerVerifiedTagJobFor, orderTagsJobFor } from "./tag-jobs.server";
import { decideOrderVerification, offerOnOrder, phoneStandingColumns, phoneStandingOf, type PhoneStanding } from "./order-verification.server";
import { bandAction, pricingSettingsOf } from "~/risk/pricing";
import { orderRecordInsert } from "./order-record.server";
import { codOrderAssessment, codOrderRiskColumns, orderIpHash, riskAssessmentJobFor, riskColumns, riskTag, type CodOrderRiskRow } from "~/risk/order-risk.server";
import { depositBalanceFor, depositSelectionColumns, type DepositSelectionRow } from "./deposit-balance.server";
import { addressCheckFor } from "~/address-correction/auto-check.server";
import { writeOrderCreated, type OrderWrites } from "./order-created-write.server";
import { normalizePostalCode } from "~/risk/signals";
import { readStoredBehaviour } from "~/risk/stored";
import { prepaidOfferJobFor } from "./prepaid-offer.server";
import { pauseReason } from "~/enforcement/pause";
import { allowanceMonthStart } from "~/shared/plans";
import { HOLDOUT_TAG } from "~/experiment/report";

/** A COD order placed with a priced proof whose deposit it did not pay (docs/risk.md): the merchant looks. */
export const DEPOSIT_UNPAID_TAG = "cod-deposit-unpaid";

/** How far before the order a selection found by phone alone may have been made. */
export const PHONE_LINK_WINDOW_MS = 24 * 60 * 60 * 1000;

type LinkedBy = "already" | "attribute" | "token" | "phone" | null;

/** What linking needs of a selection: which one, its mode, whether the phone was verified, and the cart it was made for. */
export type LinkedSelection = { id: string; mode: string; verified: boolean; phone: string; verifiedAt: Date | null; cartToken: string | null; riskBehaviour?: string | null };

type SelectionRow = { id: string | null; mode: string; verified: unknown; phone: string; verifiedAt: unknown; cartToken: string | null; riskBehaviour?: string | null };
const selectionOf = (row: SelectionRow | undefined): LinkedSelection | null =>
  row?.id
    ? { id: row.id, mode: row.mode, verified: toBoolean(row.verified), phone: row.phone, verifiedAt: row.verifiedAt == null ? null : toDate(row.verifiedAt), cartToken: row.cartToken, riskBehaviour: row.riskBehaviour ?? null }
    : null;

/** The order itself names the selection: our attribute carries its id, or the order's cart is the selection's cart. */
function carriedBy(selection: LinkedSelection, facts: OrderFacts): boolean {
  return selection.id === facts.selectionId || (!!selection.cartToken && facts.cartTokens.includes(selection.cartToken));
}

/** A list of up to `n` values padded to exactly `n` (repeating the last): one statement text whatever an order carries. */
function padded(values: readonly string[], n: number): string[] {
  return Array.from({ length: n }, (_, i) => values[Math.min(i, values.length - 1)]);
}

/** Everything orders/create reads before it decides, in one statement (`readOrderCreated`). */
export type OrderCreatedReads = {
  /** The delivery was handled before (a redelivery): nothing to do. */
  seen: boolean;
  selection: LinkedSelection | null;
  linkedBy: LinkedBy;
  standing: PhoneStanding;
  risk: CodOrderRiskRow;
  deposit: DepositSelectionRow;
  /** The shop's verifications this month against its allowance (a paused shop opens no confirmation). */
  verifiedThisMonth: number;
};

type ReadRow = CodOrderRiskRow &
  DepositSelectionRow &
  Record<string, unknown> & {
    seen: unknown;
    verifiedThisMonth: unknown;
    byOrder: string | null;
    byAttribute: string | null;
    byToken: string | null;
    selId: string | null;
    selMode: string;
    selVerified: unknown;
    selPhone: string;
    selVerifiedAt: unknown;
    selCartToken: string | null;
    selBehaviour: string | null;
  };

/**
 * orders/create's reads, one statement (scalar subqueries of one SELECT, the same SQL on both engines):
 * whether the delivery was handled, the shopper's selection for this order, the order's phones' standing
 * (blocked, last verified), its COD risk facts and its deposit code's selection. The selection, in order:
 * the one already linked to the order, our own attribute (a selection id, looked up for this shop
 * server-side, never trusted as proof of verification), the cart or checkout token, then the phone within
 * PHONE_LINK_WINDOW_MS before the order (a link by phone names the mode only: it is never evidence,
 * app/orders/order-verification.server.ts).
 */
// The token and phone lookups say "not linked yet" as COALESCE("orderGid", '') = '' rather than
// "orderGid" IS NULL: SQLite would otherwise search the unique index on orderGid for NULL, which is
// every selection never linked to an order (all abandoned ones, a number that only grows), instead
// of the (shopId, cartToken) and (shopId, phone, createdAt) indexes.
//
// Each value is looked up on its own (`newestUnlinked`): one `"phone" IN (...) ORDER BY "createdAt" DESC LIMIT 1`
// let the planner walk the retention job's (shopId, createdAt) index backwards, hoping to meet one of the
// phones soon, and an order whose phone has no selection (every COD order placed without the modal) then read
// every selection of the shop in the link window, thousands a day in a busy shop: PostgreSQL did so with
// statistics gathered (its generic plan: 1,532 buffers for such an order in the bench), SQLite without any. With one
// value per branch, the branch's index gives its rows newest first and the first one is the answer, whatever
// the statistics; SQLite is also told which index each branch reads (`INDEXED BY`).

/**
 * The newest selection of the shop not linked yet whose `column` is one of `values`: one branch per value
 * (newest first, the first row), then the newest of the branches' rows.
 */
function newestUnlinked(shopId: string, column: "phone" | "cartToken", values: readonly string[], index: string, window?: { from: Date; to: Date }): Sql {
  const branches = values.map(
    (value, i) => sql`SELECT "id", "createdAt" FROM (SELECT "id", "createdAt" FROM "Selection"${sqliteIndexedBy(index)}
      WHERE "shopId" = ${shopId} AND ${sql([`"${column}"`])} = ${value} AND COALESCE("orderGid", '') = ''${window ? sql` AND "createdAt" >= ${window.from} AND "createdAt" <= ${window.to}` : sql``}
      ORDER BY "createdAt" DESC LIMIT 1) ${sql([`AS "v${i}"`])}`,
  );
  return sql`(SELECT "id" FROM (${joinSql(branches, " UNION ALL ")}) AS "newest" ORDER BY "createdAt" DESC LIMIT 1)`;
}

/** The newest selection not linked yet made for one of the order's cart or checkout tokens. */
export function selectionByToken(shopId: string, cartTokens: readonly string[]): Sql {
  return newestUnlinked(shopId, "cartToken", padded(cartTokens, 2), "Selection_shopId_cartToken_idx");
}

/** The newest selection not linked yet made for one of the order's phones, within PHONE_LINK_WINDOW_MS before it. */
export function selectionByPhone(shopId: string, phones: readonly string[], placedAt: Date): Sql {
  const from = new Date(placedAt.getTime() - PHONE_LINK_WINDOW_MS);
  const to = new Date(placedAt.getTime() + 5 * 60_000);
  return newestUnlinked(shopId, "phone", padded(phones, 4), "Selection_shopId_phone_createdAt_idx", { from, to });
}

export async function readOrderCreated(shop: Pick<Shop, "id" | "timezone">, facts: OrderFacts, webhookId: string): Promise<OrderCreatedReads> {
  const { phones, placedAt, cartTokens, selectionId } = facts;
  const [row] = await query<ReadRow>(sql`
    SELECT ${deliverySeen(webhookId)} AS "seen", ${verifiedThisMonthColumn(shop, clock.now())} AS "verifiedThisMonth", "pick"."byOrder", "pick"."byAttribute", "pick"."byToken",
      "s"."id" AS "selId", "s"."mode" AS "selMode", "s"."verified" AS "selVerified", "s"."phone" AS "selPhone",
      "s"."verifiedAt" AS "selVerifiedAt", "s"."cartToken" AS "selCartToken", "s"."riskBehaviour" AS "selBehaviour",
      ${phoneStandingColumns(shop.id, phones)}, ${codOrderRiskColumns(shop.id, facts)}, ${depositSelectionColumns(shop.id, facts)}
    FROM (SELECT
        (SELECT "id" FROM "Selection" WHERE "orderGid" = ${facts.gid}) AS "byOrder",
        ${selectionId ? sql`(SELECT "id" FROM "Selection" WHERE "shopId" = ${shop.id} AND "orderGid" IS NULL AND "id" = ${selectionId})` : sql`NULL`} AS "byAttribute",
        ${cartTokens.length ? selectionByToken(shop.id, cartTokens) : sql`NULL`} AS "byToken",
        ${phones.length ? selectionByPhone(shop.id, phones, placedAt) : sql`NULL`} AS "byPhone") "pick"
    LEFT JOIN "Selection" "s" ON "s"."id" = COALESCE("pick"."byOrder", "pick"."byAttribute", "pick"."byToken", "pick"."byPhone")`);
  const selection = selectionOf({ id: row.selId, mode: row.selMode, verified: row.selVerified, phone: row.selPhone, verifiedAt: row.selVerifiedAt, cartToken: row.selCartToken, riskBehaviour: row.selBehaviour });
  const linkedBy: LinkedBy = !selection ? null : row.byOrder ? "already" : row.byAttribute ? "attribute" : row.byToken ? "token" : "phone";
  return { seen: row.seen != null, selection, linkedBy, standing: phoneStandingOf(phones, row), risk: row, deposit: row, verifiedThisMonth: Number(row.verifiedThisMonth ?? 0) };
}

/** The shop's verifications counted against the allowance in its calendar month of `at`: at most 31 DailyStat rows. */
function verifiedThisMonthColumn(shop: Pick<Shop, "id" | "timezone">, at: Date): Sql {
  return sql`(SELECT COALESCE(SUM("count"), 0) FROM "DailyStat" WHERE "shopId" = ${shop.id} AND "metric" = 'otp_verified' AND "day" >= ${allowanceMonthStart(at, shop.timezone)})`;
}

async function selectionOfOrder(orderGid: string): Promise<LinkedSelection | null> {
  const [row] = await query<SelectionRow>(sql`SELECT "id", "mode", "verified", "phone", "verifiedAt", "cartToken", "riskBehaviour" FROM "Selection" WHERE "orderGid" = ${orderGid}`);
  return selectionOf(row);
}

function claimSelection(id: string, orderGid: string, orderName: string | null, now: Date): Sql {
  return sql`
      UPDATE "Selection" SET "orderGid" = ${orderGid}, "orderName" = ${orderName}, "linkedAt" = ${now}, "updatedAt" = ${now}
      WHERE "id" = ${id} AND "orderGid" IS NULL`;
}

/**
 * orders/create, once its reads are in (`readOrderCreated`): link the order to the shopper's selection
 * (the claim: a conditional update only one delivery can win), re-check its evidence, assess its risk,
 * and write everything the merchant and the shopper see next in one round trip (app/orders/order-created-write.server.ts):
 * the tags job, the confirmation after purchase and its steps, the order's record, the risk-panel job, the
 * customer's tag job, the deposit balance, the address check, and the delivery's record. Idempotent: an
 * order already linked keeps its selection, every write is `ON CONFLICT DO NOTHING`, and a job that finds
 * its row is merged as `enqueueJob` merges it.
 */
export async function linkOrderAndQueueTags(shop: Shop, facts: OrderFacts, reads: OrderCreatedReads, delivery: Delivery) {
  let { selection, linkedBy } = reads;
  for (;;) {
    const plan = planOrderWrites(shop, facts, reads, selection, linkedBy === "already" ? null : selection, delivery);
    const written = await writeOrderCreated(plan.writes);
    if (!written.claimed) {
      // A concurrent copy of this delivery linked the order first (or took this selection for another order).
      selection = await selectionOfOrder(facts.gid);
      linkedBy = selection ? "already" : null;
      continue;
    }
    if (plan.confirmation && !written.opened) await scheduleExistingConfirmation(shop, facts.gid);
    else if (plan.confirmation) plan.confirmation.logOpened();
    for (const job of written.found) await afterJobFound(job);
    if (!written.delivered) await recordDelivery(delivery.webhookId, delivery.topic, delivery.shop);
    const { verification, tags } = plan;
    log.info("orders/create handled", {
      shop: shop.domain,
      orderGid: facts.gid,
      linkedBy,
      selectionId: selection?.id ?? null,
      verifiedBy: verification.verified ? verification.by : null,
      notVerifiedBecause: verification.verified ? null : verification.reason,
      tags,
    });
    return { selection, linkedBy, tags, verification };
  }
}

/** What orders/create writes, decided from its reads (no I/O but the log lines of the deposit check). */
function planOrderWrites(shop: Shop, facts: OrderFacts, reads: OrderCreatedReads, selection: LinkedSelection | null, toClaim: LinkedSelection | null, delivery: Delivery) {
  const now = clock.now();
  const orderGid = facts.gid;
  const carried = !!selection && carriedBy(selection, facts);
  const verification = decideOrderVerification(shop, facts, selection && { ...selection, carried }, reads.standing);
  // The gateway decides: a COD order nobody verified goes to verification after purchase (when the
  // shop verifies phones), tagged cod-pending rather than unverified until the shopper confirms or the
  // deadline passes, whatever mode a linked selection names.
  const mode = paymentModeOf(facts.isCod, selection);
  // A COD order's risk (app/risk): tagged with the order's tags, stored with its record, written to Shopify's risk panel.
  // The modal's behaviour readings count only from the selection the order itself names (never one found by phone).
  const risk = codOrderAssessment(shop, facts, verification.verified, reads.risk, carried ? readStoredBehaviour(selection?.riskBehaviour) : null);
  // A shopper the holdout experiment held out (app/experiment): no confirmation, tagged cod-holdout, unless
  // the order itself is high risk (never held out).
  const heldOut = facts.isCod && !verification.verified && !!verification.heldOut && risk?.band !== "high";
  // A paused shop (the month's allowance used up too) opens no confirmation and holds nothing: the order
  // is left unverified for the merchant, never held or cancelled for a check the shopper cannot finish.
  const paused = pauseReason(shop, reads.verifiedThisMonth, allowanceMonthStart(now, shop.timezone)) !== null;
  // The merchant's band action "confirm" (docs/risk.md): the storefront's proof said so, or the order's own band
  // does; a verified order of that band goes through the confirmation after purchase too.
  const riskConfirms = facts.isCod && (offerOnOrder(shop, facts)?.action === "confirm" || (!!risk && bandAction(risk.band, pricingSettingsOf(shop)) === "confirm"));
  const confirmAfter = facts.isCod && (!verification.verified || riskConfirms) && !heldOut && confirmsAfterPurchase(shop) && !paused;
  // An uninstalled shop has no token to tag with; the link is still kept for the merchant's return.
  const tags = (shop.uninstalledAt ? [] : tagsForOrder(shop, { isCod: facts.isCod, mode, verified: verification.verified })).map((t) =>
    confirmAfter && t === shop.tagUnverified ? PENDING_TAG : heldOut && t === shop.tagUnverified ? HOLDOUT_TAG : t,
  );
  if (risk && shop.tagOrders && !shop.uninstalledAt) tags.push(riskTag(risk.band));
  if (!verification.verified && verification.reason === "deposit_unpaid" && !shop.uninstalledAt) tags.push(DEPOSIT_UNPAID_TAG);
  const order = { gid: orderGid, name: facts.name, phone: facts.phones[0] ?? null, customerGid: facts.customer.gid, locale: facts.locale };
  // The shop asks every COD order on WhatsApp: a verified one gets the question too (no hold, no SMS, no deadline effect).
  const courtesy = !confirmAfter && facts.isCod && verification.verified && asksVerifiedOrders(shop) && !!facts.phones[0];
  const confirmation = confirmAfter ? confirmationOpening(shop, order, "verify", now) : courtesy ? confirmationOpening(shop, order, "courtesy", now) : null;
  const deposit = depositBalanceFor(shop, facts, reads.deposit);
  const jobs = orderJobs(shop, facts, { mode, verification, risk, confirmAfter, confirmed: !!confirmation }, deposit.jobs, now);
  // One tags job per order: the order's tags, the confirmation's (when this delivery opens it) and the deposit's, in that order.
  const tagsWith = (more: string[]) => orderTagsJobFor(shop.domain, orderGid, [...new Set([...tags, ...more, ...deposit.tags])]);
  const writes: OrderWrites = {
    now,
    claim: toClaim && claimSelection(toClaim.id, orderGid, facts.name, now),
    confirmation: confirmation && { insert: confirmation.insert, jobs: confirmation.steps.jobs },
    tags: { ifOpened: confirmation ? tagsWith(confirmation.steps.tags) : null, otherwise: tagsWith([]) },
    jobs,
    record: (source?: Sql) => orderRecordInsert(shop.id, orderRecordOf(shop, facts, { mode, verification, risk, confirmAfter }), source),
    delivery,
  };
  return { writes, verification, tags, confirmation };
}

type OrderStanding = {
  mode: ReturnType<typeof paymentModeOf>;
  verification: ReturnType<typeof decideOrderVerification>;
  risk: ReturnType<typeof codOrderAssessment>;
  confirmAfter: boolean;
};

/** The order's jobs besides its tags: the risk panel, the customer's tag, the deposit's and the address check's, Flow, pay now. */
function orderJobs(shop: Shop, facts: OrderFacts, o: OrderStanding & { confirmed: boolean }, depositJobs: PlannedJob[], now: Date): PlannedJob[] {
  const orderGid = facts.gid;
  const { verification, risk } = o;
  const addressCheck = addressCheckFor(shop, facts);
  const jobs: PlannedJob[] = [];
  if (risk && !shop.uninstalledAt) jobs.push(riskAssessmentJobFor(shop.domain, orderGid, risk));
  // The customer tag the payment customization function reads: a returning verified customer keeps
  // cash on delivery at checkout (and the next order is re-checked against their verified phone).
  // Only the order's own evidence earns it (never a selection found by phone).
  if (verification.verified && !shop.uninstalledAt && facts.customer.gid) jobs.push(customerVerifiedTagJobFor(shop.domain, facts.customer.gid, verification.phone));
  jobs.push(...depositJobs, ...(addressCheck ? [addressCheck] : []));
  // Shopify Flow (app/flow): the COD order verified or not, and high risk; queued with the order's other writes.
  if (facts.isCod && !shop.uninstalledAt) jobs.push(...flowTriggersOfNewOrder(shop.domain, orderGid, { mode: o.mode, verification, pending: o.confirmAfter, risk }));
  // Pay now after the order: at once for a COD order with no confirmation; after it otherwise (its confirmed step queues it).
  const prepaidOffer = facts.isCod && !o.confirmed ? prepaidOfferJobFor(shop, orderGid, now) : null;
  if (prepaidOffer) jobs.push(prepaidOffer);
  return jobs;
}

/** The order's record (OrderRecord): who verified it, its status, its risk and the facts the risk score reads later. */
function orderRecordOf(shop: Shop, facts: OrderFacts, o: OrderStanding) {
  const { verification, risk } = o;
  return {
    orderGid: facts.gid,
    orderName: facts.name,
    phone: verification.verified ? verification.phone : (facts.phones[0] ?? null),
    mode: o.mode,
    cod: facts.isCod,
    status: o.confirmAfter ? "pending" : verification.verified ? "verified" : "unverified",
    verifiedBy: verification.verified ? verification.by : null,
    placedAt: facts.placedAt,
    risk: risk && riskColumns(risk),
    value: facts.isCod ? facts.value : null,
    ipHash: facts.isCod ? orderIpHash(shop.id, facts.browserIp) : null,
    traffic: facts.trafficSource,
    postalCode: normalizePostalCode(facts.shippingAddress?.zip),
    products: facts.products,
  } as const;
}

/** The Flow triggers a new COD order fires: verified or unverified (pending: asked to confirm after purchase), and high risk. */
function flowTriggersOfNewOrder(
  shop: string,
  orderGid: string,
  o: { mode: string | null; verification: ReturnType<typeof decideOrderVerification>; pending: boolean; risk: ReturnType<typeof codOrderAssessment> },
): PlannedJob[] {
  const jobs = [
    o.verification.verified
      ? flowTriggerJobFor(shop, orderGid, "verified", { "payment mode": o.mode ?? "cod", "verified by": o.verification.by })
      : flowTriggerJobFor(shop, orderGid, "unverified", { "payment mode": o.mode ?? "", "status": o.pending ? "pending" : "unverified" }),
  ];
  if (o.risk?.band === "high") {
    const reasons = [o.risk.rule?.code, ...o.risk.reasons.map((r) => r.code)].filter(Boolean).join(", ");
    jobs.push(flowTriggerJobFor(shop, orderGid, "highRisk", { "risk score": o.risk.score, "risk reasons": reasons }));
  }
  return jobs;
}
