/**
 * An order's verification state as the merchant reads it (OrderRecord.status), and its words. Pure: the
 * admin's Orders page uses it in the browser.
 */
export const ORDER_STATUSES = ["verified", "unverified", "pending", "confirmed", "unconfirmed"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  verified: "Verified",
  unverified: "Unverified",
  pending: "Pending confirmation",
  confirmed: "Confirmed after purchase",
  unconfirmed: "Unconfirmed",
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
