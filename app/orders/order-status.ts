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
