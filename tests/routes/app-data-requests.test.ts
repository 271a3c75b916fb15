import * as dataRequest from "~/routes/webhooks.customers.data_request";
import * as page from "~/routes/app.data-requests";
import * as download from "~/routes/app.data-requests.$id.download";
import { prisma } from "~/core/db.server";
import { forgetShop } from "~/core/settings/shop.server";
import { markPhoneVerified } from "~/otp/verified-phones.server";
import { shopDayStart } from "~/shared/shop-day";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { callRoute } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";

/**
 * customers/data_request reaches the merchant: each request Shopify sends is stored once (however often
 * it is delivered, even at once), listed on the Data requests page, readable there and downloadable as JSON.
 */
const PHONE = "+212600000003";
const ORDER = "9007199254740993001";

const payload = (opts: { dataRequestId?: number | null; phone?: string | null; shop?: string } = {}) =>
  `{"shop_id":954889,"shop_domain":"${opts.shop ?? SHOP}","orders_requested":[${ORDER}],"customer":{"id":191167,"email":"john@example.com","phone":${
    opts.phone === null ? "null" : `"${opts.phone ?? "+212 600-000003"}"`
  }},"data_request":${opts.dataRequestId === null ? "null" : `{"id":${opts.dataRequestId ?? 9999}}`}}`;

const deliver = (rawBody: string, webhookId?: string, shop?: string) => callRoute(dataRequest, signedWebhook("customers/data_request", null, { rawBody, webhookId, shop }));

async function shopWithCustomer() {
  const shop = await installShop();
  await markPhoneVerified(shop.id, PHONE);
  await prisma.selection.create({ data: { shopId: shop.id, phone: PHONE, mode: "cod", verified: true, source: "verify-otp", orderGid: `gid://shopify/Order/${ORDER}`, orderName: "#1001" } });
  await prisma.messageDelivery.create({ data: { shopId: shop.id, phone: PHONE, purpose: "otp", channel: "sms", status: "delivered" } });
  return shop;
}

type Listed = { total: number; requests: { id: string; customer: { email: string | null; phone: string | null; id: string | null }; records: number; orders: number }[]; chosen: null | { id: string; report: Record<string, unknown[]> }; missing: boolean };
const load = async (query = "", shop?: string) => callAdminRoute<Listed>(page, await adminRequest(`/app/data-requests${query}`, { shop }));

