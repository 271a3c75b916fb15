import { prisma } from "~/db.server";
import type { Shop } from "~/settings/shop.server";
import { clock } from "~/utils/clock.server";
import { log } from "~/utils/log.server";
import { isCashOnDelivery, orderPhones, selectionIdOf, tagsForOrder, type OrderPayload } from "./order-payload";
import { confirmsAfterPurchase, openConfirmation } from "~/order-confirmation/confirmation.server";
import { PENDING_TAG } from "~/order-confirmation/texts";
import { enqueueOrderTags } from "./tag-jobs.server";
import { checkOrderVerification } from "./order-verification.server";
import { VERIFIED_CUSTOMER_TAG } from "../../extensions/cod-payment-customization/src/proof-format";

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

  const verification = await checkOrderVerification(shop, order, selection, orderTime(order));
  // A COD order nobody verified goes to verification after purchase (when the shop verifies phones):
  // tagged cod-pending rather than unverified until the shopper confirms or the deadline passes.
  const cod = isCashOnDelivery(order) || selection?.mode === "cod";
  const confirmAfter = cod && !verification.verified && confirmsAfterPurchase(shop);
  // An uninstalled shop has no token to tag with; the link is still kept for the merchant's return.
  const tags = (shop.uninstalledAt ? [] : tagsForOrder(shop, selection, order, verification.verified)).map((t) =>
    confirmAfter && t === shop.tagUnverified ? PENDING_TAG : t,
  );
  if (tags.length) await enqueueOrderTags(shop.domain, orderGid, tags);
  if (confirmAfter) {
    const customerGid = order.customer?.admin_graphql_api_id;
    await openConfirmation(shop, {
      gid: orderGid,
      name: order.name ?? null,
      phone: orderPhones(order)[0] ?? null,
      customerGid: customerGid?.startsWith("gid://shopify/Customer/") ? customerGid : null,
      locale: order.customer_locale ?? null,
    });
  }
  // The customer tag the payment customization function reads: a returning verified customer keeps
  // cash on delivery at checkout (and the next order is re-checked against their verified phone).
  const customerGid = order.customer?.admin_graphql_api_id;
  if (verification.verified && !shop.uninstalledAt && customerGid?.startsWith("gid://shopify/Customer/")) {
    await enqueueOrderTags(shop.domain, customerGid, [VERIFIED_CUSTOMER_TAG]);
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
