import * as uninstalled from "~/routes/webhooks.app.uninstalled";
import * as subscriptions from "~/routes/webhooks.app_subscriptions.update";
import * as dataRequest from "~/routes/webhooks.customers.data_request";
import * as customersRedact from "~/routes/webhooks.customers.redact";
import * as fulfillmentEvents from "~/routes/webhooks.fulfillment_events.create";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as shopRedact from "~/routes/webhooks.shop.redact";
import * as shopUpdate from "~/routes/webhooks.shop.update";
import { prisma } from "~/core/db.server";
import { markPhoneVerified } from "~/otp/verified-phones.server";
import { clock } from "~/core/utils/clock.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { shopRedactJob } from "~/privacy/privacy.server";
import { callRoute, jsonOf } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * The HMAC signs a webhook's body, not its headers: whoever holds one delivery (a log, a proxy, a
 * replay tool) can resend that body with any topic and shop header. These tests play that attacker.
 */

const VICTIM = "victim-shop.myshopify.com";
const PHONE = "+212600000031";
const HOUR = 60 * 60 * 1000;

afterEach(() => vi.restoreAllMocks());

/** Two installed shops, each with a verified customer. */
async function twoShops() {
  const mine = await installShop();
  const victim = await installShop({ domain: VICTIM });
  await markPhoneVerified(mine.id, PHONE);
  await markPhoneVerified(victim.id, PHONE);
  return { mine, victim };
}

async function victimUntouched() {
  const victim = await prisma.shop.findUniqueOrThrow({ where: { domain: VICTIM }, include: { verifiedCustomers: true } });
  expect(victim.uninstalledAt).toBeNull();
  expect(victim.verifiedCustomers).toHaveLength(1);
  expect(await prisma.session.count({ where: { shop: VICTIM } })).toBe(1);
}

const BODIES = {
  "app/uninstalled": { id: 548380009, name: "Test Shop", domain: "shop.example.com", myshopify_domain: SHOP },
  "app_subscriptions/update": { app_subscription: { admin_graphql_api_id: "gid://shopify/AppSubscription/1", name: "Pro", status: "CANCELLED" } },
  "customers/data_request": { shop_id: 1, shop_domain: SHOP, customer: { id: 1, phone: PHONE }, orders_requested: [], data_request: { id: 9 } },
  "customers/redact": { shop_id: 1, shop_domain: SHOP, customer: { id: 1, phone: PHONE }, orders_to_redact: [] },
  "fulfillment_events/create": { id: 1, fulfillment_id: 2, order_id: 820982911946154, status: "delivered", shop_id: 1 },
  "orders/create": orderCreatedPayload(),
  "shop/redact": { shop_id: 1, shop_domain: SHOP },
  "shop/update": { id: 1, name: "Renamed", domain: "renamed.example.com", myshopify_domain: SHOP },
} as const;
type Topic = keyof typeof BODIES;
const ROUTES: Record<Topic, Parameters<typeof callRoute>[0]> = {
  "app/uninstalled": uninstalled,
  "app_subscriptions/update": subscriptions,
  "customers/data_request": dataRequest,
  "customers/redact": customersRedact,
  "fulfillment_events/create": fulfillmentEvents,
  "orders/create": ordersCreate,
  "shop/redact": shopRedact,
  "shop/update": shopUpdate,
};

describe("a signed body replayed to another topic's route", () => {
  for (const route of Object.keys(ROUTES) as Topic[]) {
    it(`${route}'s route refuses every other topic with 400 topic_mismatch and changes nothing`, async () => {
      const { mine } = await twoShops();
      await prisma.shop.update({ where: { id: mine.id }, data: { uninstalledAt: new Date(Date.now() - 72 * HOUR) } });
      for (const topic of Object.keys(BODIES) as Topic[]) {
        if (topic === route) continue;
        // The body and headers of a real `topic` delivery, sent to `route`'s URL.
        const res = await callRoute(ROUTES[route], signedWebhook(topic, BODIES[topic]));
        expect(res.status, `${topic} → ${route}`).toBe(400);
        expect((await jsonOf(res)).code).toBe("topic_mismatch");
      }
      const shop = await prisma.shop.findUniqueOrThrow({ where: { id: mine.id }, include: { verifiedCustomers: true } });
      expect(shop.verifiedCustomers).toHaveLength(1);
      expect(shop.name).toBe("Test Shop");
      expect(shop.subscriptionStatus).toBe("active");
      expect(await prisma.webhookDelivery.count()).toBe(0);
      expect(await prisma.orderRecord.count()).toBe(0);
      await victimUntouched();
    });
  }

  it("an app/uninstalled body relabelled shop/redact (topic header changed) is refused: its body names no shop_domain", async () => {
    const { mine } = await twoShops();
    await prisma.shop.update({ where: { id: mine.id }, data: { uninstalledAt: new Date(Date.now() - 72 * HOUR) } });
    const res = await callRoute(shopRedact, signedWebhook("shop/redact", BODIES["app/uninstalled"]));
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).code).toBe("shop_mismatch");
    expect(await prisma.shop.count({ where: { id: mine.id } })).toBe(1);
  });
});

