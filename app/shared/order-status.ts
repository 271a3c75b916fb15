/**
 * An order's verification state as the merchant reads it (OrderRecord.status), and its words. Pure: the
 * admin's Orders page uses it in the browser.
 */
export const ORDER_STATUSES = ["verified", "unverified", "pending", "confirmed", "unconfirmed", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * The most orders the Orders page counts of one status (it shows "10,000+" beyond, and pages that far): a
 * shop's year can hold a million orders, and exact counts would read every one on each view.
 */
export const ORDER_COUNT_CAP = 10_000;

/** A count as the Orders page shows it: "10,000+" at the cap. */
export function orderCountWords(n: number): string {
  return n >= ORDER_COUNT_CAP ? `${ORDER_COUNT_CAP.toLocaleString("en")}+` : n.toLocaleString("en");
}

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  verified: "Verified",
  unverified: "Unverified",
  pending: "Pending confirmation",
  confirmed: "Confirmed after purchase",
  unconfirmed: "Unconfirmed",
  cancelled: "Cancelled by the shopper",
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === "string" && (ORDER_STATUSES as readonly string[]).includes(value);
}

export const CORRECTION_LABELS = {
  none: "",
  pending: "Correction requested",
  completed: "Address corrected",
  not_editable: "Correction not applied",
  expired: "Correction link expired",
} as const;

/** The order's page in Shopify's admin: `gid://shopify/Order/123` of `shop.myshopify.com` -> admin.shopify.com/store/shop/orders/123. */
export function orderAdminUrl(shopDomain: string, orderGid: string): string | null {
  const id = /^gid:\/\/shopify\/Order\/(\d+)$/.exec(orderGid)?.[1];
  const store = /^([a-z0-9][a-z0-9-]*)\.myshopify\.com$/.exec(shopDomain)?.[1];
  return id && store ? `https://admin.shopify.com/store/${store}/orders/${id}` : null;
}

/**
 * How an order is paid, one definition for the Orders page and Home: cash on delivery when the order
 * is COD (its gateway, or the shopper's COD selection: OrderRecord.cod), else the deposit mode when
 * the shopper chose it, else paid at checkout. Every order has exactly one, so the payments add up to
 * the orders and the COD ones to the COD orders by state.
 */
export const ORDER_PAYMENTS = ["cod", "partial", "prepaid"] as const;
export type OrderPayment = (typeof ORDER_PAYMENTS)[number];

export function paymentOf(order: { cod: boolean; mode: string | null }): OrderPayment {
  if (order.cod) return "cod";
  return order.mode === "partial" ? "partial" : "prepaid";
}

export const ORDER_PAYMENT_LABELS: Record<OrderPayment, string> = {
  cod: "Cash on delivery",
  partial: "Deposit, rest on delivery",
  prepaid: "Paid at checkout",
};

/** The order in Shopify's admin through App Bridge (`shopify:admin/...` navigates the admin around the app). */
export function orderAppBridgeUrl(orderGid: string): string | null {
  const id = /^gid:\/\/shopify\/Order\/(\d+)$/.exec(orderGid)?.[1];
  return id ? `shopify:admin/orders/${id}` : null;
}

/** A partial order paid with a deposit code: what was paid, what is left to collect, and whether the balance is on the order yet. */
export type DepositState = { deposit: number; balance: number; currency: string; state: "added" | "held" | "adding" };

/** The Orders page's words for it, amounts in the order's currency. */
export function depositSummary(d: DepositState, locale = "en"): string {
  const money = (n: number) => {
    try {
      return new Intl.NumberFormat(locale, { style: "currency", currency: d.currency }).format(n);
    } catch {
      return `${n.toFixed(2)} ${d.currency}`;
    }
  };
  if (d.state === "added") return `Deposit ${money(d.deposit)} paid · ${money(d.balance)} to collect on delivery`;
  if (d.state === "held") return `Deposit ${money(d.deposit)} paid · balance ${money(d.balance)} not on the order yet: held, do not ship`;
  return `Deposit ${money(d.deposit)} paid · adding the balance ${money(d.balance)}`;
}

/** The Orders page's periods, in the shop's days (today and the days before it); absent: every order the app saw. */
export const ORDER_PERIODS = [7, 30, 90] as const;
export type OrderPeriod = (typeof ORDER_PERIODS)[number];

export function orderPeriodOf(value: string | null): OrderPeriod | null {
  const days = Number(value);
  return (ORDER_PERIODS as readonly number[]).includes(days) ? (days as OrderPeriod) : null;
}

/** The words every figure of the Orders page carries for its period. */
export function orderPeriodWords(days: OrderPeriod | null): string {
  return days ? `placed in the last ${days} days` : "since the app was installed";
}
