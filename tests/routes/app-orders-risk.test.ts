import * as route from "~/routes/app.orders";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import * as handlers from "../mocks/shopify/handlers";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/** The Orders page shows each COD order's risk score, band and reasons in words (docs/risk.md). */
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(shopify));

type Row = { name: string; risk: { score: number; band: string; reasons: string[] } | null };
const load = async () => (await callAdminRoute<{ orders: Row[] }>(route, await adminRequest("/app/orders"))).data!.orders;

describe("/app/orders: the risk column", () => {
  it("shows a COD order's score, band and reasons (the merchant's rule first, no points), and nothing for an order not paid on delivery", async () => {
    const shop = await installShop({ riskDeniedPostalCodes: "400001" });
    const address = { first_name: "Asha", phone: "+919812345678", address1: "Flat 12, Shanti Apartments, MG Road", city: "Mumbai", province: "Maharashtra", zip: "400001", country_code: "IN" };
    const cod = orderCreatedPayload({ name: "#11", phone: "+919812345678", shipping_address: address });
    const card = orderCreatedPayload({ name: "#12", phone: "+919812345678", gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"], created_at: new Date(Date.now() + 1000).toISOString() });
    for (const o of [cod, card]) expect((await callRoute(ordersCreate, signedWebhook("orders/create", o))).status).toBe(200);
    const rows = await load();
    expect(rows.find((r) => r.name === "#11")?.risk).toEqual({
      score: 35,
      band: "high",
      reasons: [
        "The shop does not deliver cash on delivery to this postal code.",
        "The phone number was not confirmed with a code.",
        "First order from this phone number in this shop.",
      ],
    });
    expect(rows.find((r) => r.name === "#12")?.risk).toBeNull();
    // A record whose reasons are unreadable still shows its score and band.
    await prisma.orderRecord.updateMany({ where: { shopId: shop.id, orderGid: cod.admin_graphql_api_id }, data: { riskReasons: "not json" } });
    expect((await load()).find((r) => r.name === "#11")?.risk).toEqual({ score: 35, band: "high", reasons: [] });
  });
});