describe("a signed body replayed under another shop's header", () => {
  const topics = ["app/uninstalled", "customers/data_request", "customers/redact", "shop/redact"] as const;
  for (const topic of topics) {
    it(`${topic}: 400 shop_mismatch, and the other shop keeps its install and data`, async () => {
      await twoShops();
      // Make the victim redactable by time, so only the shop check stands between the body and its data.
      await prisma.shop.update({ where: { domain: VICTIM }, data: { uninstalledAt: new Date(Date.now() - 72 * HOUR) } });
      const res = await callRoute(ROUTES[topic], signedWebhook(topic, BODIES[topic], { shop: VICTIM }));
      expect(res.status).toBe(400);
      expect((await jsonOf(res)).code).toBe("shop_mismatch");
      const victim = await prisma.shop.findUniqueOrThrow({ where: { domain: VICTIM }, include: { verifiedCustomers: true } });
      expect(victim.verifiedCustomers).toHaveLength(1);
      expect(await prisma.session.count({ where: { shop: VICTIM } })).toBe(1);
      expect(await prisma.webhookDelivery.count()).toBe(0);
    });
  }

  it("app/uninstalled with no myshopify_domain in its body is refused", async () => {
    await twoShops();
    const res = await callRoute(uninstalled, signedWebhook("app/uninstalled", { id: 1, domain: SHOP }));
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).code).toBe("shop_mismatch");
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).uninstalledAt).toBeNull();
  });
});

describe("shop/redact answers 200 to every signed delivery, and deletes only what is due", () => {
  const redact = () => callRoute(shopRedact, signedWebhook("shop/redact", BODIES["shop/redact"], { webhookId: "redact-1" }));

  it("an installed shop: 200, nothing deleted, nothing scheduled", async () => {
    await twoShops();
    const res = await redact();
    expect(res.status).toBe(200);
    expect(await prisma.shop.count({ where: { domain: SHOP } })).toBe(1);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(1);
    expect(await prisma.verifiedCustomer.count()).toBe(2);
    expect(await prisma.job.count({ where: { kind: shopRedactJob.kind } })).toBe(0);
  });

  it("47 hours after the uninstall: 200, nothing deleted yet, the deletion scheduled for hour 48 and done then", async () => {
    await twoShops();
    const uninstalledAt = new Date("2026-11-01T10:00:00Z");
    vi.spyOn(clock, "now").mockReturnValue(uninstalledAt);
    expect((await callRoute(uninstalled, signedWebhook("app/uninstalled", BODIES["app/uninstalled"]))).status).toBe(200);

    vi.spyOn(clock, "now").mockReturnValue(new Date(uninstalledAt.getTime() + 47 * HOUR));
    expect((await redact()).status).toBe(200);
    expect(await prisma.verifiedCustomer.count()).toBe(2);
    const job = await prisma.job.findFirstOrThrow({ where: { kind: shopRedactJob.kind, shop: SHOP } });
    expect(job.nextAttemptAt.toISOString()).toBe(new Date(uninstalledAt.getTime() + 48 * HOUR).toISOString());
    expect(await runDueJobs([shopRedactJob])).toMatchObject({ claimed: 0 });

    vi.spyOn(clock, "now").mockReturnValue(new Date(uninstalledAt.getTime() + 48 * HOUR));
    expect(await runDueJobs([shopRedactJob])).toMatchObject({ claimed: 1 });
    expect(await prisma.shop.count({ where: { domain: SHOP } })).toBe(0);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(0);
    await victimUntouched();
    // A late copy of the delivery: 200, nothing more to delete.
    expect((await redact()).status).toBe(200);
  });

  it("48 hours after the uninstall: 200 and the shop's data is gone at once", async () => {
    await twoShops();
    await prisma.shop.update({ where: { domain: SHOP }, data: { uninstalledAt: new Date(Date.now() - 48 * HOUR - 1000) } });
    expect((await redact()).status).toBe(200);
    expect(await prisma.shop.count({ where: { domain: SHOP } })).toBe(0);
    await victimUntouched();
  });

  it("a shop that reinstalled before its scheduled deletion keeps everything", async () => {
    await twoShops();
    await prisma.shop.update({ where: { domain: SHOP }, data: { uninstalledAt: new Date(Date.now() - 10 * HOUR) } });
    expect((await redact()).status).toBe(200);
    await prisma.shop.update({ where: { domain: SHOP }, data: { uninstalledAt: null } });
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 40 * HOUR));
    expect(await runDueJobs([shopRedactJob])).toMatchObject({ claimed: 1, done: 1 });
    expect(await prisma.shop.count({ where: { domain: SHOP } })).toBe(1);
    expect(await prisma.verifiedCustomer.count()).toBe(2);
  });
});

describe("a lone surrogate in a signed shop/update", () => {
  it("is stripped at the door: 200, the name stored without it", async () => {
    await installShop();
    const raw = `{"id":1,"name":"Caf\\u00e9 \\ud800Nord \\ud83d\\ude00","domain":"cafe.example.com","myshopify_domain":"${SHOP}"}`;
    const res = await callRoute(shopUpdate, signedWebhook("shop/update", null, { rawBody: raw }));
    expect(res.status).toBe(200);
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).name).toBe("Café Nord 😀");
  });
});
