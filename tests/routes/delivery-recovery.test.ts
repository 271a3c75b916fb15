import * as recoveryPage from "~/routes/proxy.dr.$token";
import * as correctionPage from "~/routes/proxy.ac.$token";
import { hashToken } from "~/address-correction/address-correction.server";
import { openOnce } from "~/address-correction/open-correction.server";
import * as ordersUpdated from "~/routes/webhooks.orders.updated";
import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
import * as handlers from "../mocks/shopify/handlers";
import { FakeDeliveryStore } from "../mocks/shopify/delivery";
import { FakeFlow } from "../mocks/shopify/flow";
import { fakeOrder, FakeOrderStore } from "../mocks/shopify/orders";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";
import { carrierEvent, codOrder, PHONE, placeOrder, work, type Order } from "../helpers/delivery";

/**
 * Failed-delivery recovery from outside: the carrier reports a failed attempt on a COD order (signed
 * fulfillment_events/create, or the courier app's tag through orders/updated), the shopper is texted a
 * link once, answers on the hosted page (signed by the app proxy), and the answer lands on the order
 * (note, tag, metafield) and in Flow, each once.
 */
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
let delivery: FakeDeliveryStore;
let orders: FakeOrderStore;
let flow: FakeFlow;

beforeEach(() => {
  handlers.installDefaultHandlers(shopify);
  orders = new FakeOrderStore();
  orders.install(shopify);
  delivery = new FakeDeliveryStore().install(shopify);
  flow = new FakeFlow().install(shopify);
});
afterEach(() => vi.restoreAllMocks());

// 15:30 in Kolkata: outside the quiet hours.
const DAYTIME = new Date("2026-11-27T10:00:00Z");

/** A COD order placed, shipped (the fake holds it as fulfilled) and known to the delivery store. */
async function shippedOrder(overrides: Record<string, unknown> = {}): Promise<Order> {
  const o = codOrder(overrides);
  await placeOrder(o);
  orders.add(fakeOrder({ id: o.admin_graphql_api_id, name: o.name, displayFulfillmentStatus: "FULFILLED", phone: PHONE }));
  delivery.add({ id: o.admin_graphql_api_id, name: o.name });
  return o;
}

function recoveryTexts() {
  return twilio.twilio.messages.filter((m) => m.to === PHONE && /\/dr\//.test(m.body));
}

function textedToken(): string {
  const texts = recoveryTexts();
  expect(texts.length).toBeGreaterThan(0);
  return /\/dr\/([A-Za-z0-9_-]{32})/.exec(texts[texts.length - 1].body)![1];
}

function page(token: string, form?: Record<string, string>) {
  return callRoute(
    recoveryPage,
    signedRequest(`/dr/${token}`, form ? { method: "POST", body: new URLSearchParams(form).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } } : {}),
    { token },
  );
}

const nonceOf = (html: string) => /name="nonce" value="([^"]+)"/.exec(html)![1];

async function answer(token: string, form: Record<string, string>) {
  const shown = await page(token);
  expect(shown.status).toBe(200);
  return page(token, { nonce: nonceOf(await shown.text()), ...form });
}

beforeEach(async () => {
  await installShop({ otpEnabled: false, timezone: "Asia/Kolkata", currency: "INR" });
  vi.spyOn(clock, "now").mockReturnValue(DAYTIME);
});

