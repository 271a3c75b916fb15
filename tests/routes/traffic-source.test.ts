import * as createCheckout from "~/routes/proxy.create-checkout";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * Where the shopper came from (docs/traffic-source.md), through the real routes: create-checkout puts the
 * modal's first touch on the cart it builds (`_cod_source`), orders/create keeps it (or Shopify's own
 * landing page) on the order's record, and the merchant's "prepaid only for this source" rule refuses COD.
 */
const PHONE = "+919812345678";
const twilio = useFakeTwilio();
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(shopify));

const post = (route: typeof createCheckout | typeof sendOtp | typeof verifyOtp, path: string, body: Record<string, unknown>) =>
  callRoute(route, signedRequest(path, { method: "POST", body }));

async function verifiedProof() {
  expect((await post(sendOtp, "/send-otp", { phone: PHONE })).status).toBe(200);
  const verified = await post(verifyOtp, "/verify-otp", { phone: PHONE, otp: twilio.twilio.codeFor(PHONE), selectedMode: "cod" });
  expect(verified.status).toBe(200);
  return (await jsonOf(verified)).proof as string;
}

async function placeOrder(overrides: Record<string, unknown>) {
  const order = orderCreatedPayload({ phone: PHONE, shipping_address: { first_name: "Ravi", phone: PHONE, zip: "560001", country_code: "IN" }, ...overrides });
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  return prisma.orderRecord.findFirstOrThrow({ where: { orderGid: order.admin_graphql_api_id } });
}

describe("create-checkout", () => {
  it("puts the first touch on the cart as _cod_source, cleaned", async () => {
    await installShop();
    const proof = await verifiedProof();
    const answer = await post(createCheckout, "/create-checkout", { phone: PHONE, selectedMode: "cod", variantId: "1", proof, source: "utm_source=Facebook&utm_medium=CPC&utm_campaign=Diwali&ref=m.facebook.com" });
    expect(answer.status).toBe(200);
    const [cart] = shopify.callsTo(OPERATIONS.cartCreate);
    const attributes = (cart.variables.input as { attributes: { key: string; value: string }[] }).attributes;
    expect(attributes).toContainEqual({ key: "_cod_source", value: "utm_source=facebook&utm_medium=cpc&utm_campaign=diwali&ref=m.facebook.com" });
  });

  it("a request without a source, or with one that is not a string, builds the cart as before / is refused with a clear error", async () => {
    await installShop();
    const proof = await verifiedProof();
    expect((await post(createCheckout, "/create-checkout", { phone: PHONE, selectedMode: "cod", variantId: "1", proof })).status).toBe(200);
    const [cart] = shopify.callsTo(OPERATIONS.cartCreate);
    expect((cart.variables.input as { attributes: { key: string }[] }).attributes.map((a) => a.key)).not.toContain("_cod_source");
    const bad = await post(createCheckout, "/create-checkout", { phone: PHONE, selectedMode: "cod", variantId: "1", proof, source: { utm_source: "x" } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await jsonOf(bad))).toMatch(/"code":"invalid_request".*"source"/);
  });

  it("refuses cod to a shopper from a prepaid-only source (403 cod_not_allowed, source_prepaid_only); prepaid goes through", async () => {
    await installShop({ riskPrepaidSources: "facebook/cpc" });
    const proof = await verifiedProof();
    const refused = await post(createCheckout, "/create-checkout", { phone: PHONE, selectedMode: "cod", variantId: "1", proof, source: "utm_source=facebook&utm_medium=cpc" });
    expect(refused.status).toBe(403);
    expect(await jsonOf(refused)).toMatchObject({ code: "cod_not_allowed", risk: { band: "high", reasons: [expect.objectContaining({ code: "source_prepaid_only" })] } });
    expect((await post(createCheckout, "/create-checkout", { phone: PHONE, selectedMode: "prepaid", variantId: "1", proof, source: "utm_source=facebook&utm_medium=cpc" })).status).toBe(200);
    // Another medium of the same source is not on the list.
    expect((await post(createCheckout, "/create-checkout", { phone: PHONE, selectedMode: "cod", variantId: "1", proof, source: "utm_source=facebook&utm_medium=email" })).status).toBe(200);
  });
});

describe("orders/create", () => {
  it("keeps the cart's _cod_source on the order's record", async () => {
    await installShop();
    const record = await placeOrder({ note_attributes: [{ name: "_cod_source", value: "utm_source=instagram&utm_medium=story&utm_campaign=launch" }] });
    expect(record).toMatchObject({ trafficSource: "instagram", trafficMedium: "story", trafficCampaign: "launch" });
  });

  it("without it, reads Shopify's own landing page and referring site; the store's own domain is no referrer", async () => {
    await installShop({ primaryDomain: "shop.example.in" });
    expect(await placeOrder({ landing_site: "/products/kurta?utm_source=google&utm_medium=cpc", referring_site: "https://www.google.com/" })).toMatchObject({
      trafficSource: "google",
      trafficMedium: "cpc",
      trafficCampaign: null,
    });
    expect(await placeOrder({ landing_site: "/", referring_site: "https://shop.example.in/collections/all" })).toMatchObject({ trafficSource: "direct" });
    expect(await placeOrder({ landing_site: null, referring_site: null })).toMatchObject({ trafficSource: null });
  });

  it("a COD order from a prepaid-only source is high risk, with the rule's reason first", async () => {
    await installShop({ riskPrepaidSources: "facebook" });
    const record = await placeOrder({ note_attributes: [{ name: "_cod_source", value: "utm_source=facebook&utm_medium=cpc" }] });
    expect(record).toMatchObject({ cod: true, riskBand: "high" });
    expect(JSON.parse(record.riskReasons!)).toMatchObject({ rule: { code: "source_prepaid_only" } });
  });
});
