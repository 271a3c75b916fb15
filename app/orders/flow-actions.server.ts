import { z } from "zod";
import { requestAddressCorrection } from "~/address-correction/address-correction.server";
import { getShop } from "~/core/settings/shop.server";
import { deliveryHandled, recordDelivery } from "~/core/shopify/webhook-deliveries.server";
import { log } from "~/core/utils/log.server";
import { actOnOrder } from "~/orders/order-actions.server";
import { findOrderRecord } from "~/orders/order-record.server";

/**
 * The Shopify Flow actions the app offers (here, with the orders they act on: they compose the order actions and the address correction) (one `flow_action` extension each under extensions/), run for
 * a request app/http/flow-action.server.ts has verified: block the order's phone, send the order's
 * pending confirmation now, text the shopper the address-correction link. Each acts on an order of the
 * requesting shop that the app recorded, with the phone the app recorded for it (never one the request
 * names). Flow may send one run twice (its retries): a run id handled before is answered as done and
 * not acted on again (the webhooks' delivery records, keyed `flow:<action_run_id>`).
 */
export const FLOW_ACTIONS = {
  "block-phone": "cod-block-phone",
  "send-confirmation": "cod-send-confirmation",
  "request-address-correction": "cod-request-address-fix",
} as const;
export type FlowActionPath = keyof typeof FLOW_ACTIONS;

export type FlowActionOutcome =
  | { ok: true; status: "done" | "already_done" | "already_pending"; detail?: string }
  | { ok: false; code: "handle_mismatch" | "app_not_installed" | "invalid_order" | "order_not_found" | "order_not_in_shopify" | "no_phone" | "not_pending" | "recently_sent" | "order_not_editable" | "rate_limited" | "unavailable"; retryAfter?: number };

/** Flow's order reference: the order's numeric id (a string, as Flow sends it, or a number), or its GraphQL id. */
const orderId = z.union([z.string().regex(/^\d{1,20}$/), z.number().int().positive(), z.string().regex(/^gid:\/\/shopify\/Order\/\d{1,20}$/)]);

function orderGidOf(properties: Record<string, unknown>): string | null {
  const parsed = orderId.safeParse(properties.order_id);
  if (!parsed.success) return null;
  const v = String(parsed.data);
  return v.startsWith("gid://") ? v : `gid://shopify/Order/${v}`;
}

export async function runFlowAction(path: FlowActionPath, request: { shop: string; actionRunId: string; handle: string; properties: Record<string, unknown> }): Promise<FlowActionOutcome> {
  // A signed body of one action is not accepted by another action's route.
  if (request.handle !== FLOW_ACTIONS[path]) return { ok: false, code: "handle_mismatch" };
  const shop = await getShop(request.shop);
  if (!shop || shop.uninstalledAt) return { ok: false, code: "app_not_installed" };
  const orderGid = orderGidOf(request.properties);
  if (!orderGid) return { ok: false, code: "invalid_order" };
  const runKey = `flow:${request.actionRunId}`;
  if (await deliveryHandled(runKey)) return { ok: true, status: "already_done" };
  const outcome = await act(path, shop, orderGid);
  // Recorded once the action is done or refused for good; a failure Flow should retry is not recorded.
  if (outcome.ok || !["unavailable", "rate_limited"].includes(outcome.code)) await recordDelivery(runKey, `flow/${request.handle}`, shop.domain);
  log.info("flow action", { shop: shop.domain, handle: request.handle, orderGid, outcome: outcome.ok ? outcome.status : outcome.code });
  return outcome;
}

async function act(path: FlowActionPath, shop: NonNullable<Awaited<ReturnType<typeof getShop>>>, orderGid: string): Promise<FlowActionOutcome> {
  if (path === "block-phone" || path === "send-confirmation") {
    const done = await actOnOrder(shop, { intent: path === "block-phone" ? "block" : "resend", orderGid });
    return done.ok ? { ok: true, status: "done" } : { ok: false, code: done.code };
  }
  return requestAddressFix(shop, orderGid);
}

/**
 * The address form's link, for an order the app recorded, to the phone it recorded. Shopify's copy of the
 * order says only whether its address can still change and what it is now; an order Shopify no longer has
 * (deleted since) is refused as that, not as one the app never saw.
 */
async function requestAddressFix(shop: NonNullable<Awaited<ReturnType<typeof getShop>>>, orderGid: string): Promise<FlowActionOutcome> {
  const record = await findOrderRecord(shop.id, orderGid);
  if (!record) return { ok: false, code: "order_not_found" };
  if (!record.phone) return { ok: false, code: "no_phone" };
  const requested = await requestAddressCorrection(shop, { orderId: orderGid }, { source: "api", phone: record.phone });
  if (requested.ok) return { ok: true, status: requested.status === "sent" ? "done" : "already_pending" };
  switch (requested.code) {
    case "order_not_found":
      return { ok: false, code: "order_not_in_shopify" };
    case "order_not_editable":
      return { ok: false, code: requested.code };
    case "order_has_no_phone":
    case "phone_unreachable":
      return { ok: false, code: "no_phone" };
    case "rate_limited":
      return { ok: false, code: "rate_limited", retryAfter: requested.retryAfter };
    case "subscription_required":
      return { ok: false, code: "app_not_installed" };
    default:
      return { ok: false, code: "unavailable" };
  }
}
