import { maybeRequestCorrectionForNewOrder, type NewOrderToCheck } from "~/address-correction/auto-check.server";
import { prisma } from "~/core/db.server";
import { lastCorrectionLink, readOutbox, useOutbox } from "../helpers/correction-sms";
import { installShop } from "../helpers/shops";
import { useFakeShopify } from "../helpers/fake-shopify";
import { installDefaultHandlers } from "../mocks/shopify/handlers";

const outbox = useOutbox();
// The webhook's tag worker talks to Shopify: give it the fake's default answers.
const fake = useFakeShopify();
beforeEach(() => installDefaultHandlers(fake));

/** An orders/create payload (REST shape) as Shopify sends it. */
function payload(address: Partial<NonNullable<NewOrderToCheck["shipping_address"]>> = {}): NewOrderToCheck {
  return {
    admin_graphql_api_id: "gid://shopify/Order/820982911946154508",
    name: "#1001",
    phone: null,
    cancelled_at: null,
    closed_at: null,
    fulfillment_status: null,
    customer: { phone: "+919876543210" },
    shipping_address: {
      first_name: "Asha",
      last_name: "Verma",
      phone: "+91 98765 43210",
      address1: "MG Road",
      address2: null,
      city: "Pune",
      province: "Maharashtra",
      province_code: "MH",
      zip: "411001",
      country_code: "IN",
      ...address,
    },
  };
}

describe("maybeRequestCorrectionForNewOrder (the orders/create hook)", () => {
  it("does nothing unless the shop turned automatic requests on", async () => {
    const shop = await installShop();
    expect(await maybeRequestCorrectionForNewOrder(shop, payload())).toEqual({ requested: false, reason: "disabled" });
    expect(readOutbox(outbox.dir)).toEqual([]);
  });

  it("requests a correction for an address without a house number, with no extra Admin call", async () => {
    const shop = await installShop({ autoAddressCorrection: true, locale: "hi" });
    const result = await maybeRequestCorrectionForNewOrder(shop, payload());
    expect(result).toMatchObject({ requested: true, check: "missing_house_number", outcome: { ok: true, status: "sent" } });
    const row = await prisma.addressCorrection.findFirstOrThrow();
    expect(row).toMatchObject({ orderGid: "gid://shopify/Order/820982911946154508", source: "auto", reason: "missing_house_number", locale: "hi" });
    expect(JSON.parse(row.before)).toMatchObject({ address1: "MG Road", province: "MH", zip: "411001" });
    const sms = readOutbox(outbox.dir)[0];
    expect(sms.to).toBe("+919876543210");
    expect(sms.body).toContain("डिलीवरी पता");
    expect(lastCorrectionLink(outbox.dir, "+919876543210").token).toHaveLength(32);
  });

  it("requests one for a postal code of the wrong pattern, and none for a good address or none at all", async () => {
    const shop = await installShop({ autoAddressCorrection: true });
    expect(await maybeRequestCorrectionForNewOrder(shop, payload({ address1: "44 MG Road" }))).toEqual({ requested: false, reason: "address_ok" });
    const bad = await maybeRequestCorrectionForNewOrder(shop, payload({ address1: "44 MG Road", zip: "41100" }));
    expect(bad).toMatchObject({ requested: true, check: "invalid_postal_code" });
    expect(await maybeRequestCorrectionForNewOrder(shop, { ...payload(), shipping_address: null })).toEqual({
      requested: false,
      reason: "no_shipping_address",
    });
  });
});

describe("the new order's own fields decide, with no Admin call", () => {
  it("an order already shipped, cancelled or closed keeps its address; one without a phone has no one to text", async () => {
    const shop = await installShop({ autoAddressCorrection: true });
    for (const changed of [{ fulfillment_status: "partial" }, { fulfillment_status: "fulfilled" }, { cancelled_at: "2026-11-23T10:00:00Z" }, { closed_at: "2026-11-23T10:00:00Z" }]) {
      expect(await maybeRequestCorrectionForNewOrder(shop, { ...payload(), ...changed })).toMatchObject({ requested: true, outcome: { ok: false, code: "order_not_editable" } });
    }
    const silent = { ...payload({ phone: null }), customer: { phone: null } };
    expect(await maybeRequestCorrectionForNewOrder(shop, silent)).toMatchObject({ requested: true, outcome: { ok: false, code: "order_has_no_phone" } });
    // The order's own phone comes first, then the shipping address's.
    await maybeRequestCorrectionForNewOrder(shop, { ...payload(), phone: "+919812345678" });
    expect(readOutbox(outbox.dir).map((m) => m.to)).toEqual(["+919812345678"]);
    expect(fake.calls).toHaveLength(0);
  });
});

describe("orders/create delivers to the hook", () => {
  it("answers the webhook, then texts a correction link for a suspect address when the shop turned it on", async () => {
    const route = await import("~/routes/webhooks.orders.create");
    const { runDueJobs } = await import("~/core/jobs/queue.server");
    const { JOB_KINDS } = await import("~/server-build");
    const automaticRequestsSettled = () => runDueJobs(JOB_KINDS);
    const { signedWebhook, orderCreatedPayload } = await import("../helpers/webhooks");
    const { callRoute } = await import("../helpers/proxy");
    await installShop({ autoAddressCorrection: true });
    const order = orderCreatedPayload({
      phone: "+212600000002",
      shipping_address: { first_name: "Amina", last_name: "B", address1: "Rue des Fleurs", city: "Casablanca", zip: "20000", country_code: "MA", phone: null },
    });
    const res = await callRoute(route, signedWebhook("orders/create", order));
    expect(res.status).toBe(200);
    await automaticRequestsSettled();
    // (The unverified COD order is also texted its confirmation link, /vc/: verification after purchase.)
    const corrections = () => readOutbox(outbox.dir).filter((m) => /\/ac\//.test(m.body));
    expect(corrections().map((m) => m.to)).toEqual(["+212600000002"]);
    expect(await prisma.addressCorrection.findFirstOrThrow()).toMatchObject({
      orderGid: order.admin_graphql_api_id,
      source: "auto",
      reason: "missing_house_number",
    });

    // A redelivery of the same order, or a good address, sends nothing more.
    await callRoute(route, signedWebhook("orders/create", order));
    await callRoute(route, signedWebhook("orders/create", orderCreatedPayload({ phone: "+212600000003", shipping_address: { address1: "12 Rue des Fleurs", zip: "20000", country_code: "MA" } })));
    await automaticRequestsSettled();
    expect(corrections()).toHaveLength(1);

  });
});