describe("a failed delivery attempt", () => {
  it("texts the shopper one link and tells Flow once, however often the carrier's events arrive; the risk score still learns the failure", async () => {
    const o = await shippedOrder();
    expect((await carrierEvent(o, "attempted_delivery", "a1")).status).toBe(200);
    await carrierEvent(o, "attempted_delivery", "a1");
    await Promise.all([carrierEvent(o, "attempted_delivery", "a2"), carrierEvent(o, "failure", "f1"), carrierEvent(o, "failure", "f2")]);
    await work();
    await work();
    expect(recoveryTexts()).toHaveLength(1);
    expect(recoveryTexts()[0].body).toMatch(new RegExp(`^Test Shop: we could not deliver order ${o.name}\\. Choose what happens next .*: https?://\\S+/apps/cod/dr/[A-Za-z0-9_-]{32}$`));
    const row = await prisma.deliveryRecovery.findFirstOrThrow();
    expect(row).toMatchObject({ orderGid: o.admin_graphql_api_id, phone: PHONE, cause: "attempted_delivery", status: "open", notifiedAt: expect.any(Date) });
    // Only the hash of the texted token is stored.
    expect(JSON.stringify(row)).not.toContain(textedToken());
    expect(flow.runsOf("cod-delivery-failed")).toEqual([
      { shop: "test-shop.myshopify.com", handle: "cod-delivery-failed", payload: { order_id: o.admin_graphql_api_id.split("/").pop(), cause: "attempted_delivery" } },
    ]);
    // The carrier's failure is learnt for the risk score as before.
    expect(await prisma.orderOutcome.findFirst({ select: { outcome: true, reason: true } })).toEqual({ outcome: "failed", reason: "carrier:failure" });
  });

  it("shows what the shopper needs to choose: the items, the amount due in the shop's currency, the address as India writes it, the courier's phone masked and the phone field started with its code", async () => {
    const o = await shippedOrder({ line_items: [{ id: 1, product_id: 7001, variant_id: 8001, quantity: 1, price: "1299.00", title: "Cotton kurta" }] });
    await carrierEvent(o, "failure");
    await work();
    const html = await (await page(textedToken())).text();
    expect(html).toContain("<dt>Items</dt>");
    expect(html).toContain("<li>Cotton kurta</li>");
    expect(html).toMatch(/<dt>To pay on delivery<\/dt><dd><bdi>₹1,299<\/bdi><\/dd>/);
    expect(html).toContain("<div>Asha Verma</div><div>MG Road</div><div>Pune 41100</div><div>Maharashtra</div>");
    expect(html).toContain('<bdi dir="ltr">+9198•••5678</bdi>');
    expect(html).not.toContain(PHONE);
    expect(html).toMatch(/id="phone"[^>]*value="\+91 "/);

    // In Spanish: the shop's currency by its symbol, never "INR".
    const es = await (await callRoute(recoveryPage, signedRequest(`/dr/${textedToken()}`, { query: { locale: "es" } }), { token: textedToken() })).text();
    expect(es).toContain("<dt>A pagar en la entrega</dt>");
    expect(es).toMatch(/1299\s₹/);
    expect(es).not.toContain("INR");
  });

  it("still offers every choice when Shopify cannot be read, without the parts it would have given", async () => {
    const o = await shippedOrder();
    await carrierEvent(o, "failure");
    await work();
    orders.orders.delete(o.admin_graphql_api_id);
    delivery.orders.delete(o.admin_graphql_api_id);
    const html = await (await page(textedToken())).text();
    expect(html).not.toContain("To pay on delivery");
    expect(html).not.toContain("Delivery address");
    expect(html).toContain("Phone the courier calls");
    for (const choice of ["tomorrow", "pick_day", "fix_address", "fix_phone", "pay_online"]) expect(html).toContain(`name="choice" value="${choice}"`);
  });

  it("'deliver again tomorrow': the shop's tomorrow is written to the order as a note, tags and the metafield, and sent to Flow, once", async () => {
    const o = await shippedOrder();
    await carrierEvent(o, "failure");
    await work();
    const token = textedToken();
    const nonce = nonceOf(await (await page(token)).text());
    const res = await page(token, { nonce, choice: "tomorrow" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`We will try to deliver order <bdi dir="ltr">${o.name}</bdi> again tomorrow.`);
    await work();
    const shipped = delivery.orders.get(o.admin_graphql_api_id)!;
    expect(JSON.parse(shipped.metafields.get("cod_verify.delivery_answer")!.value)).toEqual({
      choice: "tomorrow",
      date: "2026-11-28",
      phone: null,
      cause: "failure",
      answeredAt: DAYTIME.toISOString(),
    });
    expect(shipped.note).toBe("COD Verify, failed delivery: the shopper chose to deliver again on 2026-11-28 (2026-11-27 10:00 UTC).");
    expect(orders.get(o.admin_graphql_api_id)!.tags).toEqual(expect.arrayContaining(["cod-delivery-failed", "cod-redeliver-tomorrow"]));
    expect(flow.runsOf("cod-delivery-choice").map((r) => r.payload)).toEqual([
      { order_id: o.admin_graphql_api_id.split("/").pop(), choice: "tomorrow", "chosen date": "2026-11-28", cause: "failure" },
    ]);
    // A second answer (another tab, a replayed form) changes nothing; the job running again writes no second note line.
    const again = await page(token, { nonce, choice: "pay_online" });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("Your answer is recorded");
    await prisma.deliveryRecovery.updateMany({ data: { writtenAt: null } });
    await prisma.job.updateMany({ where: { kind: "delivery.recovery-answer" }, data: { doneAt: null } });
    await work();
    expect(shipped.note?.split("\n")).toHaveLength(1);
    expect(flow.runsOf("cod-delivery-choice")).toHaveLength(1);
    expect(await prisma.deliveryRecovery.findFirst({ select: { status: true, choice: true } })).toEqual({ status: "answered", choice: "tomorrow" });
  });

  it("'pick a day' takes a day from tomorrow to a week ahead (422 otherwise); 'fix the phone' reads a national number in the order's country", async () => {
    const a = await shippedOrder();
    await carrierEvent(a, "attempted_delivery");
    await work();
    const tokenA = textedToken();
    for (const day of ["2026-11-27", "2026-12-05", "not a day"]) {
      const refused = await answer(tokenA, { choice: "pick_day", day });
      expect(refused.status, day).toBe(422);
      expect(await refused.text()).toContain("Choose a day within the next 7 days.");
    }
    expect((await answer(tokenA, { choice: "pick_day", day: "2026-12-01" })).status).toBe(200);

    const b = await shippedOrder();
    await carrierEvent(b, "attempted_delivery");
    await work();
    const tokenB = textedToken();
    expect(tokenB).not.toBe(tokenA);
    expect((await answer(tokenB, { choice: "fix_phone", phone: "12" })).status).toBe(422);
    expect((await answer(tokenB, { choice: "fix_phone", phone: "098200 11122" })).status).toBe(200);
    await work();
    const rows = await prisma.deliveryRecovery.findMany({ orderBy: { createdAt: "asc" }, select: { orderGid: true, choice: true, choiceDate: true, newPhone: true } });
    expect(rows).toEqual([
      { orderGid: a.admin_graphql_api_id, choice: "pick_day", choiceDate: "2026-12-01", newPhone: null },
      { orderGid: b.admin_graphql_api_id, choice: "fix_phone", choiceDate: null, newPhone: "+919820011122" },
    ]);
    expect(JSON.parse(delivery.orders.get(b.admin_graphql_api_id)!.metafields.get("cod_verify.delivery_answer")!.value)).toMatchObject({ choice: "fix_phone", phone: "+919820011122" });
  });

  it("'fix the address' opens the address form at once; the fulfilled order keeps the address as the requested-address metafield, and Flow hears of it", async () => {
    const o = await shippedOrder();
    await carrierEvent(o, "failure");
    await work();
    const res = await answer(textedToken(), { choice: "fix_address" });
    expect(res.status).toBe(200);
    const html = await res.text();
    const link = /href="(https?:\/\/[^"]+\/apps\/cod\/ac\/([A-Za-z0-9_-]{32}))"/.exec(html);
    expect(link).not.toBeNull();
    const acToken = link![2];
    const form = await callRoute(correctionPage, signedRequest(`/ac/${acToken}`), { token: acToken });
    expect(form.status).toBe(200);
    expect(await prisma.addressCorrection.findFirst({ select: { source: true, orderGid: true, status: true } })).toEqual({ source: "delivery", orderGid: o.admin_graphql_api_id, status: "pending" });
    const typed = { firstName: "Asha", lastName: "Verma", phone: "+91 98123 45678", address1: "Flat 12, Sunrise Apartments, 44 MG Road", address2: "", city: "Mumbai", province: "Maharashtra", zip: "400001", countryCode: "IN" };
    const posted = await callRoute(
      correctionPage,
      signedRequest(`/ac/${acToken}`, { method: "POST", body: new URLSearchParams({ ...typed, nonce: nonceOf(await form.text()) }).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } }),
      { token: acToken },
    );
    // Shipped: Shopify no longer edits the address; the form keeps it on the order for the courier app.
    expect(posted.status).toBe(409);
    expect(orders.get(o.admin_graphql_api_id)!.metafields).toEqual([expect.objectContaining({ namespace: "cod_verify", key: "requested_address", value: expect.stringContaining("44 MG Road") })]);
    await work();
    expect(flow.runsOf("cod-delivery-choice").map((r) => r.payload.choice)).toEqual(["fix_address"]);
    expect(flow.runsOf("cod-address-corrected").map((r) => r.payload)).toEqual([{ order_id: o.admin_graphql_api_id.split("/").pop(), applied: false, digipin: "", "map link": "" }]);
  });

  it("'fix the address' while a correction of the order is already open: that correction's link is issued anew and shown, never a dead end", async () => {
    const o = await shippedOrder();
    await carrierEvent(o, "failure");
    await work();
    // Another way in (a WhatsApp answer, the merchant's "ask for the address") opened a correction first:
    // its link went by text, and only its hash is stored.
    const firstToken = "F".repeat(32);
    const opened = await openOnce(
      { shopId: (await prisma.shop.findFirstOrThrow()).id, orderGid: o.admin_graphql_api_id, orderName: o.name, phone: PHONE, tokenHash: hashToken(firstToken), source: "whatsapp", reason: null, locale: "en", before: "{}", expiresAt: new Date(DAYTIME.getTime() + 72 * 3600_000) },
      DAYTIME,
    );
    expect(opened.ok).toBe(true);
    expect((await callRoute(correctionPage, signedRequest(`/ac/${firstToken}`), { token: firstToken })).status).toBe(200);
    const open = await prisma.addressCorrection.findFirstOrThrow();

    const res = await answer(textedToken(), { choice: "fix_address" });
    expect(res.status).toBe(200);
    const html = await res.text();
    const link = /href="(https?:\/\/[^"]+\/apps\/cod\/ac\/([A-Za-z0-9_-]{32}))"/.exec(html);
    expect(link).not.toBeNull();
    expect(html).toContain("Open the address form");
    // The same correction, reached by the new link; still one correction for the order.
    expect(await prisma.addressCorrection.findMany({ select: { id: true, status: true } })).toEqual([{ id: open.id, status: "pending" }]);
    const form = await callRoute(correctionPage, signedRequest(`/ac/${link![2]}`), { token: link![2] });
    expect(form.status).toBe(200);
    // The earlier text's link gives way to the new one.
    expect((await callRoute(correctionPage, signedRequest(`/ac/${firstToken}`), { token: firstToken })).status).toBe(404);
  });

  it("'fix the address' when no form can be offered says the shop will be in touch instead of pointing at a form", async () => {
    const o = await shippedOrder();
    await carrierEvent(o, "failure");
    await work();
    orders.orders.delete(o.admin_graphql_api_id);
    const html = await (await answer(textedToken(), { choice: "fix_address" })).text();
    expect(html).not.toContain("/apps/cod/ac/");
    expect(html).toContain("The shop will contact you to correct the address of order");
  });

  it("'pay online now' sends the shopper to Shopify's payment page for the order when it has one", async () => {
    const o = await shippedOrder();
    delivery.orders.get(o.admin_graphql_api_id)!.paymentUrl = "https://test-shop.myshopify.com/123/order_payment/456?secret=abc";
    await carrierEvent(o, "failure");
    await work();
    const res = await answer(textedToken(), { choice: "pay_online" });
    expect(await res.text()).toContain('href="https://test-shop.myshopify.com/123/order_payment/456?secret=abc"');
  });

  it("refuses a forged form (403), an unknown link (404) and an expired one (410); a card order or a shop with recovery off gets nothing", async () => {
    const o = await shippedOrder();
    await carrierEvent(o, "failure");
    await work();
    const token = textedToken();
    expect((await page(token, { nonce: "1.abc", choice: "tomorrow" })).status).toBe(403);
    expect((await page("A".repeat(32))).status).toBe(404);
    vi.spyOn(clock, "now").mockReturnValue(new Date(DAYTIME.getTime() + 73 * 3600_000));
    expect((await page(token)).status).toBe(410);
    vi.spyOn(clock, "now").mockReturnValue(DAYTIME);

    const card = await shippedOrder({ gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] });
    await carrierEvent(card, "failure");
    await prisma.shop.updateMany({ data: { deliveryRecovery: false } });
    (await import("~/core/settings/shop.server")).clearShopCache();
    const off = await shippedOrder();
    await carrierEvent(off, "failure");
    await work();
    expect(await prisma.deliveryRecovery.count()).toBe(1);
    expect(recoveryTexts()).toHaveLength(1);
  });

  it("a courier app's failed-attempt tag (orders/updated) opens the recovery like the carrier's event, once", async () => {
    await prisma.shop.updateMany({ data: { deliveryFailureTags: "NDR\nundelivered" } });
    const o = await shippedOrder();
    const update = (tags: string) => callRoute(ordersUpdated, signedWebhook("orders/updated", { ...o, tags, updated_at: new Date().toISOString() }));
    expect((await update("express")).status).toBe(200);
    expect(await prisma.deliveryRecovery.count()).toBe(0);
    await update("express, ndr");
    await update("express, ndr, cod-delivery-failed");
    await work();
    expect(await prisma.deliveryRecovery.findFirst({ select: { cause: true } })).toEqual({ cause: "tag:ndr" });
    expect(recoveryTexts()).toHaveLength(1);
  });
});
