import { z } from "zod";
import { prisma } from "~/core/db.server";
import { blockPhone, unblockPhoneBlockedFor } from "~/otp/blocklist.server";
import type { Shop } from "~/core/settings/shop.server";
import { resendConfirmation } from "./confirmation/confirmation.server";

/** The Orders page's row actions, posted as a form: which action, on which of the shop's orders. */
export const orderActionForm = z.object({
  intent: z.enum(["block", "unblock", "resend"]),
  orderGid: z.string().regex(/^gid:\/\/shopify\/Order\/\d{1,20}$/),
});
export type OrderAction = z.infer<typeof orderActionForm>;

export type OrderActionOutcome =
  | { intent: OrderAction["intent"]; ok: true; phone: string; orderName: string }
  | { intent: OrderAction["intent"]; ok: false; code: "order_not_found" | "no_phone" | "not_pending" | "recently_sent" };

/** A row's action as the Orders page posts it: one of `actOnOrder`'s, or the undo of a block made from the row. */
export type OrderRowOutcome = OrderActionOutcome | { intent: "unblock"; ok: false; code: "not_blocked_here" };

/** The reason a block from an order's row carries; its undo removes only a block with this reason. */
export const blockedFromOrder = (orderName: string) => `Blocked from order ${orderName}`;

/**
 * Block the order's phone (the blocklist the Blocked numbers page manages; send-otp refuses it from
 * then on), undo that block (only the one made from this order's row), or text the shopper the pending
 * confirmation's link again. The order must be the shop's own, and the phone is the one the app
 * recorded for it, never one the page sends.
 */
export async function actOnOrder(shop: Pick<Shop, "id" | "domain">, action: OrderAction & { intent: "block" | "resend" }): Promise<OrderActionOutcome> {
  // Only an undo answers not_blocked_here, and this action is never one.
  return (await actOnOrderRow(shop, action)) as OrderActionOutcome;
}

/** `actOnOrder`, and the undo of a block made from the order's row (only that block: one conditional delete). */
export async function actOnOrderRow(shop: Pick<Shop, "id" | "domain">, action: OrderAction): Promise<OrderRowOutcome> {
  const { intent } = action;
  const order = await prisma.orderRecord.findUnique({ where: { shopId_orderGid: { shopId: shop.id, orderGid: action.orderGid } } });
  if (!order) return { intent, ok: false, code: "order_not_found" };
  const orderName = order.orderName ?? action.orderGid.replace(/^gid:\/\/shopify\/Order\//, "#");
  if (intent === "block") {
    if (!order.phone) return { intent, ok: false, code: "no_phone" };
    const blocked = await blockPhone(shop, order.phone, blockedFromOrder(orderName));
    return blocked.ok ? { intent, ok: true, phone: blocked.phone, orderName } : { intent, ok: false, code: "no_phone" };
  }
  if (intent === "unblock") {
    if (!order.phone) return { intent, ok: false, code: "no_phone" };
    const undone = await unblockPhoneBlockedFor(shop.id, order.phone, blockedFromOrder(orderName));
    return undone ? { intent, ok: true, phone: order.phone, orderName } : { intent, ok: false, code: "not_blocked_here" };
  }
  const resent = await resendConfirmation(shop, action.orderGid);
  return resent.ok ? { intent, ok: true, phone: resent.phone, orderName } : { intent, ok: false, code: resent.code };
}
