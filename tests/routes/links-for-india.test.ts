import * as requestRoute from "~/routes/proxy.api.address-correction[.]request";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import { env } from "~/core/env.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import * as handlers from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * Links that must arrive in India (docs/whatsapp.md): SMS links carry the shop's whitelisted link
 * domain, and a shop that sends links on WhatsApp sends them as the approved link template, SMS behind it.
 */
const PHONE = "+919876500055";
const LINK_SID = "HX1111111111111111111111111111aaaa";
const shopify = useFakeShopify();
const fake = useFakeTwilio({ TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_LINK_CONTENT_SID: LINK_SID });

// Links as on a real store (local mode points them at the local server instead).
const localMode = env.localMode;
beforeEach(() => Object.assign(env, { localMode: false }));
afterEach(() => Object.assign(env, { localMode }));

function requestCorrection(orderId: string) {
  return callRoute(requestRoute, signedRequest("/api/address-correction.request", { body: { orderId } }));
}

describe("links that must arrive in India", () => {
  it("an address-correction link goes as the WhatsApp link template when the shop sends links on WhatsApp, on its link domain", async () => {
    await installShop({ linksOnWhatsapp: true, linkDomain: "shop.example.in" });
    const store = new FakeOrderStore();
    store.install(shopify);
    const order = store.add(fakeOrder({ phone: PHONE }));
    expect((await requestCorrection(order.id)).status).toBe(200);
    const [message] = fake.twilio.messages;
    expect(message).toMatchObject({ channel: "whatsapp", contentSid: LINK_SID, to: PHONE });
    expect(message.contentVariables!["3"]).toMatch(/^https:\/\/shop\.example\.in\/apps\/cod\/ac\/[A-Za-z0-9_-]+$/);
    expect(await prisma.messageDelivery.findFirstOrThrow()).toMatchObject({ purpose: "address_correction", channel: "whatsapp", orderGid: order.id });
  });

  it("sends the link by SMS on the link domain when the shop does not send links on WhatsApp", async () => {
    await installShop({ linkDomain: "shop.example.in" });
    const store = new FakeOrderStore();
    store.install(shopify);
    const order = store.add(fakeOrder({ phone: PHONE }));
    expect((await requestCorrection(order.id)).status).toBe(200);
    expect(fake.twilio.messages.map((m) => m.channel)).toEqual(["sms"]);
    expect(fake.twilio.messages[0].body).toContain("https://shop.example.in/apps/cod/ac/");
  });

  it("the confirmation link goes as the link template on WhatsApp when the shop sends links there and has no button template", async () => {
    const tagged = new Map<string, Set<string>>();
    handlers.installDefaultHandlers(shopify, {}, tagged);
    new FakeEnforcementStore(tagged).install(shopify);
    await installShop({ linksOnWhatsapp: true, linkDomain: "shop.example.in" });
    const order = orderCreatedPayload({ phone: PHONE, customer: { id: 93, admin_graphql_api_id: "gid://shopify/Customer/93", phone: PHONE, tags: "" } });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
    await runDueJobs(JOB_KINDS);
    const [message] = fake.twilio.messages;
    expect(message).toMatchObject({ channel: "whatsapp", contentSid: LINK_SID });
    expect(message.contentVariables!["3"]).toMatch(/^https:\/\/shop\.example\.in\/apps\/cod\/vc\/[A-Za-z0-9_-]{32}$/);
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ whatsappAt: expect.any(Date), smsLinkAt: null });
  });
});
