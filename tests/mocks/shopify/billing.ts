import { OPERATIONS } from "../../../app/core/shopify/operations";
import type { FakeCall, FakeShopify, Handler, PageHandler } from "./server";

/**
 * The app's subscriptions as Shopify's billing API keeps them (2026-10): the library's own
 * operations (`AppSubscriptionCreate`, `appSubscriptionCancel`, the `appSubscription` check query),
 * answered per shop. A new subscription is PENDING until the merchant approves it on the confirmation
 * page, which this fake serves at /charges/<id>/confirm (local mode's stand-in for Shopify's page);
 * `approve(id)` does the same for tests. Approving replaces the shop's other active subscription, as
 * Shopify's default replacement behaviour does.
 */
export type FakeSubscription = {
  id: string;
  shop: string;
  name: string;
  status: "PENDING" | "ACTIVE" | "CANCELLED" | "DECLINED" | "FROZEN" | "EXPIRED";
  test: boolean;
  price: number;
  returnUrl: string;
  createdAt: string;
  /** The usage line item's capped amount (USD), when the plan has one; its records, one per idempotency key. */
  usageCap: number | null;
  usageRecords: { id: string; idempotencyKey: string | null; amount: number; description: string }[];
};

export const CHARGE_PAGE = "/charges/confirm";
let sequence = 31000;

export class FakeBillingStore {
  readonly subscriptions = new Map<string, FakeSubscription>();
  origin = () => "https://fake-shopify.invalid";

  approve(id: string): FakeSubscription | null {
    const sub = this.subscriptions.get(id);
    if (!sub || sub.status !== "PENDING") return null;
    for (const other of this.subscriptions.values()) {
      if (other.shop === sub.shop && other.status === "ACTIVE") other.status = "CANCELLED";
    }
    sub.status = "ACTIVE";
    return sub;
  }

  active(shop: string): FakeSubscription[] {
    return [...this.subscriptions.values()].filter((s) => s.shop === shop && s.status === "ACTIVE");
  }

  create(): Handler {
    return (call: FakeCall) => {
      const v = call.variables as {
        name?: string;
        returnUrl?: string;
        test?: boolean;
        lineItems?: { plan?: { appRecurringPricingDetails?: { price?: { amount?: number } }; appUsagePricingDetails?: { cappedAmount?: { amount?: number }; terms?: string } } }[];
      };
      const usage = v.lineItems?.find((item) => item.plan?.appUsagePricingDetails)?.plan?.appUsagePricingDetails;
      if (!v.name || !v.returnUrl) {
        return { data: { appSubscriptionCreate: { appSubscription: null, confirmationUrl: null, userErrors: [{ field: ["name"], message: "Name can't be blank" }] } } };
      }
      const id = String(++sequence);
      const sub: FakeSubscription = {
        id: `gid://shopify/AppSubscription/${id}`,
        shop: call.shop,
        name: v.name,
        status: "PENDING",
        test: v.test ?? false,
        price: Number(v.lineItems?.[0]?.plan?.appRecurringPricingDetails?.price?.amount ?? 0),
        returnUrl: v.returnUrl,
        createdAt: new Date().toISOString(),
        usageCap: usage ? Number(usage.cappedAmount?.amount ?? 0) : null,
        usageRecords: [],
      };
      this.subscriptions.set(sub.id, sub);
      return {
        data: {
          appSubscriptionCreate: {
            appSubscription: this.shape(sub),
            confirmationUrl: `${this.origin()}${CHARGE_PAGE}?id=${id}`,
            userErrors: [],
          },
        },
      };
    };
  }

  cancel(): Handler {
    return (call: FakeCall) => {
      const sub = this.subscriptions.get(String(call.variables.id ?? ""));
      if (!sub || sub.shop !== call.shop || sub.status !== "ACTIVE") {
        return { data: { appSubscriptionCancel: { appSubscription: null, userErrors: [{ field: ["id"], message: "Subscription not found" }] } } };
      }
      sub.status = "CANCELLED";
      return { data: { appSubscriptionCancel: { appSubscription: this.shape(sub), userErrors: [] } } };
    };
  }

  check(): Handler {
    return (call: FakeCall) => ({
      data: {
        currentAppInstallation: {
          activeSubscriptions: this.active(call.shop).map((s) => this.shape(s)),
          oneTimePurchases: { edges: [], pageInfo: { hasNextPage: false, endCursor: null } },
        },
      },
    });
  }

  private shape(s: FakeSubscription) {
    return {
      id: s.id,
      name: s.name,
      test: s.test,
      status: s.status,
      trialDays: 0,
      createdAt: s.createdAt,
      currentPeriodEnd: null,
      returnUrl: s.returnUrl,
      lineItems: [{ id: `${s.id}/line`, plan: { pricingDetails: { __typename: "AppRecurringPricing", price: { amount: s.price.toFixed(2), currencyCode: "USD" }, interval: "EVERY_30_DAYS", discount: null } } }],
    };
  }

  /**
   * `ReadBackAppSubscription` (app_subscriptions/update): the asking shop's active subscriptions, and its
   * latest subscriptions (newest first, 25 at most) with their status: another shop's are never among them.
   */
  readBack(): Handler {
    return (call: FakeCall) => {
      const shape = (s: FakeSubscription) => ({ id: s.id, name: s.name, status: s.status });
      const mine = [...this.subscriptions.values()].filter((s) => s.shop === call.shop).reverse().slice(0, 25);
      return { data: { currentAppInstallation: { activeSubscriptions: this.active(call.shop).map(shape), allSubscriptions: { nodes: mine.map(shape) } } } };
    };
  }

