import { execute, query, sql, toBoolean, toDate } from "~/core/db/sql.server";
import type { Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import type { OrderFacts } from "~/core/shopify/order-facts";
import { paymentModeOf, tagsForOrder } from "./order-tags";
import { asksVerifiedOrders, confirmsAfterPurchase, openConfirmation } from "~/orders/confirmation/confirmation.server";
import { PENDING_TAG } from "~/orders/confirmation/texts";
import { enqueueCustomerVerifiedTag, enqueueOrderTags } from "./tag-jobs.server";
import { checkOrderVerification } from "./order-verification.server";
import { recordOrder } from "./order-record.server";
import { assessCodOrder, enqueueRiskAssessment, orderIpHash, riskColumns, riskTag } from "~/risk/order-risk.server";

/** How far before the order a selection found by phone alone may have been made. */
export const PHONE_LINK_WINDOW_MS = 24 * 60 * 60 * 1000;

type LinkedBy = "already" | "attribute" | "token" | "phone" | null;

/** What linking needs of a selection: which one, its mode, whether the phone was verified, and the cart it was made for. */
export type LinkedSelection = { id: string; mode: string; verified: boolean; phone: string; verifiedAt: Date | null; cartToken: string | null };

type SelectionRow = { id: string; mode: string; verified: unknown; phone: string; verifiedAt: unknown; cartToken: string | null };
const selectionOf = (rows: SelectionRow[]): LinkedSelection | null =>
  rows[0]
    ? {
        id: rows[0].id,
        mode: rows[0].mode,
        verified: toBoolean(rows[0].verified),
        phone: rows[0].phone,
        verifiedAt: rows[0].verifiedAt == null ? null : toDate(rows[0].verifiedAt),
        cartToken: rows[0].cartToken,
      }
    : null;

/** The order itself names the selection: our attribute carries its id, or the order's cart is the selection's cart. */
function carriedBy(selection: LinkedSelection, facts: OrderFacts): boolean {
  return selection.id === facts.selectionId || (!!selection.cartToken && facts.cartTokens.includes(selection.cartToken));
}

/** A list of up to `n` values padded to exactly `n` (repeating the last), for a fixed `IN (...)`. */
function padded(values: string[], n: number): string[] {
  return Array.from({ length: n }, (_, i) => values[Math.min(i, values.length - 1)]);
}

/**
 * orders/create: find the shopper's selection for this order, store the order's GraphQL id on it,
 * and queue the order's tags. Lookups, in order: our own attribute (a selection id, looked up for
 * this shop server-side, never trusted as proof of verification), the cart or checkout token, then
 * the phone within PHONE_LINK_WINDOW_MS before the order (a link by phone names the mode only: it is
 * never evidence, app/orders/order-verification.server.ts). Idempotent: an order already linked keeps
 * its selection, and its tag job is the same row. Every delivery runs these, so they are direct
 * statements (app/core/db/sql.server.ts).
 */
// The token and phone lookups say "not linked yet" as COALESCE("orderGid", '') = '' rather than
// "orderGid" IS NULL: SQLite would otherwise search the unique index on orderGid for NULL, which is
// every selection never linked to an order (all abandoned ones, a number that only grows), instead
// of the (shopId, cartToken) and (shopId, phone, createdAt) indexes.
export async function linkOrderAndQueueTags(shop: Shop, facts: OrderFacts) {
  const orderGid = facts.gid;
  let linkedBy: LinkedBy = null;
  let selection = await selectionOfOrder(orderGid);
  if (selection) linkedBy = "already";

  if (!selection) {
    const id = facts.selectionId;
    if (id) {
      selection = selectionOf(
        await query<SelectionRow>(sql`
          SELECT "id", "mode", "verified", "phone", "verifiedAt", "cartToken" FROM "Selection" WHERE "shopId" = ${shop.id} AND "orderGid" IS NULL AND "id" = ${id}`),
      );
      if (selection) linkedBy = "attribute";
    }
  }
  if (!selection) {
    const tokens = facts.cartTokens;
    if (tokens.length) {
      const [a, b] = padded(tokens, 2);
      selection = selectionOf(
        await query<SelectionRow>(sql`
          SELECT "id", "mode", "verified", "phone", "verifiedAt", "cartToken" FROM "Selection"
          WHERE "shopId" = ${shop.id} AND COALESCE("orderGid", '') = '' AND "cartToken" IN (${a}, ${b})
          ORDER BY "createdAt" DESC LIMIT 1`),
      );
      if (selection) linkedBy = "token";
    }
  }
  if (!selection) {
    const { phones, placedAt } = facts;
    if (phones.length) {
      const [a, b, c, d] = padded(phones, 4);
      const from = new Date(placedAt.getTime() - PHONE_LINK_WINDOW_MS);
      const to = new Date(placedAt.getTime() + 5 * 60_000);
      selection = selectionOf(
        await query<SelectionRow>(sql`
          SELECT "id", "mode", "verified", "phone", "verifiedAt", "cartToken" FROM "Selection"
          WHERE "shopId" = ${shop.id} AND COALESCE("orderGid", '') = '' AND "phone" IN (${a}, ${b}, ${c}, ${d})
            AND "createdAt" >= ${from} AND "createdAt" <= ${to}
          ORDER BY "createdAt" DESC LIMIT 1`),
      );
      if (selection) linkedBy = "phone";
    }
  }

  if (selection && linkedBy !== "already") {
    const claimed = await claimSelection(selection.id, orderGid, facts.name);
    if (!claimed) {
      // A concurrent copy of this delivery linked the order first (or took this selection for another order).
      selection = await selectionOfOrder(orderGid);
      linkedBy = selection ? "already" : null;
    }
  }

  const verification = await checkOrderVerification(shop, facts, selection && { ...selection, carried: carriedBy(selection, facts) });
  // The gateway decides: a COD order nobody verified goes to verification after purchase (when the
  // shop verifies phones), tagged cod-pending rather than unverified until the shopper confirms or the
  // deadline passes, whatever mode a linked selection names.
  const confirmAfter = facts.isCod && !verification.verified && confirmsAfterPurchase(shop);
  const mode = paymentModeOf(facts.isCod, selection);
  // A COD order's risk (app/risk): tagged with the order's tags, stored with its record, written to Shopify's risk panel.
  const risk = await assessCodOrder(shop, facts, verification.verified);
  // An uninstalled shop has no token to tag with; the link is still kept for the merchant's return.
  const tags = (shop.uninstalledAt ? [] : tagsForOrder(shop, { isCod: facts.isCod, mode, verified: verification.verified })).map((t) =>
    confirmAfter && t === shop.tagUnverified ? PENDING_TAG : t,
  );
  if (risk && shop.tagOrders && !shop.uninstalledAt) tags.push(riskTag(risk.band));
  if (tags.length) await enqueueOrderTags(shop.domain, orderGid, tags);
  if (confirmAfter) {
    await openConfirmation(shop, {
      gid: orderGid,
      name: facts.name,
      phone: facts.phones[0] ?? null,
      customerGid: facts.customer.gid,
      locale: facts.locale,
    });
  } else if (facts.isCod && verification.verified && asksVerifiedOrders(shop) && facts.phones[0]) {
    // The shop asks every COD order on WhatsApp: a verified one gets the question too (no hold, no SMS, no deadline effect).
    await openConfirmation(shop, { gid: orderGid, name: facts.name, phone: facts.phones[0], customerGid: facts.customer.gid, locale: facts.locale }, "courtesy");
  }
  await recordOrder(shop.id, {
    orderGid,
    orderName: facts.name,
    phone: verification.verified ? verification.phone : (facts.phones[0] ?? null),
    mode,
    cod: facts.isCod,
    status: verification.verified ? "verified" : confirmAfter ? "pending" : "unverified",
    verifiedBy: verification.verified ? verification.by : null,
    placedAt: facts.placedAt,
    risk: risk && riskColumns(risk),
    value: facts.isCod ? facts.value : null,
    ipHash: facts.isCod ? orderIpHash(shop.id, facts.browserIp) : null,
  });
  if (risk && !shop.uninstalledAt) await enqueueRiskAssessment(shop.domain, orderGid, risk);
  // The customer tag the payment customization function reads: a returning verified customer keeps
  // cash on delivery at checkout (and the next order is re-checked against their verified phone).
  // Only the order's own evidence earns it (never a selection found by phone).
  if (verification.verified && !shop.uninstalledAt && facts.customer.gid) {
    await enqueueCustomerVerifiedTag(shop.domain, facts.customer.gid, verification.phone);
  }
  log.info("orders/create handled", {
    shop: shop.domain,
    orderGid,
    linkedBy,
    selectionId: selection?.id ?? null,
    verifiedBy: verification.verified ? verification.by : null,
    notVerifiedBecause: verification.verified ? null : verification.reason,
    tags,
  });
  return { selection, linkedBy, tags, verification };
}

async function selectionOfOrder(orderGid: string): Promise<LinkedSelection | null> {
  return selectionOf(await query<SelectionRow>(sql`SELECT "id", "mode", "verified", "phone", "verifiedAt", "cartToken" FROM "Selection" WHERE "orderGid" = ${orderGid}`));
}

/** SQLite and PostgreSQL name a unique-constraint violation differently. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "23505";
}

async function claimSelection(id: string, orderGid: string, orderName: string | null): Promise<boolean> {
  const now = clock.now();
  try {
    const count = await execute(sql`
      UPDATE "Selection" SET "orderGid" = ${orderGid}, "orderName" = ${orderName}, "linkedAt" = ${now}, "updatedAt" = ${now}
      WHERE "id" = ${id} AND "orderGid" IS NULL`);
    return count === 1;
  } catch (error) {
    if (isUniqueViolation(error)) return false; // orderGid already on another selection
    throw error;
  }
}
