import * as requestRoute from "~/routes/proxy.api.address-correction[.]request";
import * as statusRoute from "~/routes/proxy.api.address-correction[.]status";
import * as formRoute from "~/routes/proxy.ac.$token";
import { prisma, watchQueries } from "~/core/db.server";
import { watchDirectStatements } from "~/core/db/sql.server";
import { clock } from "~/core/utils/clock.server";
import { FakeOrderStore, fakeOrder, orderUpdateUserErrors } from "../mocks/shopify/orders";
import { OPERATIONS } from "~/core/shopify/operations";
import { LOCATION_SCRIPT } from "~/shared/location-script";
import { hashToken } from "~/address-correction/address-correction.server";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, jsonOf, signedRequest, unsignedRequest } from "../helpers/proxy";
import { describeProxyEdge } from "../helpers/proxy-edge";
import { installShop, SHOP } from "../helpers/shops";
import { lastCorrectionLink, readOutbox, useOutbox } from "../helpers/correction-sms";


let store = new FakeOrderStore();
const fake = useFakeShopify();
const outbox = useOutbox();
beforeEach(() => {
  store = new FakeOrderStore();
  store.install(fake);
});

const PHONE = "+919876543210";

function requestCorrection(body: Record<string, unknown>) {
  return callRoute(requestRoute, signedRequest("/api/address-correction.request", { body }));
}

function status(token: string) {
  return callRoute(statusRoute, signedRequest("/api/address-correction.status", { query: { token } }));
}

function openForm(token: string, query: Record<string, string> = {}) {
  return callRoute(formRoute, signedRequest(`/ac/${token}`, { query }), { token });
}

function submitForm(token: string, fields: Record<string, string>) {
  return callRoute(
    formRoute,
    signedRequest(`/ac/${token}`, {
      method: "POST",
      body: new URLSearchParams(fields).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    }),
    { token },
  );
}

function nonceIn(html: string): string {
  const m = /name="nonce" value="([^"]+)"/.exec(html);
  if (!m) throw new Error("no nonce in the form");
  return m[1];
}

const GOOD = {
  firstName: "Asha",
  lastName: "Verma",
  phone: "+91 98765 43210",
  address1: "Flat 12, Sunrise Apartments, 44 MG Road",
  address2: "Near City Mall",
  city: "Pune",
  province: "Maharashtra",
  zip: "411001",
  countryCode: "IN",
};

/** Installs the shop, adds an order and requests a correction for it; returns the texted token. */
async function requested(orderOverrides: Parameters<typeof fakeOrder>[0] = {}, shopOverrides = {}) {
  if (!(await prisma.shop.findUnique({ where: { domain: SHOP } }))) await installShop(shopOverrides);
  const order = store.add(fakeOrder(orderOverrides));
  const res = await requestCorrection({ orderId: order.id });
  expect(res.status).toBe(200);
  return { order, token: lastCorrectionLink(outbox.dir, order.phone ?? PHONE).token };
}

describeProxyEdge("POST /api/address-correction.request", requestRoute, {
  path: "/api/address-correction.request",
  method: "POST",
  validBody: { orderId: "1" },
  requiredFields: ["orderId"],
});
describeProxyEdge("GET /api/address-correction.status", statusRoute, { path: "/api/address-correction.status", method: "GET" });