async function downloadOf(id: string, options: Parameters<typeof adminRequest>[1] = {}) {
  const request = await adminRequest(`/app/data-requests/${id}/download`, options);
  try {
    return await download.loader({ request, params: { id }, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("customers/data_request stores one report per request", () => {
  it("stores the report with the request's customer; redeliveries and a retry under a new delivery id add nothing", async () => {
    const shop = await shopWithCustomer();
    expect((await deliver(payload(), "d1")).status).toBe(200);
    expect((await deliver(payload(), "d1")).status).toBe(200); // the same delivery again
    expect((await deliver(payload(), "d2")).status).toBe(200); // Shopify's retry: a new delivery id, the same request
    const rows = await prisma.dataRequestReport.findMany({ where: { shopId: shop.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ requestKey: "dr:9999", customerId: "191167", customerEmail: "john@example.com", customerPhone: PHONE });
    const report = JSON.parse(rows[0].report);
    expect(report).toMatchObject({ verifiedMarks: [{ phone: PHONE }], selections: [{ orderGid: `gid://shopify/Order/${ORDER}` }], messages: [{ purpose: "otp", status: "delivered" }] });
  });

  it("makes one report of ten deliveries of the same request arriving at once", async () => {
    const shop = await shopWithCustomer();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => deliver(payload({ dataRequestId: 4242 }), `c${i}`)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(await prisma.dataRequestReport.count({ where: { shopId: shop.id } })).toBe(1);
  });

  it("keeps two requests of the same customer apart, and keys a request without an id by its delivery", async () => {
    const shop = await shopWithCustomer();
    await deliver(payload({ dataRequestId: 1 }));
    await deliver(payload({ dataRequestId: 2 }));
    await deliver(payload({ dataRequestId: null, phone: null }), "no-id");
    await deliver(payload({ dataRequestId: null, phone: null }), "no-id");
    const keys = (await prisma.dataRequestReport.findMany({ where: { shopId: shop.id }, orderBy: { requestKey: "asc" } })).map((r) => r.requestKey);
    expect(keys).toEqual(["dr:1", "dr:2", expect.stringMatching(/^wh:CUSTOMERS_DATA_REQUEST:event-no-id:/)]);
  });

  it("stores nothing for a shop the app does not know, and still answers 200", async () => {
    await installShop();
    expect((await deliver(payload({ shop: "stranger.myshopify.com" }), undefined, "stranger.myshopify.com")).status).toBe(200);
    expect(await prisma.dataRequestReport.count()).toBe(0);
  });
});

describe("the Data requests page", () => {
  it("lists the requests with their customer and what was found, and shows one report on screen", async () => {
    await shopWithCustomer();
    await deliver(payload());
    const listed = (await load()).data!;
    expect(listed).toMatchObject({ total: 1, chosen: null, missing: false });
    expect(listed.requests).toEqual([
      expect.objectContaining({ customer: { id: "191167", email: "john@example.com", phone: PHONE }, orders: 1, records: 3 }),
    ]);
    const shown = (await load(`?id=${listed.requests[0].id}`)).data!;
    expect(shown.chosen).toMatchObject({ id: listed.requests[0].id, report: { verifiedMarks: [{ phone: PHONE }] } });
  });

  it("never shows another shop's report", async () => {
    await shopWithCustomer();
    await installShop({ domain: "other-shop.myshopify.com" });
    await deliver(payload());
    const [row] = await prisma.dataRequestReport.findMany();
    const other = (await load(`?id=${row.id}`, "other-shop.myshopify.com")).data!;
    expect(other).toMatchObject({ total: 0, chosen: null, missing: true });
    const refused = await downloadOf(row.id, { shop: "other-shop.myshopify.com" });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ code: "not_found" });
  });

  it("downloads a report as a JSON file, for the shop's admin only", async () => {
    await shopWithCustomer();
    await deliver(payload());
    const [row] = await prisma.dataRequestReport.findMany();
    const file = await downloadOf(row.id);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toMatch(/^application\/json/);
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="cod-verify-data-request-\d{4}-\d\d-\d\d-customer-191167\.json"$/);
    expect(await file.json()).toMatchObject({
      app: "COD Verify",
      customer: { id: "191167", email: "john@example.com", phone: PHONE },
      ordersRequested: [ORDER],
      data: { verifiedMarks: [{ phone: PHONE }], messages: [{ purpose: "otp" }] },
    });
    expect((await downloadOf(row.id, { unauthenticated: true })).status).not.toBe(200);
    expect((await downloadOf(row.id, { secret: "forged" })).status).not.toBe(200);
  });

  it("names the file for the day the request came, the shop's day, on either side of its midnight from UTC-12:00 to UTC+14:00", async () => {
    const shop = await shopWithCustomer();
    await deliver(payload());
    const [row] = await prisma.dataRequestReport.findMany();
    const named: string[] = [];
    for (const zone of ["Etc/GMT+12", "Pacific/Marquesas", "America/St_Johns", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Eucla", "Pacific/Chatham", "Pacific/Kiritimati"]) {
      await prisma.shop.update({ where: { id: shop.id }, data: { timezone: zone } });
      forgetShop(SHOP);
      for (const second of [-1, 0]) {
        await prisma.dataRequestReport.update({ where: { id: row.id }, data: { createdAt: new Date(shopDayStart("2026-12-01", zone).getTime() + second * 1000) } });
        named.push(/data-request-([\d-]{10})-/.exec((await downloadOf(row.id)).headers.get("content-disposition") ?? "")?.[1] ?? "none");
      }
    }
    expect(named).toEqual(Array(8).fill(["2026-11-30", "2026-12-01"]).flat());
  });
});
