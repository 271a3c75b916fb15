import { OPERATIONS } from "../../../app/core/shopify/operations";
import type { FakeCall, FakeShopify, Handler } from "./server";

/**
 * Orders after dispatch in the fake Shopify, answered as the Admin API (2026-10) does: the balance due
 * (`totalOutstandingSet`) and the payment page Shopify gives an order that needs more payment
 * (`paymentCollectionDetails.additionalPaymentCollectionUrl`, null otherwise), the order's note read and
 * replaced by `orderUpdate`, and `metafieldsSet` (a `json` metafield's value must parse as JSON; at most
 * 25 per call). An order the store does not hold is `null`, as Shopify answers an unknown id.
 */
export type FakeShippedOrder = {
  id: string;
  name: string;
  cancelledAt: string | null;
  outstanding: string;
  currency: string;
  paymentUrl: string | null;
  note: string | null;
  metafields: Map<string, { type: string; value: string }>;
};

export class FakeDeliveryStore {
  readonly orders = new Map<string, FakeShippedOrder>();

  add(order: Partial<FakeShippedOrder> & { id: string }): FakeShippedOrder {
    const full: FakeShippedOrder = { name: "#1001", cancelledAt: null, outstanding: "1299.00", currency: "INR", paymentUrl: null, note: null, metafields: new Map(), ...order };
    this.orders.set(full.id, full);
    return full;
  }

  balance(): Handler {
    return (call: FakeCall) => {
      const o = this.orders.get(String(call.variables.id));
      return {
        data: {
          order: o && {
            id: o.id,
            name: o.name,
            cancelledAt: o.cancelledAt,
            totalOutstandingSet: { shopMoney: { amount: o.outstanding, currencyCode: o.currency } },
            paymentCollectionDetails: { additionalPaymentCollectionUrl: o.paymentUrl },
          },
        },
      };
    };
  }

  note(): Handler {
    return (call: FakeCall) => {
      const o = this.orders.get(String(call.variables.id));
      return { data: { order: o ? { id: o.id, note: o.note } : null } };
    };
  }

  noteUpdate(): Handler {
    return (call: FakeCall) => {
      const input = (call.variables.input ?? {}) as { id?: string; note?: string };
      const o = input.id ? this.orders.get(input.id) : undefined;
      if (!o) return { data: { orderUpdate: { order: null, userErrors: [{ field: ["id"], message: "Order does not exist" }] } } };
      o.note = input.note ?? o.note;
      return { data: { orderUpdate: { order: { id: o.id }, userErrors: [] } } };
    };
  }

  metafieldsSet(): Handler {
    return (call: FakeCall) => {
      const list = (call.variables.metafields ?? []) as { ownerId: string; namespace: string; key: string; type: string; value: string }[];
      const refuse = (message: string, code: string) => ({ data: { metafieldsSet: { metafields: null, userErrors: [{ field: ["metafields"], message, code }] } } });
      if (list.length > 25) return refuse("Exceeded the maximum metafields input limit of 25.", "LESS_THAN_OR_EQUAL_TO");
      for (const m of list) {
        if (!this.orders.has(m.ownerId)) return refuse("Owner does not exist.", "INVALID");
        if (m.type === "json") {
          try {
            JSON.parse(m.value);
          } catch {
            return refuse("Value is invalid JSON.", "INVALID_VALUE");
          }
        }
      }
      for (const m of list) this.orders.get(m.ownerId)!.metafields.set(`${m.namespace}.${m.key}`, { type: m.type, value: m.value });
      return { data: { metafieldsSet: { metafields: list.map((_, i) => ({ id: `gid://shopify/Metafield/${9000 + i}` })), userErrors: [] } } };
    };
  }

  install(fake: FakeShopify): this {
    fake
      .on(OPERATIONS.orderBalanceDue, this.balance(), "admin")
      .on(OPERATIONS.orderNote, this.note(), "admin")
      .on(OPERATIONS.orderNoteUpdate, this.noteUpdate(), "admin")
      .on(OPERATIONS.deliveryAnswerMetafield, this.metafieldsSet(), "admin");
    return this;
  }
}
