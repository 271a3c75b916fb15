import * as plans from "~/routes/app.plans";
import * as shopUpdate from "~/routes/webhooks.shop.update";
import { prisma } from "~/core/db.server";
import { env } from "~/core/env.server";
import { isTest } from "~/billing/plans.server";
import { readShopDetails } from "~/core/settings/shop.server";
import { PLANS } from "~/shared/plans";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { callRoute } from "../helpers/proxy";
import { useFakeShopify } from "../helpers/fake-shopify";
import { installShop, SHOP } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";
import { FakeBillingStore } from "../mocks/shopify/billing";

/**
 * Billing as Shopify recommends it: the approval page sends the merchant back inside the Shopify admin,
 * and a development store's charges are test charges even in production.
 */
const billing = new FakeBillingStore();
const fake = useFakeShopify((f) => billing.install(f));
const row = () => prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });

describe("the approval page's way back", () => {
  it("is the plans page inside the Shopify admin, by store and API key", async () => {
    await installShop({ subscriptionStatus: "none" });
    const res = await callAdminRoute(plans, await adminRequest("/app/plans", { form: { plan: PLANS.find((p) => p.price > 0)!.id } }));
    expect(res.status).toBe(401); // App Bridge opens the approval page at the top level
    const [call] = fake.callsTo("AppSubscriptionCreate");
    expect(call.variables.returnUrl).toBe(`https://admin.shopify.com/store/${SHOP.replace(".myshopify.com", "")}/apps/${env.SHOPIFY_API_KEY}/app/plans`);
  });
});

describe("test charges", () => {
  it("in production: a development store's charges are test charges, a paying store's are real", () => {
    const was = env.production;
    (env as { production: boolean }).production = true;
    try {
      expect(isTest({ developmentStore: true })).toBe(true);
      expect(isTest({ developmentStore: false })).toBe(false);
    } finally {
      (env as { production: boolean }).production = was;
    }
  });

  it("everywhere else every charge is a test charge", () => {
    expect(env.production).toBe(false);
    expect(isTest({ developmentStore: false })).toBe(true);
  });

  it("knows a development store from Shopify's plan at install, and follows shop/update when it is transferred", async () => {
    expect(readShopDetails({ data: { shop: { plan: { shopifyPlus: false, partnerDevelopment: true } } } })).toEqual({ depositsAvailable: false, developmentStore: true });
    await installShop({ developmentStore: true });
    const update = (plan_name: string) => callRoute(shopUpdate, signedWebhook("shop/update", { id: 1, name: "Test Shop", myshopify_domain: SHOP, plan_name }));
    expect((await update("basic")).status).toBe(200);
    expect((await row()).developmentStore).toBe(false);
    expect((await update("partner_test")).status).toBe(200);
    expect((await row()).developmentStore).toBe(true);
  });
});
