import * as webhook from "~/routes/webhooks.app_subscriptions.update";
import * as sendOtp from "~/routes/proxy.send-otp";
import { prisma } from "~/core/db.server";
import { getShop } from "~/core/settings/shop.server";
import { OPERATIONS } from "~/core/shopify/operations";
import { FakeBillingStore, type FakeSubscription } from "../mocks/shopify/billing";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * app_subscriptions/update (docs/webhooks.md): the notice is only a prompt. What the header's shop
 * reports when asked (its installation's active subscriptions, the named subscription as it sees it) is
 * what is recorded, so a captured notice replayed later or under another shop's header changes nothing
 * that shop did not change.
 */
useFakeTwilio();
const shopify = useFakeShopify();
let billing: FakeBillingStore;
beforeEach(() => {
  billing = new FakeBillingStore().install(shopify);
});

const SUB = "gid://shopify/AppSubscription/1029266947";
const OTHER = "other-shop.myshopify.com";
const payload = (status: string, id = SUB, name = "COD Verify Pro") => ({
  app_subscription: { admin_graphql_api_id: id, name, status, admin_graphql_api_shop_id: "gid://shopify/Shop/548380009" },
});
const put = (status: FakeSubscription["status"], id = SUB, shop = SHOP, name = "COD Verify Pro") => billing.put({ id, shop, name, status });

function deliver(body: unknown, opts: Parameters<typeof signedWebhook>[2] = {}) {
  return callRoute(webhook, signedWebhook("app_subscriptions/update", body, opts));
}
const shopRow = (domain = SHOP) => prisma.shop.findUniqueOrThrow({ where: { domain } });

describe("app_subscriptions/update", () => {
  it("records an approved subscription as Shopify reports it, and send-otp's billing gate opens at once (cache invalidated)", async () => {
    await installShop({ subscriptionStatus: "pending" });
    const send = () => callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: "+14155550123" } }));
    expect((await send()).status).toBe(402);
    put("ACTIVE");
    const res = await deliver(payload("ACTIVE"));
    expect(res.status).toBe(200);
    expect(await shopRow()).toMatchObject({ subscriptionStatus: "active", subscriptionId: SUB, subscriptionPlan: "COD Verify Pro" });
    expect((await send()).status).toBe(200);
    const [call] = shopify.callsTo(OPERATIONS.subscriptionReadBack);
    expect(call).toMatchObject({ shop: SHOP });
  });

  it.each([
    ["CANCELLED", "cancelled"],
    ["FROZEN", "frozen"],
    ["EXPIRED", "expired"],
    ["DECLINED", "declined"],
  ] as const)("closes the billing gate when Shopify reports the subscription %s", async (status, stored) => {
    await installShop({ subscriptionId: SUB });
    await getShop(SHOP);
    put(status);
    await deliver(payload(status));
    expect((await getShop(SHOP))?.subscriptionStatus).toBe(stored);
    const res = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: "+14155550123" } }));
    expect(res.status).toBe(402);
  });

  it("does not let the old plan's cancellation overwrite a newly approved one, in either order", async () => {
    await installShop({ subscriptionStatus: "pending", subscriptionId: SUB });
    put("CANCELLED");
    put("ACTIVE", "gid://shopify/AppSubscription/2");
    await deliver(payload("CANCELLED", SUB));
    await deliver(payload("ACTIVE", "gid://shopify/AppSubscription/2"));
    await deliver(payload("CANCELLED", SUB));
    expect(await shopRow()).toMatchObject({ subscriptionStatus: "active", subscriptionId: "gid://shopify/AppSubscription/2" });
  });

  it("GIVEN a shop on Pro WHEN another shop's captured CANCELLED notice is replayed under its header THEN it stays on Pro", async () => {
    await installShop({ subscriptionStatus: "active", subscriptionId: SUB, subscriptionPlan: "COD Verify Pro" });
    put("ACTIVE");
    const theirs = "gid://shopify/AppSubscription/777";
    put("CANCELLED", theirs, OTHER, "COD Verify Starter");
    // The body and HMAC are genuine (Shopify signed them for the other shop); only the header is changed.
    expect((await deliver(payload("CANCELLED", theirs, "COD Verify Starter"))).status).toBe(200);
    // Even naming this shop's own subscription id, the notice cannot say more than Shopify does.
    expect((await deliver(payload("CANCELLED", SUB, "Free"))).status).toBe(200);
    expect(await shopRow()).toMatchObject({ subscriptionStatus: "active", subscriptionId: SUB, subscriptionPlan: "COD Verify Pro" });
  });

  it("GIVEN a subscription Shopify reports cancelled WHEN an old ACTIVE notice for it is replayed THEN it stays cancelled", async () => {
    await installShop({ subscriptionStatus: "cancelled", subscriptionId: SUB });
    put("CANCELLED");
    expect((await deliver(payload("ACTIVE"))).status).toBe(200);
    expect((await shopRow()).subscriptionStatus).toBe("cancelled");
  });

  it("answers 503 and changes nothing when Shopify cannot be asked (Shopify delivers the notice again)", async () => {
    await installShop({ subscriptionStatus: "pending" });
    put("ACTIVE");
    shopify.on(OPERATIONS.subscriptionReadBack, () => ({ status: 502 }), "admin");
    const res = await deliver(payload("ACTIVE"));
    expect(res.status).toBe(503);
    expect((await shopRow()).subscriptionStatus).toBe("pending");
  });

  it("is idempotent: the same delivery twice leaves the same state", async () => {
    await installShop({ subscriptionStatus: "pending" });
    put("ACTIVE");
    const opts = { webhookId: "same-delivery" };
    expect((await deliver(payload("ACTIVE"), opts)).status).toBe(200);
    expect((await deliver(payload("ACTIVE"), opts)).status).toBe(200);
    expect((await shopRow()).subscriptionStatus).toBe("active");
  });

  it("rejects a delivery with a wrong HMAC (401) and changes nothing", async () => {
    await installShop({ subscriptionStatus: "pending" });
    const res = await deliver(payload("ACTIVE"), { secret: "not-the-secret" });
    expect(res.status).toBe(401);
    expect((await shopRow()).subscriptionStatus).toBe("pending");
  });

  it("answers 200 to a payload without a subscription, and for a shop we do not know", async () => {
    await installShop({ subscriptionStatus: "pending" });
    expect((await deliver({ something: "else" })).status).toBe(200);
    expect((await deliver(payload("ACTIVE"), { shop: "unknown.myshopify.com" })).status).toBe(200);
    expect((await shopRow()).subscriptionStatus).toBe("pending");
  });
});
