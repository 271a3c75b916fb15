import * as route from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import { recordSelection } from "~/otp/selection.server";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/** orders/create keeps one OrderRecord per order: what the admin's Orders page and dashboard read. */
const PHONE = "+212600000077";
const fake = useFakeShopify();
beforeEach(() => handlers.installDefaultHandlers(fake, {}, new Map()));

const deliver = (payload: unknown) => callRoute(route, signedWebhook("orders/create", payload));

describe("orders/create: the order's record", () => {
  it("records a COD order verified through its selection, with its mode, phone and the order's own time", async () => {
    const shop = await installShop();
    const selection = await recordSelection({ shopId: shop.id, phone: PHONE, mode: "cod", source: "verify-otp", verified: true });
    const placedAt = new Date(Date.now() - 60_000);
    const order = orderCreatedPayload({
      phone: PHONE,
      created_at: placedAt.toISOString(),
      note_attributes: [{ name: "_cod_selection", value: selection.id }],
    });
    expect((await deliver(order)).status).toBe(200);
    const record = await prisma.orderRecord.findUniqueOrThrow({ where: { shopId_orderGid: { shopId: shop.id, orderGid: order.admin_graphql_api_id } } });
    expect(record).toMatchObject({ orderName: order.name, phone: PHONE, mode: "cod", cod: true, status: "verified", verifiedBy: "selection" });
    expect(record.placedAt.getTime()).toBe(Math.floor(placedAt.getTime()));
  });

  it("records an unverified COD order as unverified when the shop does not verify after purchase, and a prepaid order with no selection as not COD", async () => {
    const shop = await installShop({ otpEnabled: false });
    const cod = orderCreatedPayload({ phone: PHONE });
    const card = orderCreatedPayload({ phone: "+212600000078", gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] });
    expect((await deliver(cod)).status).toBe(200);
    expect((await deliver(card)).status).toBe(200);
    const rows = await prisma.orderRecord.findMany({ where: { shopId: shop.id }, orderBy: { orderGid: "asc" } });
    expect(rows.map((r) => [r.orderGid, r.status, r.cod, r.mode])).toEqual([
      [cod.admin_graphql_api_id, "unverified", true, null],
      [card.admin_graphql_api_id, "unverified", false, null],
    ]);
  });

  it("keeps one record per order when Shopify delivers it again, and an order with no phone has none", async () => {
    const shop = await installShop({ otpEnabled: false });
    const order = orderCreatedPayload();
    expect((await deliver(order)).status).toBe(200);
    expect((await deliver({ ...order })).status).toBe(200);
    const rows = await prisma.orderRecord.findMany({ where: { shopId: shop.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ phone: null, status: "unverified" });
  });

  it("is removed by customers/redact with the customer's other records", async () => {
    const { redactCustomer } = await import("~/privacy/privacy.server");
    const { customerDataReport } = await import("~/privacy/customer-records.server");
    const shop = await installShop({ otpEnabled: false });
    const order = orderCreatedPayload({ phone: PHONE });
    await deliver(order);
    const report = await customerDataReport(shop.domain, PHONE, []);
    expect(report.orders).toEqual([expect.objectContaining({ orderGid: order.admin_graphql_api_id, phone: PHONE, status: "unverified" })]);
    await redactCustomer(shop.domain, PHONE, []);
    expect(await prisma.orderRecord.count()).toBe(0);
  });
});
