import * as recoveryPage from "~/routes/proxy.dr.$token";
import * as ordersRoute from "~/routes/app.orders";
import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
import * as handlers from "../mocks/shopify/handlers";
import { FakeDeliveryStore } from "../mocks/shopify/delivery";
import { fakeOrder, FakeOrderStore } from "../mocks/shopify/orders";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { carrierEvent, codOrder, PHONE, placeOrder, work, type Order } from "../helpers/delivery";

/**
 * The failed-delivery page's "where you are" (India): the shopper's DIGIPIN from the phone's position
 * or typed, kept on the recovery (the code only), written on the order for the courier, shown on the
 * Orders page with its map link; the recovery's choices stay open beside it.
 */
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
let delivery: FakeDeliveryStore;
let orders: FakeOrderStore;

beforeEach(() => {
  handlers.installDefaultHandlers(shopify);
  orders = new FakeOrderStore();
  orders.install(shopify);
  delivery = new FakeDeliveryStore().install(shopify);
  vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-27T10:00:00Z"));
});

// The Gateway of India, Mumbai (PIN 400001).
const GATEWAY = { lat: "18.921984", lon: "72.834654" };

async function failedDelivery(): Promise<{ o: Order; token: string }> {
  const o = codOrder();
  await placeOrder(o);
  const shipped = fakeOrder({ id: o.admin_graphql_api_id, name: o.name, displayFulfillmentStatus: "FULFILLED", phone: PHONE });
  shipped.shippingAddress = { ...shipped.shippingAddress!, zip: "400001", city: "Mumbai" };
  orders.add(shipped);
  delivery.add({ id: o.admin_graphql_api_id, name: o.name });
  await carrierEvent(o, "failure");
  await work();
  const text = twilio.twilio.messages.filter((m) => m.to === PHONE && /\/dr\//.test(m.body)).pop()!;
  return { o, token: /\/dr\/([A-Za-z0-9_-]{32})/.exec(text.body)![1] };
}

const page = (token: string, form?: Record<string, string>) =>
  callRoute(recoveryPage, signedRequest(`/dr/${token}`, form ? { method: "POST", body: new URLSearchParams(form).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } } : {}), { token });
const nonceOf = (html: string) => /name="nonce" value="([^"]+)"/.exec(html)![1];

describe("the failed-delivery page's DIGIPIN", () => {
  it("finds the DIGIPIN from the position, sends it on a second tap, writes it in the order's note, and leaves the choices open", async () => {
    await installShop({ deliveryRecovery: true, digipinTarget: "note" });
    const { o, token } = await failedDelivery();
    const shown = await (await page(token)).text();
    expect(shown).toContain("Use my location");
    const located = await page(token, { nonce: nonceOf(shown), choice: "location", intent: "locate", ...GATEWAY });
    expect(located.status).toBe(200);
    const html = await located.text();
    const digipin = /id="digipin"[^>]*value="([0-9CFJKLMPT]{3}-[0-9CFJKLMPT]{3}-[0-9CFJKLMPT]{4})"/.exec(html)![1];
    expect(html).toContain(`Your DIGIPIN is <bdi dir="ltr">${digipin}</bdi>, in <bdi dir="ltr">Mumbai</bdi>.`);
    expect((await prisma.deliveryRecovery.findFirstOrThrow()).digipin).toBeNull();

    const sent = await page(token, { nonce: nonceOf(html), choice: "location", digipin });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain(`The courier will see your DIGIPIN <bdi dir="ltr">${digipin}</bdi> on the order.`);
    expect(await prisma.deliveryRecovery.findFirstOrThrow()).toMatchObject({ status: "open", digipin });
    await work();
    expect(delivery.orders.get(o.admin_graphql_api_id)!.note).toContain(`COD Verify: the shopper's DIGIPIN is ${digipin} (map: https://www.google.com/maps/search/?api=1&query=18.9219`);
    // Nothing of the position itself was kept.
    expect(JSON.stringify(await Promise.all([prisma.deliveryRecovery.findMany(), prisma.job.findMany()]))).not.toContain("18.921984");

    // The choices are still there, and the Orders page shows the DIGIPIN with its map link.
    const again = await (await page(token)).text();
    expect(again).toContain('value="tomorrow"');
    const listed = await callAdminRoute<{ orders: { name: string; digipin: { digipin: string; map: string } | null }[] }>(ordersRoute, await adminRequest("/app/orders"));
    expect(listed.data!.orders.find((r) => r.name === o.name)?.digipin).toEqual({ digipin, map: expect.stringMatching(/query=18\.9219\d\d,72\.8346\d\d$/) });
  });

  it("refuses a DIGIPIN that is not one and a position outside India, and keeps nothing", async () => {
    await installShop({ deliveryRecovery: true });
    const { token } = await failedDelivery();
    const nonce = nonceOf(await (await page(token)).text());
    const bad = await page(token, { nonce, choice: "location", digipin: "ABC-DEF-GHIJ" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("This is not a DIGIPIN");
    const abroad = await page(token, { nonce, choice: "location", intent: "locate", lat: "40.7128", lon: "-74.0060" });
    expect(abroad.status).toBe(422);
    expect(await abroad.text()).toContain("This location is outside India");
    expect((await prisma.deliveryRecovery.findFirstOrThrow()).digipin).toBeNull();
    expect(await prisma.job.count({ where: { kind: "digipin.write" } })).toBe(0);
  });
});

describe("/app/orders: an Indian PIN code that does not match its place", () => {
  it("shows the reason in the risk column, in its own words", async () => {
    await installShop();
    const o = codOrder({ shipping_address: { first_name: "Asha", phone: "098123 45678", address1: "Flat 12, Shanti Apartments, MG Road", city: "Mumbai", province: "Karnataka", province_code: "KA", zip: "400001", country_code: "IN" } });
    await placeOrder(o);
    await work();
    const listed = await callAdminRoute<{ orders: { name: string; risk: { reasons: string[] } | null }[] }>(ordersRoute, await adminRequest("/app/orders"));
    expect(listed.data!.orders.find((r) => r.name === o.name)?.risk?.reasons).toContain("The PIN code 400001 belongs to Maharashtra, not to Karnataka as typed.");
  });
});