  /** A subscription in a given state, as if the merchant had approved or Shopify had changed it (tests). */
  put(sub: Pick<FakeSubscription, "id" | "shop" | "name" | "status"> & Partial<FakeSubscription>): FakeSubscription {
    const full: FakeSubscription = { test: true, price: 0, returnUrl: "https://app.invalid/", createdAt: new Date().toISOString(), usageCap: null, usageRecords: [], ...sub };
    this.subscriptions.set(full.id, full);
    return full;
  }

  /** The active subscription's line items with their pricing's type, as `ActiveUsageLineItem` asks. */
  usageLineItem(): Handler {
    return (call: FakeCall) => ({
      data: {
        currentAppInstallation: {
          activeSubscriptions: this.active(call.shop).map((s) => ({
            id: s.id,
            lineItems: [
              { id: `${s.id}/line`, plan: { pricingDetails: { __typename: "AppRecurringPricing" } } },
              ...(s.usageCap === null
                ? []
                : [{ id: `${s.id}/usage`, plan: { pricingDetails: { __typename: "AppUsagePricing", cappedAmount: { amount: s.usageCap.toFixed(2), currencyCode: "USD" }, balanceUsed: { amount: this.balance(s).toFixed(2), currencyCode: "USD" } } } }]),
            ],
          })),
        },
      },
    });
  }

  balance(s: FakeSubscription): number {
    return s.usageRecords.reduce((sum, r) => sum + r.amount, 0);
  }

  /** appUsageRecordCreate: one record per idempotency key (a repeat answers the first), refused past the cap. */
  usageRecordCreate(): Handler {
    return (call: FakeCall) => {
      const v = call.variables as { subscriptionLineItemId?: string; description?: string; price?: { amount?: number }; idempotencyKey?: string };
      const sub = [...this.subscriptions.values()].find((s) => `${s.id}/usage` === v.subscriptionLineItemId && s.shop === call.shop && s.status === "ACTIVE");
      const fail = (message: string) => ({ data: { appUsageRecordCreate: { appUsageRecord: null, userErrors: [{ field: ["subscriptionLineItemId"], message }] } } });
      if (!sub || sub.usageCap === null) return fail("Subscription line item not found");
      const repeat = v.idempotencyKey ? sub.usageRecords.find((r) => r.idempotencyKey === v.idempotencyKey) : undefined;
      if (repeat) return { data: { appUsageRecordCreate: { appUsageRecord: { id: repeat.id, idempotencyKey: repeat.idempotencyKey }, userErrors: [] } } };
      const amount = Number(v.price?.amount ?? 0);
      if (this.balance(sub) + amount > sub.usageCap + 1e-9) return fail("Total price exceeds balance remaining");
      const record = { id: `gid://shopify/AppUsageRecord/${++sequence}`, idempotencyKey: v.idempotencyKey ?? null, amount, description: String(v.description ?? "") };
      sub.usageRecords.push(record);
      return { data: { appUsageRecordCreate: { appUsageRecord: { id: record.id, idempotencyKey: record.idempotencyKey }, userErrors: [] } } };
    };
  }

  /** Shopify's approval page: the plan and price, Approve or Decline; either returns to the app. */
  chargePage(): PageHandler {
    return ({ method, url, body }) => {
      const id = url.searchParams.get("id");
      const sub = id ? this.subscriptions.get(`gid://shopify/AppSubscription/${id}`) : undefined;
      if (!sub) return { status: 404, type: "text/plain", body: "No such charge" };
      if (method === "POST") {
        const decline = new URLSearchParams(body).get("decision") === "decline";
        if (decline && sub.status === "PENDING") sub.status = "DECLINED";
        else this.approve(sub.id);
        const back = new URL(sub.returnUrl);
        back.searchParams.set("charge_id", id!);
        const href = back.toString().replace(/&/g, "&amp;").replace(/"/g, "&quot;");
        return { status: 200, type: "text/html", body: `<!doctype html><html lang="en"><head><title>Charge ${sub.status.toLowerCase()}</title><meta http-equiv="refresh" content="0;url=${href}"></head><body><main><p>Charge ${sub.status.toLowerCase()}. <a href="${href}">Back to the app</a></p></main></body></html>` };
      }
      const esc = (t: string) => t.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
      return {
        status: 200,
        type: "text/html",
        body: `<!doctype html><html lang="en"><head><title>Approve subscription</title></head><body><main><h1>Approve subscription</h1><p>${esc(sub.name)}: $${sub.price.toFixed(2)} USD every 30 days${sub.test ? " (test charge, nothing is billed)" : ""}.${sub.usageCap === null ? "" : ` Usage charges up to $${sub.usageCap.toFixed(2)} USD.`}</p><form method="post"><button name="decision" value="approve">Approve</button> <button name="decision" value="decline">Decline</button></form></main></body></html>`,
      };
    };
  }

  install(fake: FakeShopify): this {
    this.origin = () => fake.origin;
    fake
      .on("AppSubscriptionCreate", this.create(), "admin")
      .on("appSubscriptionCancel", this.cancel(), "admin")
      .on("appSubscription", this.check(), "admin")
      .on(OPERATIONS.usageLineItem, this.usageLineItem(), "admin")
      .on(OPERATIONS.subscriptionReadBack, this.readBack(), "admin")
      .on(OPERATIONS.usageRecordCreate, this.usageRecordCreate(), "admin");
    fake.page(CHARGE_PAGE, this.chargePage());
    return this;
  }
}
