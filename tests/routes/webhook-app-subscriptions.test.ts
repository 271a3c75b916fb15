import * as webhook from "~/routes/webhooks.app_subscriptions.update";
import * as sendOtp from "~/routes/proxy.send-otp";
import { prisma } from "~/core/db.server";
import { getShop } from "~/core/settings/shop.server";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";
import { useFakeTwilio } from "../helpers/twilio";

useFakeTwilio();

const SUB = "gid://shopify/AppSubscription/1029266947";
const payload = (status: string, id = SUB, name = "COD Verify Pro") => ({
  app_subscription: { admin_graphql_api_id: id, name, status, admin_graphql_api_shop_id: "gid://shopify/Shop/548380009" },
});

function deliver(body: unknown, opts: Parameters<typeof signedWebhook>[2] = {}) {
  return callRoute(webhook, signedWebhook("app_subscriptions/update", body, opts));
}

describe("app_subscriptions/update", () => {
  it("records an approved subscription, and send-otp's billing gate opens at once (cache invalidated)", async () => {
    await installShop({ subscriptionStatus: "pending" });
    const send = () => callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: "+14155550123" } }));
    expect((await send()).status).toBe(402);
    const res = await deliver(payload("ACTIVE"));
    expect(res.status).toBe(200);
    expect(await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).toMatchObject({
      subscriptionStatus: "active",
      subscriptionId: SUB,
      subscriptionPlan: "COD Verify Pro",
    });
    expect((await send()).status).toBe(200);
  });

  it.each([
    ["CANCELLED", "cancelled"],
    ["FROZEN", "frozen"],
    ["EXPIRED", "expired"],
    ["DECLINED", "declined"],
  ])("closes the billing gate when the subscription becomes %s", async (status, stored) => {
    await installShop({ subscriptionId: SUB });
    await getShop(SHOP);
    await deliver(payload(status));
    expect((await getShop(SHOP))?.subscriptionStatus).toBe(stored);
    const res = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: "+14155550123" } }));
    expect(res.status).toBe(402);
  });

  it("does not let the old plan's cancellation overwrite a newly approved one", async () => {
    await installShop({ subscriptionStatus: "pending", subscriptionId: SUB });
    await deliver(payload("ACTIVE", "gid://shopify/AppSubscription/2"));
    await deliver(payload("CANCELLED", SUB));
    expect(await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).toMatchObject({
      subscriptionStatus: "active",
      subscriptionId: "gid://shopify/AppSubscription/2",
    });
  });

  it("is idempotent: the same delivery twice leaves the same state", async () => {
    await installShop({ subscriptionStatus: "pending" });
    const opts = { webhookId: "same-delivery" };
    expect((await deliver(payload("ACTIVE"), opts)).status).toBe(200);
    expect((await deliver(payload("ACTIVE"), opts)).status).toBe(200);
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).subscriptionStatus).toBe("active");
  });

  it("rejects a delivery with a wrong HMAC (401) and changes nothing", async () => {
    await installShop({ subscriptionStatus: "pending" });
    const res = await deliver(payload("ACTIVE"), { secret: "not-the-secret" });
    expect(res.status).toBe(401);
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).subscriptionStatus).toBe("pending");
  });

  it("answers 200 to a payload without a subscription, and for a shop we do not know", async () => {
    await installShop({ subscriptionStatus: "pending" });
    expect((await deliver({ something: "else" })).status).toBe(200);
    expect((await deliver(payload("ACTIVE"), { shop: "unknown.myshopify.com" })).status).toBe(200);
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).subscriptionStatus).toBe("pending");
  });
});
