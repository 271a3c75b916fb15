import { prisma } from "~/db.server";
import type { Shop } from "~/settings/shop.server";
import { clock } from "~/utils/clock.server";
import { log } from "~/utils/log.server";
import { orderPhones, selectionIdOf, tagsForOrder, type OrderPayload } from "./order-payload";
import { enqueueOrderTags } from "./tag-jobs.server";

/** How far before the order a selection found by phone alone may have been made. */
export const PHONE_LINK_WINDOW_MS = 24 * 60 * 60 * 1000;

type LinkedBy = "already" | "attribute" | "token" | "phone" | null;

/**
 * orders/create: find the shopper's selection for this order, store the order's GraphQL id on it,
 * and queue the order's tags. Lookups, in order: our own attribute (a selection id, looked up for
 * this shop server-side, never trusted as proof of verification), the cart or checkout token, then
 * the phone within PHONE_LINK_WINDOW_MS before the order. Idempotent: an order already linked keeps
 * its selection, and its tag job is the same row.
 */
export async function linkOrderAndQueueTags(shop: Shop, order: OrderPayload) {
  const orderGid = order.admin_graphql_api_id;
  let linkedBy: LinkedBy = null;
  let selection = await prisma.selection.findUnique({ where: { orderGid } });
  if (selection) linkedBy = "already";

  const unlinked = { shopId: shop.id, orderGid: null };
  if (!selection) {
    const id = selectionIdOf(order);
    if (id) {
      selection = await prisma.selection.findFirst({ where: { ...unlinked, id } });
      if (selection) linkedBy = "attribute";
    }
  }
  if (!selection) {
    const tokens = [order.cart_token, order.checkout_token].filter((t): t is string => !!t);
    if (tokens.length) {
      selection = await prisma.selection.findFirst({ where: { ...unlinked, cartToken: { in: tokens } }, orderBy: { createdAt: "desc" } });
      if (selection) linkedBy = "token";
    }
  }
  if (!selection) {
    const phones = orderPhones(order);
    const placedAt = orderTime(order);
    if (phones.length) {
      selection = await prisma.selection.findFirst({
        where: {
          ...unlinked,
          phone: { in: phones },
          createdAt: { gte: new Date(placedAt.getTime() - PHONE_LINK_WINDOW_MS), lte: new Date(placedAt.getTime() + 5 * 60_000) },
        },
        orderBy: { createdAt: "desc" },
      });
      if (selection) linkedBy = "phone";
    }
  }

  if (selection && linkedBy !== "already") {
    const claimed = await claimSelection(selection.id, orderGid, order.name ?? null);
    if (!claimed) {
      // A concurrent copy of this delivery linked the order first (or took this selection for another order).
      selection = await prisma.selection.findUnique({ where: { orderGid } });
      linkedBy = selection ? "already" : null;
    }
  }

  // An uninstalled shop has no token to tag with; the link is still kept for the merchant's return.
  const tags = shop.uninstalledAt ? [] : tagsForOrder(shop, selection, order);
  if (tags.length) await enqueueOrderTags(shop.domain, orderGid, tags);
  log.info("orders/create handled", { shop: shop.domain, orderGid, linkedBy, selectionId: selection?.id ?? null, tags });
  return { selection, linkedBy, tags };
}

async function claimSelection(id: string, orderGid: string, orderName: string | null): Promise<boolean> {
  try {
    const { count } = await prisma.selection.updateMany({
      where: { id, orderGid: null },
      data: { orderGid, orderName, linkedAt: clock.now() },
    });
    return count === 1;
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") return false; // orderGid already on another selection
    throw error;
  }
}

function orderTime(order: OrderPayload): Date {
  const t = order.created_at ? Date.parse(order.created_at) : NaN;
  return Number.isFinite(t) ? new Date(t) : clock.now();
}
