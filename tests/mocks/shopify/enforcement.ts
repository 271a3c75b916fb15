import type { FakeCall, FakeShopify, Handler } from "./server";
import { OPERATIONS } from "../../../app/core/shopify/operations";

/**
 * What the app does to a store for enforcement, answered as Shopify's Admin API does (2026-10):
 * payment customizations (with their configuration metafields), an order's fulfillment orders with the
 * holds each carries (handle, reason, placed by the app or not), holds and their release, order
 * cancellation (a second one answers "already cancelled"), and tag removal. Wrap a handler in
 * handlers' `slow` to make Shopify do the work but answer after the app's timeout. Everything it is asked is remembered, so
 * tests and local mode can show the store as the app left it.
 */
export type FakePaymentCustomization = {
  id: string;
  title: string;
  enabled: boolean;
  functionHandle: string | null;
  metafields: { namespace: string; key: string; type: string; value: string }[];
};

/** A hold as Shopify keeps it on its fulfillment order: `byApp` false for one the merchant (or another app) placed. */
export type FakeHold = { id: string; handle: string | null; reason: string; byApp?: boolean };
export type FakeFulfillmentOrder = { id: string; status: "OPEN" | "ON_HOLD" | "SCHEDULED" | "CLOSED"; holds: FakeHold[] };

export type FakeEnforcedOrder = {
  id: string;
  fulfillmentOrders: FakeFulfillmentOrder[];
  cancelled: { reason: string; staffNote: string | null; notifyCustomer: boolean; at: string } | null;
};

let sequence = 7000;

export class FakeEnforcementStore {
  readonly customizations = new Map<string, FakePaymentCustomization>();
  readonly orders = new Map<string, FakeEnforcedOrder>();

  /** `tagged` is the tag map the fake's tagsAdd keeps (handlers' tagsAdd), so removals show in the same place. */
  constructor(readonly tagged: Map<string, Set<string>> = new Map()) {}

  /** The order as the fake knows it, created on first mention with one open fulfillment order. */
  order(id: string): FakeEnforcedOrder {
    let order = this.orders.get(id);
    if (!order) {
      order = { id, fulfillmentOrders: [{ id: `gid://shopify/FulfillmentOrder/${++sequence}`, status: "OPEN", holds: [] }], cancelled: null };
      this.orders.set(id, order);
    }
    return order;
  }

  paymentCustomizationCreate(): Handler {
    return (call: FakeCall) => {
      const input = (call.variables.input ?? {}) as Partial<FakePaymentCustomization>;
      if (!input.functionHandle) {
        return { data: { paymentCustomizationCreate: { paymentCustomization: null, userErrors: [{ field: ["paymentCustomization", "functionHandle"], message: "Function not found.", code: "FUNCTION_NOT_FOUND" }] } } };
      }
      const id = `gid://shopify/PaymentCustomization/${++sequence}`;
      const created: FakePaymentCustomization = {
        id,
        title: input.title ?? "",
        enabled: input.enabled ?? false,
        functionHandle: input.functionHandle,
        metafields: input.metafields ?? [],
      };
      this.customizations.set(id, created);
      return { data: { paymentCustomizationCreate: { paymentCustomization: { id, enabled: created.enabled }, userErrors: [] } } };
    };
  }

  paymentCustomizationUpdate(): Handler {
    return (call: FakeCall) => {
      const id = String(call.variables.id ?? "");
      const existing = this.customizations.get(id);
      if (!existing) {
        return { data: { paymentCustomizationUpdate: { paymentCustomization: null, userErrors: [{ field: ["id"], message: "Could not find customization with id.", code: "PAYMENT_CUSTOMIZATION_NOT_FOUND" }] } } };
      }
      const input = (call.variables.input ?? {}) as Partial<FakePaymentCustomization>;
      if (input.title !== undefined) existing.title = input.title;
      if (input.enabled !== undefined) existing.enabled = input.enabled;
      for (const m of input.metafields ?? []) {
        existing.metafields = existing.metafields.filter((x) => !(x.namespace === m.namespace && x.key === m.key));
        existing.metafields.push(m);
      }
      return { data: { paymentCustomizationUpdate: { paymentCustomization: { id, enabled: existing.enabled }, userErrors: [] } } };
    };
  }

  fulfillmentOrders(): Handler {
    return (call) => {
      const order = this.order(String(call.variables.id));
      const fulfillmentHolds = (fo: FakeFulfillmentOrder) =>
        fo.holds.map((h) => ({ id: h.id, handle: h.handle, reason: h.reason, heldByRequestingApp: h.byApp ?? true }));
      const nodes = order.fulfillmentOrders.map((fo) => ({ id: fo.id, status: fo.status, fulfillmentHolds: fulfillmentHolds(fo) }));
      return { data: { order: { id: order.id, cancelledAt: order.cancelled?.at ?? null, fulfillmentOrders: { nodes } } } };
    };
  }

