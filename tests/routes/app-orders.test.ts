import * as route from "~/routes/app.orders";
import { prisma } from "~/core/db.server";
import { ORDERS_PAGE_SIZE } from "~/orders/order-record.server";
import { ORDER_COUNT_CAP, orderCountWords } from "~/shared/order-status";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as sendOtp from "~/routes/proxy.send-otp";
import { runDueJobs } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import * as handlers from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { aroundShopMidnight, ZONES_FAR_FROM_UTC } from "../helpers/shop-midnight";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";
import { JOB_KINDS } from "~/server-build";

type Orders = {
  days: number | null;
  periodWords: string;
  timeZone: string;
  status: string | null;
  total: number;
  page: number;
  pages: number;
  counts: Record<string, number>;
  orders: {
    gid: string;
    name: string;
    adminUrl: string | null;
    appBridgeUrl: string | null;
    status: string;
    mode: string | null;
    cod: boolean;
    phone: string | null;
    blocked: boolean;
    blockedHere: boolean;
    placedAt: string;
    placed: string;
    correction: string;
    deposit: { deposit: number; balance: number; currency: string; state: string; summary: string } | null;
  }[];
};
const load = async (query = "") => callAdminRoute<Orders>(route, await adminRequest(`/app/orders${query}`));

describe("the Orders page", () => {
  it("uses one period for every figure: the counts of the filter, the total and the rows; times in the store's time zone", async () => {
    const shop = await installShop({ timezone: "Asia/Kolkata" });
    const now = Date.now();
    const record = (n: number, status: string, daysAgo: number) =>
      prisma.orderRecord.create({
        data: { shopId: shop.id, orderGid: `gid://shopify/Order/${n}`, orderName: `#${n}`, mode: "cod", cod: true, status, placedAt: new Date(now - daysAgo * 86_400_000) },
      });
    await record(1, "pending", 1);
    await record(2, "verified", 3);
    await record(3, "verified", 20);
    await record(4, "unconfirmed", 60);
    await record(5, "verified", 200);

    const all = (await load()).data!;
    expect(all).toMatchObject({ days: null, total: 5, counts: { pending: 1, verified: 3, unconfirmed: 1 }, periodWords: "since the app was installed", timeZone: "Asia/Kolkata" });
    const week = (await load("?days=7")).data!;
    expect(week).toMatchObject({ days: 7, total: 2, counts: { pending: 1, verified: 1 }, periodWords: "placed in the last 7 days" });
    expect(week.orders.map((o) => o.name)).toEqual(["#1", "#2"]);
    const month = (await load("?days=30&status=verified")).data!;
    expect(month).toMatchObject({ days: 30, total: 2, counts: { pending: 1, verified: 2 } });
    expect(month.orders.map((o) => o.name)).toEqual(["#2", "#3"]);
    // A period the page does not offer is every order.
    expect((await load("?days=5")).data!).toMatchObject({ days: null, total: 5 });
    // The time as the store reads it, formatted on the server.
    const first = week.orders[0];
    expect(first.placed).toBe(
      new Intl.DateTimeFormat("en", { timeZone: "Asia/Kolkata", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(first.placedAt)),
    );
  });

  it("counts each status up to 10,000 (a year's orders are not read on each view), and pages that far", async () => {
    const shop = await installShop();
    const now = Date.now();
    const row = (n: number, status: string) => ({ shopId: shop.id, orderGid: `gid://shopify/Order/${n}`, orderName: `#${n}`, cod: true, status, placedAt: new Date(now - n * 1000) });
    await prisma.orderRecord.createMany({ data: Array.from({ length: ORDER_COUNT_CAP + 5 }, (_, n) => row(n, "verified")) });
    await prisma.orderRecord.createMany({ data: [row(ORDER_COUNT_CAP + 10, "pending"), row(ORDER_COUNT_CAP + 11, "pending")] });
    const all = (await load()).data!;
    expect(all).toMatchObject({ total: ORDER_COUNT_CAP, pages: ORDER_COUNT_CAP / ORDERS_PAGE_SIZE, counts: { verified: ORDER_COUNT_CAP, pending: 2 } });
    expect((await load("?status=pending")).data!).toMatchObject({ total: 2, pages: 1 });
    expect(orderCountWords(all.counts.verified)).toBe("10,000+");
    expect(orderCountWords(2)).toBe("2");
  });

  it.each(ZONES_FAR_FROM_UTC)(
    "%s: the last 7 days are the shop's, today and the 6 before from the first one's midnight, at both sides of the shop's midnight",
    async (zone) => {
      const shop = await installShop({ timezone: zone });
      const edges = aroundShopMidnight(zone, "2026-11-24", "2026-11-25");
      for (const [n, placedAt] of [...edges.instants, edges.midnight - 120_000].entries()) {
        await prisma.orderRecord.create({ data: { shopId: shop.id, orderGid: `gid://shopify/Order/${n}`, orderName: `#${n}`, mode: "cod", cod: true, status: "verified", placedAt: new Date(placedAt) } });
      }
      vi.spyOn(clock, "now").mockReturnValue(edges.before);
      expect((await load("?days=7")).data!.orders.map((o) => o.name)).toEqual(["#4", "#3", "#2", "#1"]);
      vi.spyOn(clock, "now").mockReturnValue(edges.after);
      const after = (await load("?days=7")).data!;
      expect(after).toMatchObject({ total: 2, counts: { verified: 2 } });
      expect(after.orders.map((o) => o.name)).toEqual(["#4", "#3"]);
    },
  );

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

describe("the Orders page's actions", () => {
  const PHONE = "+212600000077";
  const shopify = useFakeShopify();
  const twilio = useFakeTwilio();
  beforeEach(() => {
    const tagged = new Map<string, Set<string>>();
    handlers.installDefaultHandlers(shopify, {}, tagged);
    new FakeEnforcementStore(tagged).install(shopify);
  });
  afterEach(() => vi.restoreAllMocks());

  const post = async (form: Record<string, string>) => callAdminRoute<Record<string, unknown>>(route, await adminRequest("/app/orders", { form }));
  /** An unverified COD order through orders/create, as Shopify sends it: pending confirmation, the shopper texted a link. */
  async function placeUnverifiedOrder() {
    const order = orderCreatedPayload({ phone: PHONE, customer: { id: 90, admin_graphql_api_id: "gid://shopify/Customer/90", phone: PHONE, tags: "" } });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
    await runDueJobs(JOB_KINDS);
    await runDueJobs(JOB_KINDS);
    return order;
  }
  const links = () => twilio.twilio.messages.filter((m) => m.to === PHONE && /\/vc\//.test(m.body)).map((m) => m.body);
  const later = (ms: number) => vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + ms));

  it("each row can open the order in Shopify's admin, through App Bridge and without it", async () => {
    await installShop();
    const order = await placeUnverifiedOrder();
    const [row] = (await load()).data!.orders;
    const id = order.admin_graphql_api_id.split("/").at(-1);
    expect(row).toMatchObject({ gid: order.admin_graphql_api_id, appBridgeUrl: `shopify:admin/orders/${id}`, adminUrl: `https://admin.shopify.com/store/test-shop/orders/${id}`, blocked: false });
  });

  it("'block this number' blocks the order's phone: the row says so and send-otp refuses the number", async () => {
    const shop = await installShop();
    const order = await placeUnverifiedOrder();
    expect(await post({ intent: "block", orderGid: order.admin_graphql_api_id })).toMatchObject({ status: 200, data: { intent: "block", ok: true, phone: PHONE, orderName: order.name } });
    expect(await prisma.blockedPhone.findMany({ where: { shopId: shop.id }, select: { phone: true, reason: true } })).toEqual([{ phone: PHONE, reason: `Blocked from order ${order.name}` }]);
    expect((await load()).data!.orders[0]).toMatchObject({ blocked: true });
    const sent = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: JSON.stringify({ phone: PHONE }) }));
    expect(sent.status).toBe(403);
    expect(await jsonOf(sent)).toMatchObject({ code: "phone_blocked" });
  });

  it("a block from the row is undone from the row; a block made on the Blocked numbers page is not", async () => {
    const shop = await installShop();
    const order = await placeUnverifiedOrder();
    expect(await post({ intent: "block", orderGid: order.admin_graphql_api_id })).toMatchObject({ status: 200 });
    expect((await load()).data!.orders[0]).toMatchObject({ blocked: true, blockedHere: true });
    expect(await post({ intent: "unblock", orderGid: order.admin_graphql_api_id })).toMatchObject({ status: 200, data: { intent: "unblock", ok: true, phone: PHONE, orderName: order.name } });
    expect(await prisma.blockedPhone.count({ where: { shopId: shop.id } })).toBe(0);
    expect((await load()).data!.orders[0]).toMatchObject({ blocked: false, blockedHere: false });
    // Twice: nothing left to undo.
    expect(await post({ intent: "unblock", orderGid: order.admin_graphql_api_id })).toMatchObject({ status: 409, data: { ok: false, code: "not_blocked_here" } });

    // Blocked by the merchant with a reason of their own: the row shows it blocked, offers no undo, and an undo posted anyway leaves it.
    await prisma.blockedPhone.create({ data: { shopId: shop.id, phone: PHONE, reason: "Refused three parcels" } });
    expect((await load()).data!.orders[0]).toMatchObject({ blocked: true, blockedHere: false });
    expect(await post({ intent: "unblock", orderGid: order.admin_graphql_api_id })).toMatchObject({ status: 409, data: { ok: false, code: "not_blocked_here" } });
    expect(await prisma.blockedPhone.findMany({ where: { shopId: shop.id }, select: { reason: true } })).toEqual([{ reason: "Refused three parcels" }]);
  });

  it("'resend the confirmation' texts the same link once however often it is clicked, not within a minute of the last, and only while pending", async () => {
    await installShop();
    const order = await placeUnverifiedOrder();
    expect(links()).toHaveLength(1);
    // Just texted: a resend now would be a second text within seconds.
    expect(await post({ intent: "resend", orderGid: order.admin_graphql_api_id })).toMatchObject({ status: 409, data: { ok: false, code: "recently_sent" } });

    later(5 * 60_000);
    const clicks = await Promise.all([1, 2, 3].map(() => post({ intent: "resend", orderGid: order.admin_graphql_api_id })));
    expect(clicks.filter((c) => c.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(clicks[0].data).toMatchObject({ intent: "resend", ok: true, phone: PHONE });
    await runDueJobs(JOB_KINDS);
    await runDueJobs(JOB_KINDS);
    expect(links()).toHaveLength(2);
    expect(links()[1]).toBe(links()[0]);
    expect(await prisma.job.count({ where: { kind: "order-confirmation.notify" } })).toBe(1);

    // Past the deadline the order is no longer waiting: nothing is sent.
    later(25 * 3600_000);
    expect(await post({ intent: "resend", orderGid: order.admin_graphql_api_id })).toMatchObject({ status: 409, data: { ok: false, code: "not_pending" } });
    await runDueJobs(JOB_KINDS);
    expect(links()).toHaveLength(2);
  });

  it("refuses an order of another shop, an unknown order and a malformed request, changing nothing", async () => {
    await installShop();
    const other = await installShop({ domain: "other-shop.myshopify.com" });
    await prisma.orderRecord.create({ data: { shopId: other.id, orderGid: "gid://shopify/Order/99", phone: PHONE, cod: true, status: "pending", placedAt: new Date() } });
    expect(await post({ intent: "block", orderGid: "gid://shopify/Order/99" })).toMatchObject({ status: 404, data: { ok: false, code: "order_not_found" } });
    expect(await post({ intent: "resend", orderGid: "gid://shopify/Order/99" })).toMatchObject({ status: 404, data: { ok: false, code: "order_not_found" } });
    expect(await post({ intent: "block", orderGid: "+212600000077" })).toMatchObject({ status: 400, data: { ok: false, code: "invalid_request" } });
    expect(await post({ intent: "delete", orderGid: "gid://shopify/Order/99" })).toMatchObject({ status: 400 });
    expect(await prisma.blockedPhone.count()).toBe(0);
  });

  it("an order without a phone cannot be blocked or resent", async () => {
    const shop = await installShop();
    await prisma.orderRecord.create({ data: { shopId: shop.id, orderGid: "gid://shopify/Order/5", cod: true, status: "unverified", placedAt: new Date() } });
    expect(await post({ intent: "block", orderGid: "gid://shopify/Order/5" })).toMatchObject({ status: 409, data: { ok: false, code: "no_phone" } });
    expect(await post({ intent: "resend", orderGid: "gid://shopify/Order/5" })).toMatchObject({ status: 409, data: { ok: false, code: "not_pending" } });
  });
});

describe("the Orders page: partial orders paid with a deposit code", () => {
  it("says the deposit paid and the balance to collect, in the order's currency, or that the order is held while the balance is missing", async () => {
    const shop = await installShop({ depositsAvailable: false });
    const base = Date.now();
    const partial = async (n: number, currency: string, extra: Record<string, unknown>) => {
      const orderGid = `gid://shopify/Order/${n}`;
      await prisma.orderRecord.create({ data: { shopId: shop.id, orderGid, orderName: `#${n}`, phone: "+212600000001", mode: "partial", cod: false, status: "verified", placedAt: new Date(base - n * 1000) } });
      await prisma.selection.create({
        data: { shopId: shop.id, phone: "+212600000001", mode: "partial", source: "create-checkout", orderGid, depositCode: `CODV-DEP-${n}`, depositAmount: 10, balanceAmount: 40, depositCurrency: currency, ...extra },
      });
    };
    await partial(1, "USD", { balanceAddedAt: new Date() });
    await partial(2, "JPY", { balanceHeldAt: new Date() });
    await partial(3, "EUR", {});
    await prisma.orderRecord.create({ data: { shopId: shop.id, orderGid: "gid://shopify/Order/4", orderName: "#4", phone: null, mode: "cod", cod: true, status: "verified", placedAt: new Date(base - 4000) } });

    const { orders } = (await load()).data!;
    expect(orders.map((o) => o.deposit?.summary ?? null)).toEqual([
      "Deposit $10.00 paid · $40.00 to collect on delivery",
      "Deposit ¥10 paid · balance ¥40 not on the order yet: held, do not ship",
      "Deposit €10.00 paid · adding the balance €40.00",
      null,
    ]);
  });
});
