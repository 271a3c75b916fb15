import * as route from "~/routes/app.orders";
import { prisma } from "~/db.server";
import { ORDERS_PAGE_SIZE } from "~/orders/order-record.server";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { installShop, SHOP } from "../helpers/shops";

type Orders = {
  status: string | null;
  total: number;
  page: number;
  pages: number;
  counts: Record<string, number>;
  orders: { gid: string; name: string; adminUrl: string | null; status: string; mode: string | null; cod: boolean; phone: string | null; correction: string }[];
};
const load = async (query = "") => callAdminRoute<Orders>(route, await adminRequest(`/app/orders${query}`));

describe("the Orders page", () => {
  it("lists the shop's orders newest first with status, payment, phone, correction state and the link into Shopify's admin; filters by status", async () => {
    const shop = await installShop();
    const other = await installShop({ domain: "other-shop.myshopify.com" });
    const base = Date.now();
    const record = (shopId: string, n: number, status: string, extra: Record<string, unknown> = {}) =>
      prisma.orderRecord.create({
        data: { shopId, orderGid: `gid://shopify/Order/${n}`, orderName: `#${n}`, phone: "+212600000001", mode: "cod", cod: true, status, placedAt: new Date(base - n * 1000), ...extra },
      });
    await record(shop.id, 1, "pending");
    await record(shop.id, 2, "verified", { mode: "prepaid", cod: false });
    await record(shop.id, 3, "verified");
    await record(other.id, 4, "verified");
    await prisma.addressCorrection.create({
      data: { shopId: shop.id, orderGid: "gid://shopify/Order/3", phone: "+212600000001", tokenHash: "h", source: "auto", before: "{}", expiresAt: new Date(base + 3600_000) },
    });

    const all = (await load()).data!;
    expect(all.total).toBe(3);
    expect(all.counts).toEqual({ pending: 1, verified: 2 });
    expect(all.orders.map((o) => [o.name, o.status, o.correction])).toEqual([
      ["#1", "pending", "none"],
      ["#2", "verified", "none"],
      ["#3", "verified", "pending"],
    ]);
    expect(all.orders[0].adminUrl).toBe(`https://admin.shopify.com/store/${SHOP.replace(".myshopify.com", "")}/orders/1`);

    const verified = (await load("?status=verified")).data!;
    expect(verified).toMatchObject({ status: "verified", total: 2 });
    expect(verified.orders.map((o) => o.name)).toEqual(["#2", "#3"]);
    // An unknown status is no filter.
    expect((await load("?status=everything")).data).toMatchObject({ status: null, total: 3 });
  });

  it("pages by the page size", async () => {
    const shop = await installShop();
    await prisma.orderRecord.createMany({
      data: Array.from({ length: ORDERS_PAGE_SIZE + 1 }, (_, i) => ({
        shopId: shop.id,
        orderGid: `gid://shopify/Order/${i + 1}`,
        cod: true,
        status: "unverified",
        placedAt: new Date(Date.now() - i * 1000),
      })),
    });
    expect((await load()).data).toMatchObject({ pages: 2, page: 1 });
    const last = (await load("?page=2")).data!;
    expect(last.orders.map((o) => o.name)).toEqual([`#${ORDERS_PAGE_SIZE + 1}`]);
  });

  it("refuses a request without a session token", async () => {
    await installShop();
    expect((await callAdminRoute(route, await adminRequest("/app/orders", { unauthenticated: true }))).status).toBe(302);
  });
});