describe("POST /api/address-correction.request", () => {
  it("texts the order's phone a single-use link and answers { status: sent } without the token", async () => {
    await installShop();
    const order = store.add(fakeOrder());
    const numericId = order.id.split("/").pop()!;
    const res = await requestCorrection({ orderId: numericId });
    expect(res.status).toBe(200);
    const body = await jsonOf(res);
    expect(body).toEqual({ status: "sent", expiresAt: expect.any(String) });

    const [sms] = readOutbox(outbox.dir);
    expect(sms.to).toBe(PHONE);
    expect(sms.body).toContain(order.name);
    const { url, token } = lastCorrectionLink(outbox.dir, PHONE);
    expect(url.pathname).toBe(`/apps/cod/ac/${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/); // 24 random bytes = 192 bits
    expect(JSON.stringify(body)).not.toContain(token);

    const row = await prisma.addressCorrection.findFirstOrThrow();
    expect(row).toMatchObject({ orderGid: order.id, orderName: order.name, phone: PHONE, status: "pending", source: "api" });
    expect(row.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.parse(row.before)).toMatchObject({ address1: "MG Road", zip: "41100", province: "MH", countryCode: "IN" });
    // Valid 72 hours by default.
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeGreaterThan(72 * 3600_000 - 5000);
    expect(fake.callsTo(OPERATIONS.orderById)[0].variables).toEqual({ id: order.id });
  });

  it("accepts a gid and honours the shop's link lifetime", async () => {
    await installShop({ addressCorrectionTtlHours: 24 });
    const order = store.add(fakeOrder());
    const res = await requestCorrection({ orderId: order.id });
    const { expiresAt } = await jsonOf(res);
    const hours = (new Date(String(expiresAt)).getTime() - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it("by phone: finds the newest open order for that number through the Admin API", async () => {
    await installShop();
    const day = 24 * 3600_000;
    store.add(fakeOrder({ name: "#1001", createdAt: new Date(Date.now() - 3 * day).toISOString() }));
    const newest = store.add(fakeOrder({ name: "#1002", createdAt: new Date(Date.now() - day).toISOString() }));
    store.add(fakeOrder({ name: "#1003", createdAt: new Date().toISOString(), cancelledAt: new Date().toISOString() }));
    store.add(fakeOrder({ name: "#1004", phone: "+919999999999", customer: null, shippingAddress: null }));

    const res = await requestCorrection({ phone: PHONE });
    expect(res.status).toBe(200);
    expect((await prisma.addressCorrection.findFirstOrThrow()).orderGid).toBe(newest.id);
    expect(fake.callsTo(OPERATIONS.latestOpenOrders)[0].variables.query).toBe(`status:open "${PHONE}"`);
  });

  it("answers 404 order_not_found for an unknown order or phone, and 400 invalid_phone for a malformed number", async () => {
    await installShop();
    expect(await jsonOf(await requestCorrection({ orderId: "123" }))).toMatchObject({ code: "order_not_found" });
    expect((await requestCorrection({ orderId: "not-an-id" })).status).toBe(404);
    const byPhone = await requestCorrection({ phone: "+14155550123" });
    expect(byPhone.status).toBe(404);
    const bad = await requestCorrection({ phone: "12345" });
    expect(bad.status).toBe(400);
    expect((await jsonOf(bad)).code).toBe("invalid_phone");
    expect(readOutbox(outbox.dir)).toEqual([]);
  });

  it("does not duplicate a pending correction: already_pending, and no second SMS", async () => {
    const { order } = await requested();
    const again = await requestCorrection({ orderId: order.id });
    expect(again.status).toBe(200);
    expect((await jsonOf(again)).status).toBe("already_pending");
    expect(readOutbox(outbox.dir)).toHaveLength(1);
    expect(await prisma.addressCorrection.count()).toBe(1);
  });

  it("refuses orders that can no longer change (409 order_not_editable) and orders without a phone (422)", async () => {
    await installShop();
    const fulfilled = store.add(fakeOrder({ displayFulfillmentStatus: "FULFILLED" }));
    const res = await requestCorrection({ orderId: fulfilled.id });
    expect(res.status).toBe(409);
    expect((await jsonOf(res)).code).toBe("order_not_editable");
    const noPhone = store.add(fakeOrder({ phone: null, customer: null, shippingAddress: { ...fakeOrder().shippingAddress!, phone: null } }));
    const res2 = await requestCorrection({ orderId: noPhone.id });
    expect(res2.status).toBe(422);
    expect((await jsonOf(res2)).code).toBe("order_has_no_phone");
  });

  it("rate-limits requests per order (3 a day) before asking Shopify", async () => {
    await installShop();
    for (let i = 0; i < 3; i++) expect((await requestCorrection({ orderId: "42" })).status).toBe(404);
    const res = await requestCorrection({ orderId: "42" });
    expect(res.status).toBe(429);
    const body = await jsonOf(res);
    expect(body).toMatchObject({ code: "rate_limited", retryAfter: expect.any(Number) });
    expect(res.headers.get("retry-after")).toBe(String(body.retryAfter));
    expect(fake.callsTo(OPERATIONS.orderById)).toHaveLength(3);
  });

  it("rate-limits requests per phone (3 an hour), whichever way the order was named", async () => {
    await installShop();
    for (let i = 0; i < 3; i++) {
      const order = store.add(fakeOrder());
      expect((await requestCorrection({ orderId: order.id })).status).toBe(200);
    }
    const fourth = store.add(fakeOrder());
    expect((await requestCorrection({ orderId: fourth.id })).status).toBe(429);
    expect((await requestCorrection({ phone: PHONE })).status).toBe(429);
    expect(readOutbox(outbox.dir)).toHaveLength(3);
  });

  it("answers 402 subscription_required for a shop without an active plan, before any lookup or SMS", async () => {
    await installShop({ subscriptionStatus: "cancelled" });
    const order = store.add(fakeOrder());
    const res = await requestCorrection({ orderId: order.id });
    expect(res.status).toBe(402);
    expect((await jsonOf(res)).code).toBe("subscription_required");
    expect(fake.calls).toHaveLength(0);
    expect(readOutbox(outbox.dir)).toEqual([]);
  });

  it("caps storefront requests per shop (300 an hour) whatever they name", async () => {
    const shop = await installShop();
    const { hitRateLimit } = await import("~/core/rate-limit/rate-limit.server");
    for (let i = 0; i < 300; i++) await hitRateLimit(`ac:shop:${shop.id}`, 300, 3600);
    const res = await requestCorrection({ orderId: "9" });
    expect(res.status).toBe(429);
    expect(fake.calls).toHaveLength(0);
  });

  it("answers 502 shopify_unavailable when the Admin API fails, and sends nothing", async () => {
    await installShop();
    fake.on(OPERATIONS.orderById, () => ({ status: 503 }), "admin");
    const res = await requestCorrection({ orderId: "77" });
    expect(res.status).toBe(502);
    expect((await jsonOf(res)).code).toBe("shopify_unavailable");
    expect(await prisma.addressCorrection.count()).toBe(0);
  });
});

describe("GET /api/address-correction.status", () => {
  it("is pending, then completed once the form is submitted, and expired after the lifetime", async () => {
    const { token } = await requested();
    expect(await jsonOf(await status(token))).toMatchObject({ status: "pending" });

    const html = await (await openForm(token)).text();
    expect((await submitForm(token, { ...GOOD, nonce: nonceIn(html) })).status).toBe(200);
    expect(await jsonOf(await status(token))).toMatchObject({ status: "completed", orderUpdated: true });

    const second = await requested();
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 73 * 3600_000));
    expect(await jsonOf(await status(second.token))).toMatchObject({ status: "expired" });
  });

  it("answers 404 not_found for an unknown token and 400 without one", async () => {
    await installShop();
    const res = await status("A".repeat(32));
    expect(res.status).toBe(404);
    expect((await jsonOf(res)).code).toBe("not_found");
    const none = await callRoute(statusRoute, signedRequest("/api/address-correction.status"));
    expect(none.status).toBe(400);
  });
});

describe("GET /ac/:token", () => {
  it("serves a self-contained, accessible form prefilled with the order's address", async () => {
    const { token, order } = await requested();
    const res = await openForm(token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await res.text();
    expect(html).toContain(`<html lang="en" dir="ltr">`);
    expect(html).toContain(order.name);
    for (const [id, value] of [["firstName", "Asha"], ["address1", "MG Road"], ["city", "Pune"], ["zip", "41100"]]) {
      expect(html).toMatch(new RegExp(`<label for="${id}">`));
      expect(html).toMatch(new RegExp(`id="${id}"[^>]*value="${value}"`));
    }
    // The state as a list of the country's, the order's chosen.
    expect(html).toMatch(/<label for="province">/);
    expect(html).toMatch(/<select id="province"[^>]*>.*<option value="MH" selected="">Maharashtra<\/option>/);
    expect(html).toMatch(/<option value="IN" selected="">India<\/option>/);
    // No script but the constant "use my location" one, which the page's CSP allows by its hash alone.
    expect(html.replace(`<script>${LOCATION_SCRIPT}</script>`, "")).not.toMatch(/<script|<link|https?:\/\//);
    expect(res.headers.get("content-security-policy")).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*';/);
    expect(Buffer.byteLength(html)).toBeLessThan(12 * 1024);
  });

  it("speaks the shop's language, or the one asked for; Arabic right to left", async () => {
    const { token } = await requested({}, { locale: "ar" });
    const ar = await (await openForm(token)).text();
    expect(ar).toContain(`<html lang="ar" dir="rtl">`);
    expect(ar).toContain("أكّد عنوان التوصيل");
    const fr = await (await openForm(token, { locale: "fr" })).text();
    expect(fr).toContain(`lang="fr"`);
    expect(fr).toContain("Confirmez votre adresse de livraison");
    const hi = await (await openForm(token, { locale: "hi" })).text();
    expect(hi).toContain("पिन कोड");
  });

  it("answers friendly HTML pages: 404 unknown link, 401 unsigned, 403 shop without the app, 410 expired", async () => {
    const { token } = await requested();
    const unknown = await openForm("B".repeat(32));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Link not found");

    const unsigned = await callRoute(formRoute, unsignedRequest(`/ac/${token}`), { token });
    expect(unsigned.status).toBe(401);
    expect(unsigned.headers.get("content-type")).toMatch(/text\/html/);

    const stranger = await callRoute(formRoute, signedRequest(`/ac/${token}`, { shop: "stranger.myshopify.com" }), { token });
    expect(stranger.status).toBe(403);
    expect(stranger.headers.get("content-type")).toMatch(/text\/html/);

    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 73 * 3600_000));
    const expired = await openForm(token);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain("This link has expired");
  });
});

describe("the countries and provinces the form offers", () => {
  /** The shop's countries are kept 10 minutes: each case asks Shopify afresh. */
  let minutes = 0;
  function later() {
    minutes += 11;
    const at = Date.now() + minutes * 60_000;
    vi.spyOn(clock, "now").mockImplementation(() => new Date(at));
  }
  const countriesIn = (html: string) => [...html.matchAll(/<option value="([A-Z]{2})"/g)].map((m) => m[1]);

  it("offers every country the shop ships to, and the order's own; all of them where it ships to the rest of the world", async () => {
    later();
    store.shipsTo = ["US", "AU", "FR"];
    const { token } = await requested();
    const html = await (await openForm(token)).text();
    const countries = countriesIn(html.slice(html.indexOf('id="countryCode"'), html.indexOf("</select>", html.indexOf('id="countryCode"'))));
    expect(countries.sort()).toEqual(["AU", "FR", "IN", "US"]);
    expect(fake.callsTo(OPERATIONS.shopShipsTo)).toHaveLength(1);

    later();
    store.shipsTo = ["ZZ"];
    const all = await (await openForm(token)).text();
    const offered = countriesIn(all.slice(all.indexOf('id="countryCode"'), all.indexOf("</select>", all.indexOf('id="countryCode"'))));
    expect(offered.length).toBeGreaterThan(240);
    expect(offered).toEqual(expect.arrayContaining(["AQ", "NZ", "VN", "ZW"]));
  });

  it("refuses a country the shop does not ship to at the door, before Shopify is asked to change anything", async () => {
    later();
    store.shipsTo = ["IN", "US"];
    const { token } = await requested();
    const nonce = nonceIn(await (await openForm(token)).text());
    const res = await submitForm(token, { ...GOOD, countryCode: "FR", zip: "75001", province: "", nonce });
    expect(res.status).toBe(422);
    expect(await res.text()).toMatch(/id="countryCode"[^>]*aria-invalid="true"/);
    const forged = await submitForm(token, { ...GOOD, countryCode: "<b>", nonce });
    expect(forged.status).toBe(422);
    expect(fake.callsTo(OPERATIONS.orderUpdate)).toHaveLength(0);
  });

  it("shows another country's provinces on request without saving, and writes a package province by name", async () => {
    later();
    store.shipsTo = ["IN", "AU"];
    const { token, order } = await requested();
    const nonce = nonceIn(await (await openForm(token)).text());
    // The shopper picks Australia and asks for its states: the form again, Maharashtra gone, nothing saved.
    const switched = await submitForm(token, { ...GOOD, countryCode: "AU", intent: "country", nonce });
    expect(switched.status).toBe(200);
    const html = await switched.text();
    expect(html).toMatch(/<option value="AU" selected="">Australia<\/option>/);
    expect(html).toMatch(/<select id="province"[^>]*><option value="" selected="">Choose…<\/option>/);
    expect(html).toContain('<option value="NSW">New South Wales</option>');
    expect(html).not.toContain("Maharashtra");
    expect(fake.callsTo(OPERATIONS.orderUpdate)).toHaveLength(0);

    // A province of another country is refused; one of Australia's is written by name.
    const wrong = await submitForm(token, { ...GOOD, countryCode: "AU", province: "MH", zip: "2000", nonce: nonceIn(html) });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toMatch(/id="province"[^>]*aria-invalid="true"/);
    const saved = await submitForm(token, { ...GOOD, countryCode: "AU", province: "NSW", zip: "2000", nonce: nonceIn(html) });
    expect(saved.status).toBe(200);
    const [update] = fake.callsTo(OPERATIONS.orderUpdate);
    expect(update.variables).toEqual({
      input: {
        id: order.id,
        shippingAddress: {
          firstName: "Asha",
          lastName: "Verma",
          phone: PHONE,
          address1: "Flat 12, Sunrise Apartments, 44 MG Road",
          address2: "Near City Mall",
          city: "Pune",
          province: "New South Wales",
          provinceCode: null,
          zip: "2000",
          countryCode: "AU",
        },
      },
    });
  });

  it("writes no province for a country without a list", async () => {
    later();
    store.shipsTo = ["IN", "FR"];
    const { token } = await requested();
    const nonce = nonceIn(await (await openForm(token)).text());
    const switched = await (await submitForm(token, { ...GOOD, countryCode: "FR", intent: "country", nonce })).text();
    expect(switched).not.toContain('id="province"');
    const saved = await submitForm(token, { ...GOOD, countryCode: "FR", province: "Maharashtra", zip: "75001", nonce: nonceIn(switched) });
    expect(saved.status).toBe(200);
    const [update] = fake.callsTo(OPERATIONS.orderUpdate);
    expect(update.variables).toMatchObject({ input: { shippingAddress: { provinceCode: null, countryCode: "FR", zip: "75001" } } });
    expect((update.variables as { input: { shippingAddress: Record<string, unknown> } }).input.shippingAddress).not.toHaveProperty("province");
  });
});

describe("POST /ac/:token", () => {
  it("re-renders invalid input with 422, messages tied to fields, focus on the first, and nothing typed lost", async () => {
    const { token } = await requested();
    const nonce = nonceIn(await (await openForm(token)).text());
    const typed = { ...GOOD, zip: "4110", address1: "12 <b>MG</b> Road", phone: "98765", nonce };
    const res = await submitForm(token, typed);
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toMatch(/id="phone"[^>]*aria-invalid="true"[^>]*aria-describedby="phone-hint phone-error"[^>]*autofocus/);
    expect(html).toMatch(/id="zip"[^>]*aria-invalid="true"/);
    expect(html).toContain(`id="zip-error"`);
    expect(html).not.toMatch(/id="zip"[^>]*autofocus/);
    expect(html).toMatch(/id="zip"[^>]*value="4110"/);
    expect(html).toContain(`value="12 &lt;b&gt;MG&lt;/b&gt; Road"`);
    expect(html).toMatch(/id="phone"[^>]*value="98765"/);
    expect(html).toContain(`role="alert"`);
    expect(fake.callsTo(OPERATIONS.orderUpdate)).toHaveLength(0);
  });

  it("updates the order's shipping address with the full address, tags it, keeps before/after and confirms", async () => {
    const { token, order } = await requested();
    const nonce = nonceIn(await (await openForm(token)).text());
    const res = await submitForm(token, { ...GOOD, nonce });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Thank you, your address is saved");
    expect(html).toContain("Flat 12, Sunrise Apartments, 44 MG Road");
    expect(html).toContain("Maharashtra, India");
    expect(html).toMatch(/<a href="\/">Back to [^<]+<\/a>/);

    const [update] = fake.callsTo(OPERATIONS.orderUpdate);
    expect(update.variables).toEqual({
      input: {
        id: order.id,
        shippingAddress: {
          firstName: "Asha",
          lastName: "Verma",
          phone: PHONE,
          address1: "Flat 12, Sunrise Apartments, 44 MG Road",
          address2: "Near City Mall",
          city: "Pune",
          provinceCode: "MH",
          zip: "411001",
          countryCode: "IN",
        },
      },
    });
    expect(store.get(order.id)!.tags).toEqual(["address-corrected"]);
    const row = await prisma.addressCorrection.findFirstOrThrow();
    expect(row.status).toBe("completed");
    expect(JSON.parse(row.before).zip).toBe("41100");
    expect(JSON.parse(row.after!).zip).toBe("411001");

    const again = await submitForm(token, { ...GOOD, nonce });
    expect(again.status).toBe(410);
    expect(await again.text()).toContain("already been used");
    // The link's holder coming back sees the address it saved, and the way back to the store.
    const revisit = await openForm(token);
    expect(revisit.status).toBe(410);
    const revisited = await revisit.text();
    expect(revisited).toContain("already been used");
    expect(revisited).toContain("Flat 12, Sunrise Apartments, 44 MG Road");
    expect(revisited).toMatch(/<a href="\/">Back to [^<]+<\/a>/);
    expect(fake.callsTo(OPERATIONS.orderUpdate)).toHaveLength(1);
  });

  it("refuses a post without the page's nonce (cross-site), even when signed", async () => {
    const { token } = await requested();
    const missing = await submitForm(token, GOOD);
    expect(missing.status).toBe(403);
    const forged = await submitForm(token, { ...GOOD, nonce: `${Math.floor(Date.now() / 1000)}.${"0".repeat(64)}` });
    expect(forged.status).toBe(403);
    const other = await requested({ phone: "+919811111111", customer: null, shippingAddress: null });
    const otherNonce = nonceIn(await (await openForm(other.token)).text());
    expect((await submitForm(token, { ...GOOD, nonce: otherNonce })).status).toBe(403);
    expect(fake.callsTo(OPERATIONS.orderUpdate)).toHaveLength(0);
    expect((await prisma.addressCorrection.findFirstOrThrow({ where: { tokenHash: hashToken(token) } })).status).toBe("pending");
  });

  it("for an order fulfilled meanwhile: a clear 409 page, the address kept and shown to the merchant on the order", async () => {
    const { token, order } = await requested();
    const nonce = nonceIn(await (await openForm(token)).text());
    store.get(order.id)!.displayFulfillmentStatus = "FULFILLED";
    const res = await submitForm(token, { ...GOOD, nonce });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("can no longer be changed");
    expect(fake.callsTo(OPERATIONS.orderUpdate)).toHaveLength(0);
    const row = await prisma.addressCorrection.findFirstOrThrow();
    expect(row).toMatchObject({ status: "not_editable", failure: "order_not_editable" });
    expect(JSON.parse(row.after!).address1).toBe(GOOD.address1);
    const saved = store.get(order.id)!;
    expect(saved.metafields[0]).toMatchObject({ namespace: "cod_verify", key: "requested_address" });
    expect(saved.metafields[0].value).toContain("44 MG Road");
    expect(saved.tags).toEqual(["address-correction-not-applied"]);
    expect(await jsonOf(await status(token))).toMatchObject({ status: "completed", orderUpdated: false });
  });

  it("shows Shopify's refusal of a field as a form error and keeps the link usable", async () => {
    const { token } = await requested();
    fake.on(OPERATIONS.orderUpdate, orderUpdateUserErrors(), "admin");
    const nonce = nonceIn(await (await openForm(token)).text());
    const res = await submitForm(token, { ...GOOD, nonce });
    expect(res.status).toBe(422);
    expect(await res.text()).toMatch(/id="zip"[^>]*aria-invalid="true"/);
    expect(await jsonOf(await status(token))).toMatchObject({ status: "pending" });
  });

  it("keeps what was typed and the link pending when Shopify is down (503)", async () => {
    const { token } = await requested();
    fake.on(OPERATIONS.orderUpdate, () => ({ status: 502 }), "admin");
    const nonce = nonceIn(await (await openForm(token)).text());
    const res = await submitForm(token, { ...GOOD, nonce });
    expect(res.status).toBe(503);
    expect(await res.text()).toMatch(/id="address1"[^>]*value="Flat 12, Sunrise Apartments, 44 MG Road"/);
    expect(await jsonOf(await status(token))).toMatchObject({ status: "pending" });
  });

  it("gives up on a Shopify that does not answer in time: 503, the form kept, the link still pending", async () => {
    const { shopifyCallLimits } = await import("~/core/shopify/graphql.server");
    vi.spyOn(shopifyCallLimits, "timeoutMs", "get").mockReturnValue(200);
    const { token } = await requested();
    // A late but successful answer: only the time limit can turn it into a 503.
    const update = store.orderUpdate();
    fake.on(OPERATIONS.orderUpdate, async (call) => ({ delayMs: 1000, then: await update(call) }), "admin");
    const nonce = nonceIn(await (await openForm(token)).text());
    const res = await submitForm(token, { ...GOOD, nonce });
    expect(res.status).toBe(503);
    expect(await jsonOf(await status(token))).toMatchObject({ status: "pending" });
  });

  it("applies one of two simultaneous submits; the other gets the used-link page", async () => {
    const { token } = await requested();
    const nonce = nonceIn(await (await openForm(token)).text());
    const results = await Promise.all([submitForm(token, { ...GOOD, nonce }), submitForm(token, { ...GOOD, address2: "Opposite the post office", nonce })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
    expect(fake.callsTo(OPERATIONS.orderUpdate)).toHaveLength(1);
  });
});

function watchAll() {
  const viaPrisma = watchQueries();
  const direct = watchDirectStatements();
  return {
    get queries() {
      return [...viaPrisma.queries, ...direct.statements];
    },
    stop: () => (viaPrisma.stop(), direct.stop()),
  };
}

describe("what the form costs the database", () => {
  it("one read to open the form once warm; a submit adds the claim and the completion", async () => {
    const { token } = await requested();
    const html = await (await openForm(token)).text(); // warms the session and shop caches
    // Prisma's queries and the direct statements (app/core/db/sql.server.ts) alike.
    const open = watchAll();
    expect((await openForm(token)).status).toBe(200);
    open.stop();
    expect(open.queries).toHaveLength(1);
    const submit = watchAll();
    expect((await submitForm(token, { ...GOOD, nonce: nonceIn(html) })).status).toBe(200);
    submit.stop();
    // The form's read, the claim, the completion, the dashboard's daily count of completed corrections,
    // and the Flow trigger's job (address corrected, sent by the worker: app/flow).
    const statements = submit.queries.filter((q) => !/^(BEGIN|COMMIT)/.test(q));
    expect(statements).toHaveLength(5);
    expect(statements.filter((q) => q.includes('INSERT INTO "DailyStat"'))).toHaveLength(1);
    expect(statements.filter((q) => q.includes('INSERT INTO "Job"'))).toHaveLength(1);
  });
});
