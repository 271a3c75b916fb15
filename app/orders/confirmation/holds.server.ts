import { z } from "zod";
import { FULFILLMENT_ORDER_HOLD, FULFILLMENT_ORDER_RELEASE_HOLD, ORDER_FULFILLMENT_ORDERS } from "~/core/shopify/operations";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { log } from "~/core/utils/log.server";

/**
 * The confirmation's fulfillment holds, always decided from what Shopify shows now (the order's
 * fulfillment orders and their holds), never from a list the app recorded: a hold whose answer came
 * after the call's timeout, or whose caller stopped before writing anything down, still carries our
 * handle, so the next run sees it (docs/enforcement.md, "After purchase").
 */
export const HOLD_HANDLE = "cod-verify";

export type StepFailure = { ok: false; retry: boolean; error: string };
export type StepResult = { ok: true; note?: string } | StepFailure;
export const fail = (error: string, retry = true): StepFailure => ({ ok: false, retry, error });

type Call<T> = { ok: true; data: T } | { ok: false; error: string };

/** One Admin API call whose reply is read through `schema`; every failure becomes a value. */
export async function admin<T>(shop: string, query: string, variables: Record<string, unknown>, schema: z.ZodType<T>): Promise<Call<T>> {
  const result = await shopifyGraphql<unknown>("admin", shop, query, { variables });
  if (!result.ok) return { ok: false, error: `${result.cause}: ${result.detail}`.slice(0, 500) };
  const parsed = schema.safeParse(result.data);
  if (!parsed.success) return { ok: false, error: `invalid_response: ${parsed.error.message.slice(0, 200)}` };
  return { ok: true, data: parsed.data };
}

export const userErrors = z.array(z.object({ field: z.array(z.string()).nullish(), message: z.string(), code: z.string().nullish() }));

const fulfillmentHold = z.object({ id: z.string(), handle: z.string().nullable(), reason: z.string(), heldByRequestingApp: z.boolean() });
const fulfillmentOrder = z.object({ id: z.string(), status: z.string(), fulfillmentHolds: z.array(fulfillmentHold) });
const orderReply = z.object({
  order: z.object({ id: z.string(), cancelledAt: z.string().nullable(), fulfillmentOrders: z.object({ nodes: z.array(fulfillmentOrder) }) }).nullable(),
});
export type ShopifyOrderState = NonNullable<z.infer<typeof orderReply>["order"]>;

const holdReply = z.object({
  fulfillmentOrderHold: z.object({ fulfillmentHold: z.object({ id: z.string() }).nullable(), userErrors }),
});
const releaseReply = z.object({ fulfillmentOrderReleaseHold: z.object({ userErrors }) });

/** The order as Shopify shows it now: cancelled or not, its fulfillment orders and their holds (null: no such order). */
export async function readOrderState(shop: string, orderGid: string): Promise<Call<ShopifyOrderState | null>> {
  const read = await admin(shop, ORDER_FULFILLMENT_ORDERS, { id: orderGid }, orderReply);
  return read.ok ? { ok: true, data: read.data.order } : read;
}

/** Our holds on one fulfillment order: our handle, placed by this app (another app may use the same handle). */
function ourHolds(fo: z.infer<typeof fulfillmentOrder>, handle = HOLD_HANDLE) {
  return fo.fulfillmentHolds.filter((h) => h.handle === handle && h.heldByRequestingApp);
}

/** A kind of hold of ours: its handle (one per reason, so releasing one never releases another) and the note the merchant reads. */
export type HoldKind = { handle: string; reasonNotes: string };
const CONFIRMATION_HOLD: HoldKind = { handle: HOLD_HANDLE, reasonNotes: "Cash on delivery: waiting for the shopper to confirm the order's phone number." };

/** Fulfillment orders that can still ship, so need our hold; an ON_HOLD one may carry only the merchant's hold. */
const HOLDABLE = new Set(["OPEN", "SCHEDULED", "ON_HOLD"]);

export type HoldsPlaced = { ok: true; held: { fulfillmentOrderId: string; holdId: string }[] } | StepFailure;

/**
 * Puts our hold on every fulfillment order of the order that can ship and does not carry it yet
 * (Shopify refuses a second hold with the same handle, and we never ask for one). Answers every hold
 * of ours that is on the order afterwards.
 */
export async function holdFulfillment(shop: string, orderGid: string, kind: HoldKind = CONFIRMATION_HOLD): Promise<HoldsPlaced> {
  const read = await readOrderState(shop, orderGid);
  if (!read.ok) return fail(read.error);
  if (!read.data) return fail("order not found", false);
  if (read.data.cancelledAt) return { ok: true, held: [] };
  const held: { fulfillmentOrderId: string; holdId: string }[] = [];
  for (const fo of read.data.fulfillmentOrders.nodes) {
    const existing = ourHolds(fo, kind.handle);
    held.push(...existing.map((h) => ({ fulfillmentOrderId: fo.id, holdId: h.id })));
    if (existing.length || !HOLDABLE.has(fo.status)) continue;
    const result = await admin(
      shop,
      FULFILLMENT_ORDER_HOLD,
      {
        id: fo.id,
        fulfillmentHold: {
          reason: "OTHER",
          reasonNotes: kind.reasonNotes,
          handle: kind.handle,
          notifyMerchant: false,
        },
      },
      holdReply,
    );
    if (!result.ok) return fail(result.error);
    const { fulfillmentHold: placed, userErrors: errors } = result.data.fulfillmentOrderHold;
    if (errors.length || !placed) return fail(`user_errors: ${errors.map((e) => e.message).join("; ")}`, false);
    held.push({ fulfillmentOrderId: fo.id, holdId: placed.id });
  }
  return { ok: true, held };
}

/**
 * Releases every hold of ours the order carries now, whoever placed it and whether or not its answer
 * ever reached us. Only our hold ids are named, so the merchant's and other apps' holds stay.
 */
export async function releaseOurHolds(shop: string, orderGid: string, handle = HOLD_HANDLE): Promise<StepResult> {
  const read = await readOrderState(shop, orderGid);
  if (!read.ok) return fail(read.error);
  if (!read.data) return { ok: true, note: "order not found" };
  let released = 0;
  for (const fo of read.data.fulfillmentOrders.nodes) {
    const holdIds = ourHolds(fo, handle).map((h) => h.id);
    if (!holdIds.length) continue;
    const result = await admin(shop, FULFILLMENT_ORDER_RELEASE_HOLD, { id: fo.id, holdIds }, releaseReply);
    if (!result.ok) return fail(result.error);
    const errors = result.data.fulfillmentOrderReleaseHold.userErrors;
    // An order since fulfilled or cancelled is not ours to retry; the next read shows what is left.
    if (errors.length) log.warn("fulfillment hold not released", { shop, orderGid, errors: errors.map((e) => e.message) });
    else released += holdIds.length;
  }
  return { ok: true, note: `${released} hold(s) released` };
}
