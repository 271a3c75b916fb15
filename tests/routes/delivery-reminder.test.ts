import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
import * as handlers from "../mocks/shopify/handlers";
import { FakeDeliveryStore } from "../mocks/shopify/delivery";
import { FakeFlow } from "../mocks/shopify/flow";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { installShop } from "../helpers/shops";
import { carrierEvent, codOrder, PHONE, placeOrder, work } from "../helpers/delivery";

/**
 * The delivery-day reminder from outside: a COD order's shipment goes out for delivery (signed
 * fulfillment_events/create), the shopper gets one text with the balance Shopify says is due and the
 * store's contact, however often and concurrently the event arrives, and never in the quiet hours.
 */
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
let store: FakeDeliveryStore;

beforeEach(() => {
  handlers.installDefaultHandlers(shopify);
  store = new FakeDeliveryStore().install(shopify);
  new FakeFlow().install(shopify);
});
afterEach(() => vi.restoreAllMocks());

const reminders = () => twilio.twilio.messages.filter((m) => m.to === PHONE && /out for delivery/.test(m.body));
// 11:00 in Kolkata (05:30 UTC): outside the default quiet hours (21 to 9).
const DAYTIME = new Date("2026-11-27T05:30:00Z");

describe("the delivery-day reminder", () => {
  it("texts the amount due and the store's contact once, whatever Shopify redelivers or sends at once", async () => {
    await installShop({ otpEnabled: false, timezone: "Asia/Kolkata", storeContact: "+91 22 4000 1234", currency: "INR" });
    vi.spyOn(clock, "now").mockReturnValue(DAYTIME);
    const o = codOrder();
    await placeOrder(o);
    store.add({ id: o.admin_graphql_api_id, name: o.name, outstanding: "1299.00", currency: "INR" });
    expect((await carrierEvent(o, "out_for_delivery", "ofd-1")).status).toBe(200);
    expect((await carrierEvent(o, "out_for_delivery", "ofd-1")).status).toBe(200);
    await Promise.all(Array.from({ length: 8 }, (_, i) => carrierEvent(o, "out_for_delivery", `ofd-x${i}`)));
    await work();
    await Promise.all([work(), work()]);
    expect(reminders()).toHaveLength(1);
    expect(reminders()[0].body).toBe(`Test Shop: order ${o.name} is out for delivery today. Please keep ₹1,299 ready to pay on delivery. Questions: +91 22 4000 1234`);
    expect(await prisma.deliveryReminder.findMany({ select: { status: true, phone: true } })).toEqual([{ status: "sent", phone: PHONE }]);
    expect(await prisma.messageDelivery.count({ where: { purpose: "delivery_reminder", orderGid: o.admin_graphql_api_id } })).toBe(1);
    // A run that repeats (the process stopped after the text, before the job was marked done) sends nothing more.
    await prisma.job.updateMany({ where: { kind: "delivery.reminder" }, data: { doneAt: null, nextAttemptAt: DAYTIME } });
    await work();
    expect(reminders()).toHaveLength(1);
    // Another out-for-delivery scan later (a second attempt) reminds no more.
    await carrierEvent(o, "out_for_delivery", "ofd-2");
    await work();
    expect(reminders()).toHaveLength(1);
  });

  it("waits out the quiet hours in the shop's time zone, then sends", async () => {
    await installShop({ otpEnabled: false, timezone: "Asia/Kolkata", quietHoursStart: 21 * 60, quietHoursEnd: 9 * 60 });
    // 06:00 in Kolkata (00:30 UTC): quiet until 09:00 (03:30 UTC).
    const early = new Date("2026-11-27T00:30:00Z");
    const now = vi.spyOn(clock, "now").mockReturnValue(early);
    const o = codOrder();
    await placeOrder(o);
    store.add({ id: o.admin_graphql_api_id, name: o.name });
    await carrierEvent(o, "out_for_delivery");
    await work();
    expect(reminders()).toHaveLength(0);
    const job = await prisma.job.findFirstOrThrow({ where: { kind: "delivery.reminder" } });
    expect(job.nextAttemptAt.toISOString()).toBe("2026-11-27T03:30:00.000Z");
    now.mockReturnValue(new Date("2026-11-27T03:31:00Z"));
    await work();
    expect(reminders()).toHaveLength(1);
    // The contact defaults to the store's domain.
    expect(reminders()[0].body).toMatch(/Questions: test-shop\.myshopify\.com$/);
  });

  it("sends nothing for a paid order, a card order, an order already delivered, or with the setting off; a Twilio outage is retried and still sends once", async () => {
    await installShop({ otpEnabled: false, timezone: "Asia/Kolkata" });
    vi.spyOn(clock, "now").mockReturnValue(DAYTIME);
    const paid = codOrder();
    const card = codOrder({ gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] });
    const delivered = codOrder();
    const flaky = codOrder();
    for (const o of [paid, card, delivered, flaky]) {
      await placeOrder(o);
      store.add({ id: o.admin_graphql_api_id, name: o.name, outstanding: o === paid ? "0.00" : "1299.00" });
    }
    await carrierEvent(delivered, "delivered");
    twilio.twilio.fail("server_error", { times: 1, when: (m) => /out for delivery/.test(m.body) });
    for (const o of [paid, card, delivered, flaky]) await carrierEvent(o, "out_for_delivery");
    await work();
    const statuses = Object.fromEntries((await prisma.deliveryReminder.findMany()).map((r) => [r.orderGid, [r.status, r.note]]));
    expect(statuses).toEqual({
      [paid.admin_graphql_api_id]: ["skipped", "nothing to pay on delivery"],
      [delivered.admin_graphql_api_id]: ["skipped", "already delivered"],
      [flaky.admin_graphql_api_id]: ["queued", null],
    });
    // The retry after the backoff sends it.
    vi.spyOn(clock, "now").mockReturnValue(new Date(DAYTIME.getTime() + 10 * 60_000));
    await work();
    expect(reminders().map((m) => m.body)).toEqual([expect.stringContaining(flaky.name)]);

    await prisma.shop.updateMany({ data: { deliveryReminder: false } });
    const { clearShopCache } = await import("~/core/settings/shop.server");
    clearShopCache();
    const off = codOrder();
    await placeOrder(off);
    await carrierEvent(off, "out_for_delivery");
    await work();
    expect(await prisma.deliveryReminder.count({ where: { orderGid: off.admin_graphql_api_id } })).toBe(0);
  });
});
