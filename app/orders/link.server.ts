import { execute, query, sql, toBoolean } from "~/db/sql.server";
import type { Shop } from "~/settings/shop.server";
import { clock } from "~/utils/clock.server";
import { log } from "~/utils/log.server";
import { orderPhones, selectionIdOf, tagsForOrder, type OrderPayload } from "./order-payload";
import { enqueueOrderTags } from "./tag-jobs.server";

/** How far before the order a selection found by phone alone may have been made. */
export const PHONE_LINK_WINDOW_MS = 24 * 60 * 60 * 1000;

type LinkedBy = "already" | "attribute" | "token" | "phone" | null;

/** What linking needs of a selection: which one, its mode and whether the phone was verified. */
export type LinkedSelection = { id: string; mode: string; verified: boolean };

type SelectionRow = { id: string; mode: string; verified: unknown };
const selectionOf = (rows: SelectionRow[]): LinkedSelection | null =>
  rows[0] ? { id: rows[0].id, mode: rows[0].mode, verified: toBoolean(rows[0].verified) } : null;

/** A list of up to `n` values padded to exactly `n` (repeating the last), for a fixed `IN (...)`. */
function padded(values: string[], n: number): string[] {
  return Array.from({ length: n }, (_, i) => values[Math.min(i, values.length - 1)]);
}

/**
 * orders/create: find the shopper's selection for this order, store the order's GraphQL id on it,
 * and queue the order's tags. Lookups, in order: our own attribute (a selection id, looked up for
 * this shop server-side, never trusted as proof of verification), the cart or checkout token, then
 * the phone within PHONE_LINK_WINDOW_MS before the order. Idempotent: an order already linked keeps
 * its selection, and its tag job is the same row. Every delivery runs these, so they are direct
 * statements (app/db/sql.server.ts).
 */
export async function linkOrderAndQueueTags(shop: Shop, order: OrderPayload) {
  const orderGid = order.admin_graphql_api_id;
  let linkedBy: LinkedBy = null;
  let selection = await selectionOfOrder(orderGid);
  if (selection) linkedBy = "already";

  if (!selection) {
    const id = selectionIdOf(order);
    if (id) {
      selection = selectionOf(
        await query<SelectionRow>(sql`
          SELECT "id", "mode", "verified" FROM "Selection" WHERE "shopId" = ${shop.id} AND "orderGid" IS NULL AND "id" = ${id}`),
      );
      if (selection) linkedBy = "attribute";
    }
  }
  if (!selection) {
    const tokens = [order.cart_token, order.checkout_token].filter((t): t is string => !!t);
    if (tokens.length) {
      const [a, b] = padded(tokens, 2);
      selection = selectionOf(
        await query<SelectionRow>(sql`
          SELECT "id", "mode", "verified" FROM "Selection"
          WHERE "shopId" = ${shop.id} AND "orderGid" IS NULL AND "cartToken" IN (${a}, ${b})
          ORDER BY "createdAt" DESC LIMIT 1`),
      );
      if (selection) linkedBy = "token";
    }
  }
  if (!selection) {
    const phones = orderPhones(order);
    const placedAt = orderTime(order);
    if (phones.length) {
      const [a, b, c, d] = padded(phones, 4);
      const from = new Date(placedAt.getTime() - PHONE_LINK_WINDOW_MS);
      const to = new Date(placedAt.getTime() + 5 * 60_000);
      selection = selectionOf(
        await query<SelectionRow>(sql`
          SELECT "id", "mode", "verified" FROM "Selection"
          WHERE "shopId" = ${shop.id} AND "orderGid" IS NULL AND "phone" IN (${a}, ${b}, ${c}, ${d})
            AND "createdAt" >= ${from} AND "createdAt" <= ${to}
          ORDER BY "createdAt" DESC LIMIT 1`),
      );
      if (selection) linkedBy = "phone";
    }
  }

  if (selection && linkedBy !== "already") {
    const claimed = await claimSelection(selection.id, orderGid, order.name ?? null);
    if (!claimed) {
      // A concurrent copy of this delivery linked the order first (or took this selection for another order).
      selection = await selectionOfOrder(orderGid);
      linkedBy = selection ? "already" : null;
    }
  }

  // An uninstalled shop has no token to tag with; the link is still kept for the merchant's return.
  const tags = shop.uninstalledAt ? [] : tagsForOrder(shop, selection, order);
  if (tags.length) await enqueueOrderTags(shop.domain, orderGid, tags);
  log.info("orders/create handled", { shop: shop.domain, orderGid, linkedBy, selectionId: selection?.id ?? null, tags });
  return { selection, linkedBy, tags };
}

async function selectionOfOrder(orderGid: string): Promise<LinkedSelection | null> {
  return selectionOf(await query<SelectionRow>(sql`SELECT "id", "mode", "verified" FROM "Selection" WHERE "orderGid" = ${orderGid}`));
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

function orderTime(order: OrderPayload): Date {
  const t = order.created_at ? Date.parse(order.created_at) : NaN;
  return Number.isFinite(t) ? new Date(t) : clock.now();
}