  hold(): Handler {
    return (call) => {
      const id = String(call.variables.id);
      const input = (call.variables.fulfillmentHold ?? {}) as { reason?: string; handle?: string };
      const fo = [...this.orders.values()].flatMap((o) => o.fulfillmentOrders).find((f) => f.id === id);
      if (!fo || fo.status === "CLOSED") {
        return { data: { fulfillmentOrderHold: { fulfillmentHold: null, fulfillmentOrder: null, userErrors: [{ field: ["id"], message: "Fulfillment order not found.", code: "FULFILLMENT_ORDER_NOT_FOUND" }] } } };
      }
      // Since 2025-01 a held order takes more holds, but an app's handle is unique per fulfillment order.
      if (fo.holds.some((h) => (h.byApp ?? true) && h.handle === (input.handle ?? ""))) {
        return { data: { fulfillmentOrderHold: { fulfillmentHold: null, fulfillmentOrder: null, userErrors: [{ field: ["fulfillmentHold", "handle"], message: "A fulfillment hold with this handle already exists.", code: "DUPLICATE_FULFILLMENT_HOLD_HANDLE" }] } } };
      }
      const hold = { id: `gid://shopify/FulfillmentHold/${++sequence}`, handle: input.handle ?? "", reason: input.reason ?? "OTHER" };
      fo.holds.push(hold);
      fo.status = "ON_HOLD";
      return { data: { fulfillmentOrderHold: { fulfillmentHold: { id: hold.id }, fulfillmentOrder: { id: fo.id, status: fo.status }, userErrors: [] } } };
    };
  }

  releaseHold(): Handler {
    return (call) => {
      const id = String(call.variables.id);
      const holdIds = (call.variables.holdIds ?? null) as string[] | null;
      const fo = [...this.orders.values()].flatMap((o) => o.fulfillmentOrders).find((f) => f.id === id);
      if (!fo || !fo.holds.length) {
        return { data: { fulfillmentOrderReleaseHold: { fulfillmentOrder: null, userErrors: [{ field: ["id"], message: "The fulfillment order is not on hold.", code: "INVALID_FULFILLMENT_ORDER" }] } } };
      }
      fo.holds = holdIds ? fo.holds.filter((h) => !holdIds.includes(h.id)) : [];
      if (!fo.holds.length) fo.status = "OPEN";
      return { data: { fulfillmentOrderReleaseHold: { fulfillmentOrder: { id: fo.id, status: fo.status }, userErrors: [] } } };
    };
  }

  orderCancel(): Handler {
    return (call) => {
      const order = this.order(String(call.variables.orderId));
      if (order.cancelled) {
        return { data: { orderCancel: { job: null, orderCancelUserErrors: [{ field: ["orderId"], message: "Order has already been cancelled.", code: "INVALID" }] } } };
      }
      order.cancelled = {
        reason: String(call.variables.reason),
        staffNote: (call.variables.staffNote as string | undefined) ?? null,
        notifyCustomer: Boolean(call.variables.notifyCustomer),
        at: new Date().toISOString(),
      };
      for (const fo of order.fulfillmentOrders) fo.status = "CLOSED";
      return { data: { orderCancel: { job: { id: `gid://shopify/Job/${++sequence}`, done: false }, orderCancelUserErrors: [] } } };
    };
  }

  /** tagsRemove on any taggable id, from the same tags tagsAdd added. */
  tagsRemove(): Handler {
    return (call) => {
      const id = String(call.variables.id);
      const tags = this.tagged.get(id);
      for (const t of (call.variables.tags as string[]) ?? []) tags?.delete(t);
      return { data: { tagsRemove: { node: { id }, userErrors: [] } } };
    };
  }

  install(fake: FakeShopify): FakeShopify {
    return fake
      .on(OPERATIONS.paymentCustomizationCreate, this.paymentCustomizationCreate(), "admin")
      .on(OPERATIONS.paymentCustomizationUpdate, this.paymentCustomizationUpdate(), "admin")
      .on(OPERATIONS.orderFulfillmentOrders, this.fulfillmentOrders(), "admin")
      .on(OPERATIONS.fulfillmentOrderHold, this.hold(), "admin")
      .on(OPERATIONS.fulfillmentOrderReleaseHold, this.releaseHold(), "admin")
      .on(OPERATIONS.orderCancel, this.orderCancel(), "admin")
      .on(OPERATIONS.tagsRemove, this.tagsRemove(), "admin");
  }
}

/** How Shopify refuses each enforcement mutation (a user error), for tests and local mode's failure answers. */
export const ENFORCEMENT_USER_ERRORS: Record<string, Handler> = {
  paymentCustomizationCreate: () => ({
    data: { paymentCustomizationCreate: { paymentCustomization: null, userErrors: [{ field: ["paymentCustomization"], message: "Maximum number of payment customizations reached.", code: "MAXIMUM_ACTIVE_PAYMENT_CUSTOMIZATIONS" }] } },
  }),
  paymentCustomizationUpdate: () => ({
    data: { paymentCustomizationUpdate: { paymentCustomization: null, userErrors: [{ field: ["id"], message: "Could not find customization with id.", code: "PAYMENT_CUSTOMIZATION_NOT_FOUND" }] } },
  }),
  fulfillmentOrderHold: () => ({
    data: { fulfillmentOrderHold: { fulfillmentHold: null, fulfillmentOrder: null, userErrors: [{ field: ["id"], message: "The fulfillment order cannot be put on hold.", code: "INVALID_FULFILLMENT_ORDER" }] } },
  }),
  fulfillmentOrderReleaseHold: () => ({
    data: { fulfillmentOrderReleaseHold: { fulfillmentOrder: null, userErrors: [{ field: ["id"], message: "The fulfillment order is not on hold.", code: "INVALID_FULFILLMENT_ORDER" }] } },
  }),
  orderCancel: () => ({
    data: { orderCancel: { job: null, orderCancelUserErrors: [{ field: ["orderId"], message: "Cannot cancel an order with fulfillments.", code: "INVALID" }] } },
  }),
  tagsRemove: () => ({ data: { tagsRemove: { node: null, userErrors: [{ field: ["id"], message: "Resource not found" }] } } }),
};
