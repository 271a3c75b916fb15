import { OPERATIONS } from "../../../app/core/shopify/operations";
import type { FakeShopify, Handler } from "./server";

/**
 * COD orders in the fake Shopify as the pay-now offer sees them (Admin API 2026-10): the order's money,
 * its payment page (`paymentCollectionDetails.additionalPaymentCollectionUrl`, null unless a test gives
 * one), its transactions and refunds; `orderInvoiceSend`, and `refundCreate` as Shopify checks it: the
 * idempotency key required since 2026-04 (a repeat answers the first refund), a parent transaction that
 * is a successful capture or sale of the order, no more than was paid, the order's presentment currency.
 */
export type FakeTransaction = { id: string; kind: "SALE" | "CAPTURE" | "REFUND"; status: "SUCCESS"; gateway: string; manualPaymentGateway: boolean; amount: number };

export type FakePrepaidOrder = {
  id: string;
  email: string | null;
  cancelledAt: string | null;
  displayFinancialStatus: "PENDING" | "PAID" | "PARTIALLY_REFUNDED";
  displayFulfillmentStatus: "UNFULFILLED" | "FULFILLED";
  currency: string;
  presentmentCurrency: string;
  total: number;
  url: string | null;
  transactions: FakeTransaction[];
  refunds: { id: string; note: string | null; amount: number }[];
  invoices: { customMessage: string | null }[];
};

let sequence = 7_000_000_000_000_000_000n;

export class FakePrepaidStore {
  readonly orders = new Map<string, FakePrepaidOrder>();
  private readonly byKey = new Map<string, string>();

  /** A pending COD order of `total` (INR by default) with, unless told otherwise, Shopify's payment page for it. */
  add(id: string, overrides: Partial<FakePrepaidOrder> = {}): FakePrepaidOrder {
    const numeric = id.replace("gid://shopify/Order/", "");
    const order: FakePrepaidOrder = {
      id,
      email: "buyer@example.com",
      cancelledAt: null,
      displayFinancialStatus: "PENDING",
      displayFulfillmentStatus: "UNFULFILLED",
      currency: "INR",
      presentmentCurrency: "INR",
      total: 499,
      url: `https://test-shop.myshopify.com/71234567/order_payment/${numeric}?secret=s3cr3t${numeric.slice(-6)}`,
      transactions: [],
      refunds: [],
      invoices: [],
      ...overrides,
    };
    this.orders.set(id, order);
    return order;
  }

  /** The shopper pays on Shopify's page (an online gateway), or the merchant records the courier's cash ("Mark as paid": the manual gateway). */
  pay(id: string, how: "online" | "cash" = "online") {
    const order = this.orders.get(id)!;
    order.transactions.push({
      id: `gid://shopify/OrderTransaction/${(sequence += 1n)}`,
      kind: "SALE",
      status: "SUCCESS",
      gateway: how === "online" ? "shopify_payments" : "Cash on Delivery (COD)",
      manualPaymentGateway: how === "cash",
      amount: this.outstanding(order),
    });
    order.displayFinancialStatus = "PAID";
  }

  outstanding(order: FakePrepaidOrder): number {
    const paid = order.transactions.filter((t) => t.kind !== "REFUND").reduce((s, t) => s + t.amount, 0);
    return Math.max(0, order.total - paid);
  }

  private view(order: FakePrepaidOrder) {
    const money = (amount: number) => ({
      presentmentMoney: { amount: amount.toFixed(2), currencyCode: order.presentmentCurrency },
      shopMoney: { amount: amount.toFixed(2), currencyCode: order.currency },
    });
    return {
      id: order.id,
      email: order.email,
      cancelledAt: order.cancelledAt,
      displayFinancialStatus: order.displayFinancialStatus,
      displayFulfillmentStatus: order.displayFulfillmentStatus,
      currencyCode: order.currency,
      presentmentCurrencyCode: order.presentmentCurrency,
      totalOutstandingSet: money(this.outstanding(order)),
      // Shopify's page exists only while something is left to pay.
      paymentCollectionDetails: { additionalPaymentCollectionUrl: this.outstanding(order) > 0 ? order.url : null },
      transactions: order.transactions.map((t) => ({
        id: t.id,
        kind: t.kind,
        status: t.status,
        gateway: t.gateway,
        manualPaymentGateway: t.manualPaymentGateway,
        amountSet: { presentmentMoney: { amount: t.amount.toFixed(2), currencyCode: order.presentmentCurrency } },
      })),
      refunds: order.refunds.map((r) => ({ id: r.id, note: r.note })),
    };
  }

  orderQuery(): Handler {
    return (call) => {
      const order = this.orders.get(String(call.variables.id));
      return { data: { order: order ? this.view(order) : null } };
    };
  }

  invoiceSend(): Handler {
    return (call) => {
      const order = this.orders.get(String(call.variables.id));
      if (!order) return { data: { orderInvoiceSend: { order: null, userErrors: [{ code: "ORDER_INVOICE_SEND_UNSUCCESSFUL", field: ["id"], message: "Order does not exist" }] } } };
      if (order.currency !== order.presentmentCurrency) {
        return { data: { orderInvoiceSend: { order: null, userErrors: [{ code: "ORDER_INVOICE_SEND_UNSUCCESSFUL", field: null, message: "Invoices can't be sent for multi-currency orders" }] } } };
      }
      const email = (call.variables.email ?? {}) as { customMessage?: string };
      order.invoices.push({ customMessage: email.customMessage ?? null });
      return { data: { orderInvoiceSend: { order: { id: order.id }, userErrors: [] } } };
    };
  }

  refundCreate(): Handler {
    return (call) => {
      if (!/@idempotent\(key:\s*\$idempotencyKey\)/.test(call.query)) {
        return { data: null, errors: [{ message: "The @idempotent directive is required for this mutation.", extensions: { code: "BAD_REQUEST" } }] };
      }
      const key = String(call.variables.idempotencyKey ?? "").trim();
      if (!key) return { data: null, errors: [{ message: "Idempotency key cannot be empty", extensions: { code: "BAD_REQUEST" } }] };
      const input = call.variables.input as { orderId: string; note?: string; currency?: string; transactions?: { orderId: string; parentId?: string; amount: string; gateway: string; kind: string }[] };
      const order = this.orders.get(input.orderId);
      const error = (message: string) => ({ data: { refundCreate: { refund: null, order: null, userErrors: [{ field: ["transactions"], message }] } } });
      if (!order) return error("Order does not exist");
      const repeat = this.byKey.get(key);
      if (repeat) return { data: { refundCreate: { refund: { id: repeat, note: input.note ?? null }, userErrors: [] } } };
      if (input.currency && input.currency !== order.presentmentCurrency) return error("Currency must be the order's presentment currency");
      const [t] = input.transactions ?? [];
      const parent = order.transactions.find((p) => p.id === t?.parentId && (p.kind === "SALE" || p.kind === "CAPTURE") && p.status === "SUCCESS");
      if (!t || t.kind !== "REFUND" || !parent) return error("Parent transaction is not a successful capture or sale of this order");
      const refunded = order.refunds.reduce((s, r) => s + r.amount, 0);
      const amount = Number(t.amount);
      if (!(amount > 0) || amount > parent.amount - refunded + 1e-9) return error("Amount exceeds the amount that can be refunded");
      const id = `gid://shopify/Refund/${(sequence += 1n)}`;
      order.refunds.push({ id, note: input.note ?? null, amount });
      order.displayFinancialStatus = "PARTIALLY_REFUNDED";
      this.byKey.set(key, id);
      return { data: { refundCreate: { refund: { id, note: input.note ?? null }, userErrors: [] } } };
    };
  }

  install(fake: FakeShopify): FakeShopify {
    return fake
      .on(OPERATIONS.prepaidOfferOrder, this.orderQuery(), "admin")
      .on(OPERATIONS.orderInvoiceSend, this.invoiceSend(), "admin")
      .on(OPERATIONS.prepaidIncentiveRefund, this.refundCreate(), "admin");
  }
}
