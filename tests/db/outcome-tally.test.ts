import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { databaseProvider, databaseUrl, prisma } from "~/core/db.server";
import { query, sql } from "~/core/db/sql.server";
import { orderCreatedPayload as orderSchema, type OrderCreated } from "~/core/shopify/webhook-payloads";
import { clock } from "~/core/utils/clock.server";
import { redactCustomer, redactShop } from "~/privacy/privacy.server";
import { deleteExpiredRecords } from "~/privacy/retention.server";
import { learnCarrierEvent, learnOrderOutcome, learnOrderUpdate, recordOrderOutcome, type OutcomeReason } from "~/risk/outcomes.server";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload } from "../helpers/webhooks";
import { ROOT } from "../setup/databases";

/**
 * OutcomeTally (orders/create's postal and shop history, app/risk/assess.server.ts) is kept by triggers on
 * OrderOutcome (migration 20261129122456_outcome_tally). Whatever writes the outcomes (the learn functions'
 * upserts, which move an order none -> delivered -> failed and back and change or clear its postal code; the
 * backfill; customers/redact; the retention job; shop/redact's cascade), the tallies must equal a fresh count of
 * OrderOutcome, with no row left for a count at 0, after every step and after a burst of concurrent writes.
 */
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(shopify));

type Tally = Record<string, { orders: number; failed: number }>;

/** The tallies as the triggers kept them, keyed `<shopId>|<postalCode>`. */
async function tallies(): Promise<Tally> {
  const rows = await query<{ shopId: string; postalCode: string; orders: unknown; failed: unknown }>(sql`SELECT "shopId", "postalCode", "orders", "failed" FROM "OutcomeTally"`);
  return Object.fromEntries(rows.map((r) => [`${r.shopId}|${r.postalCode}`, { orders: Number(r.orders), failed: Number(r.failed) }]));
}

/** The same counted afresh from OrderOutcome, as orders/create counted them before: orders = outcome <> 'none', failed = 'failed'. */
async function counted(): Promise<Tally> {
  const rows = await query<{ shopId: string; postalCode: string; orders: unknown; failed: unknown }>(sql`
    SELECT "shopId", '' AS "postalCode", COUNT(*) AS "orders", SUM(CASE WHEN "outcome" = 'failed' THEN 1 ELSE 0 END) AS "failed"
      FROM "OrderOutcome" WHERE "outcome" <> 'none' GROUP BY "shopId"
    UNION ALL
    SELECT "shopId", "postalCode", COUNT(*), SUM(CASE WHEN "outcome" = 'failed' THEN 1 ELSE 0 END)
      FROM "OrderOutcome" WHERE "outcome" <> 'none' AND "postalCode" IS NOT NULL GROUP BY "shopId", "postalCode"`);
  return Object.fromEntries(rows.map((r) => [`${r.shopId}|${r.postalCode}`, { orders: Number(r.orders), failed: Number(r.failed) }]));
}

/** A deterministic pseudo-random sequence (mulberry32), so a failing sequence can be run again from its seed. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] };
}

const PHONES = ["+919812345601", "+919812345602", "+919812345603"];
// Two areas (400, 110), one code of five characters (area 40), and orders without a postal code.
const ZIPS = ["400 001", "400002", "400-100", "110001", "40001", null];
const DOMAINS = ["tally-a.myshopify.com", "tally-b.myshopify.com"];
/** A test order as the webhook's door reads it (the learn functions' input). */
const asOrder = (body: Record<string, unknown>): OrderCreated => orderSchema.parse(body);

describe(`OutcomeTally on ${databaseProvider}`, () => {
  afterEach(() => vi.restoreAllMocks());

  const SEED = Number(process.env.TALLY_SEED ?? 20261129);
  it.each([SEED, SEED + 1, SEED + 2])("equals a fresh count of OrderOutcome after each step of a random sequence of the outcome writers, redactions and retention (seed %i)", async (seed) => {
    const start = new Date("2026-03-01T10:00:00Z").getTime();
    let now = start;
    vi.spyOn(clock, "now").mockImplementation(() => new Date(now));
    const shopIds: Record<string, string> = {};
    const install = async (domain: string) => {
      shopIds[domain] = (await installShop({ domain, riskFailureTags: "RTO", recordRetentionDays: 30 })).id;
    };
    for (const d of DOMAINS) await install(d);
    const rng = random(seed);
    const orders = DOMAINS.flatMap((domain) =>
      Array.from({ length: 8 }, () => ({ domain, phone: rng.pick(PHONES), zips: [rng.pick(ZIPS), rng.pick(ZIPS)], order: orderCreatedPayload() })),
    );
    const payload = (o: (typeof orders)[number], extra: Record<string, unknown> = {}) => {
      const zip = rng.pick(o.zips);
      return asOrder({ ...o.order, phone: o.phone, shipping_address: { first_name: "Asha", phone: o.phone, country_code: "IN", ...(zip ? { zip } : {}) }, ...extra });
    };
    const done: string[] = [];
    const steps: Record<string, () => Promise<unknown>> = {
      // The install's backfill of past orders.
      backfill: async () => {
        const o = rng.pick(orders);
        const failed = rng.next() < 0.4;
        const reason: OutcomeReason = failed ? rng.pick(["cancelled", "refunded", "tag:RTO"] as const) : "fulfilled";
        const stateAt = rng.next() < 0.5 ? new Date(now - rng.pick([0, 1, 5]) * 60_000) : null;
        const p = payload(o);
        return recordOrderOutcome(shopIds[o.domain], { gid: p.admin_graphql_api_id, phones: [o.phone], shippingAddress: p.shipping_address ?? null, isCod: true }, failed ? "failed" : "delivered", reason, new Date(now), stateAt);
      },
      fulfilled: async () => {
        const o = rng.pick(orders);
        return learnOrderOutcome(o.domain, payload(o, { fulfillment_status: "fulfilled" }), "delivered");
      },
      cancelled: async () => {
        const o = rng.pick(orders);
        return learnOrderOutcome(o.domain, payload(o, { cancelled_at: new Date(now).toISOString() }), "failed");
      },
      // orders/updated: a failure tag (RTO) or a whole refund, or a state without one (undoes a tag's failure: back to
      // delivered, or to none, which clears the row's phone and postal code); now and then an older state.
      updated: async () => {
        const o = rng.pick(orders);
        const state = rng.pick([{ tags: "RTO" }, { tags: "" }, { tags: "" }, { financial_status: "refunded" }]);
        const at = new Date(now - (rng.next() < 0.2 ? 3 * 86_400_000 : 0)).toISOString();
        return learnOrderUpdate(o.domain, payload(o, { ...state, updated_at: at }));
      },
      carrier: async () => {
        const o = rng.pick(orders);
        // A carrier's event names only the order: learnt for an order recorded as COD (orders/create's record) or learnt already.
        if (rng.next() < 0.5) {
          await prisma.orderRecord.upsert({
            where: { shopId_orderGid: { shopId: shopIds[o.domain], orderGid: o.order.admin_graphql_api_id } },
            create: { shopId: shopIds[o.domain], orderGid: o.order.admin_graphql_api_id, phone: o.phone, cod: true, status: "verified", placedAt: new Date(now) },
            update: {},
          });
        }
        return learnCarrierEvent(o.domain, { orderGid: o.order.admin_graphql_api_id, status: rng.pick(["delivered", "failure", "in_transit"]) });
      },
      customerRedact: async () => {
        const o = rng.pick(orders);
        return rng.next() < 0.5 ? redactCustomer(o.domain, o.phone, []) : redactCustomer(o.domain, null, [o.order.admin_graphql_api_id]);
      },
      retention: () => deleteExpiredRecords(new Date(now)),
      // shop/redact 48 hours after an uninstall (the Shop row's cascade), then the shop installs again.
      shopRedact: async () => {
        const domain = rng.pick(DOMAINS);
        await prisma.shop.update({ where: { domain }, data: { uninstalledAt: new Date(now - 49 * 3_600_000) } });
        expect(await redactShop(domain)).toMatchObject({ ok: true, shops: 1 });
        await install(domain);
      },
    };
    const weights: [keyof typeof steps, number][] = [["backfill", 6], ["fulfilled", 5], ["cancelled", 4], ["updated", 8], ["carrier", 5], ["customerRedact", 2], ["retention", 1], ["shopRedact", 1]];
    const bag = weights.flatMap(([name, w]) => Array<keyof typeof steps>(w).fill(name));
    const kinds = new Set<string>();
    let movedBack = false;
    for (let i = 0; i < 150; i++) {
      now += Math.floor(rng.next() * 3 * 86_400_000);
      const name = rng.pick(bag);
      await steps[name]();
      done.push(name);
      kinds.add(name);
      expect(await tallies(), `after step ${i} (${done.slice(-5).join(", ")})`).toEqual(await counted());
      movedBack ||= (await prisma.orderOutcome.count({ where: { outcome: "none" } })) > 0;
    }
    // The sequence did what it is for: every writer ran, and some learnt outcome went back to none (an undone tag).
    expect([...kinds].sort()).toEqual(weights.map(([n]) => n).sort());
    expect(movedBack).toBe(true);
  }, 120_000);

  it("stays exact through a burst of 50 outcome writes at once on the same orders (and on PostgreSQL, a second pool's updates and deletes beside them)", async () => {
    const shop = await installShop({ domain: "tally-burst.myshopify.com", riskFailureTags: "RTO" });
    const zips = ["400001", "400002", "110001"];
    const orders = Array.from({ length: 10 }, (_, i) => orderCreatedPayload({ phone: PHONES[i % 3], shipping_address: { first_name: "Asha", country_code: "IN", zip: zips[i % 3] } }));
    // Known to the shop already (the webhooks' ownership check asks Shopify only once per order).
    for (const o of orders) await learnOrderOutcome(shop.domain, asOrder({ ...o, fulfillment_status: "fulfilled" }), "delivered");
    const writes: (() => Promise<unknown>)[] = Array.from({ length: 50 }, (_, i) => {
      const o = orders[i % orders.length];
      const at = new Date(Date.UTC(2026, 2, 1, 10, i)).toISOString();
      return [
        () => learnOrderOutcome(shop.domain, asOrder({ ...o, cancelled_at: at }), "failed"),
        () => learnOrderUpdate(shop.domain, asOrder({ ...o, tags: "RTO", updated_at: at })),
        () => learnOrderUpdate(shop.domain, asOrder({ ...o, tags: "", updated_at: at })),
        () => learnCarrierEvent(shop.domain, { orderGid: o.admin_graphql_api_id, status: "delivered" }),
        () => learnOrderUpdate(shop.domain, asOrder({ ...o, tags: "", updated_at: at, shipping_address: { ...o.shipping_address, zip: zips[(i + 1) % 3] } })),
      ][i % 5];
    });
    let other: pg.Pool | null = null;
    if (databaseProvider === "postgresql") {
      // Another writer than the app's statements, each in a transaction of its own that holds its locks a moment.
      other = new pg.Pool({ connectionString: databaseUrl, max: 5 });
      const pool = other;
      for (const [i, o] of orders.entries()) {
        writes.push(async () => {
          const client = await pool.connect();
          try {
            await client.query("BEGIN");
            if (i % 3 === 0) await client.query(`DELETE FROM "OrderOutcome" WHERE "shopId" = $1 AND "orderGid" = $2`, [shop.id, o.admin_graphql_api_id]);
            else await client.query(`UPDATE "OrderOutcome" SET "outcome" = $3, "postalCode" = $4 WHERE "shopId" = $1 AND "orderGid" = $2`, [shop.id, o.admin_graphql_api_id, i % 2 ? "failed" : "none", i % 2 ? "400009" : null]);
            await client.query("SELECT pg_sleep(0.01)");
            await client.query("COMMIT");
          } finally {
            client.release();
          }
        });
      }
    }
    try {
      const results = await Promise.allSettled(writes.map((w) => w()));
      expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    } finally {
      await other?.end();
    }
    const after = await counted();
    expect(Object.keys(after).length).toBeGreaterThan(1);
    expect(await tallies()).toEqual(after);
  }, 60_000);

  it("is back-filled by its migration from the outcomes already learnt (the engine's own copy of the statement)", async () => {
    const shops = [await installShop({ domain: "tally-fill-a.myshopify.com" }), await installShop({ domain: "tally-fill-b.myshopify.com" })];
    const outcomes = ["delivered", "failed", "none", "delivered"];
    await prisma.orderOutcome.createMany({
      data: Array.from({ length: 40 }, (_, i) => ({ shopId: shops[i % 2].id, orderGid: `gid://shopify/Order/${700 + i}`, postalCode: ZIPS[i % ZIPS.length]?.replace(/\D/g, "") ?? null, outcome: outcomes[i % 4], decidedAt: new Date() })),
    });
    const expected = await counted();
    const file = path.join(ROOT, "prisma", ...(databaseProvider === "postgresql" ? ["postgresql"] : []), "migrations", "20261129122456_outcome_tally", "migration.sql");
    const backfill = fs.readFileSync(file, "utf8").split("-- The tallies of the outcomes already learnt.\n")[1];
    await prisma.$executeRawUnsafe(`DELETE FROM "OutcomeTally"`);
    await prisma.$executeRawUnsafe(backfill);
    expect(Object.keys(expected).length).toBeGreaterThan(4);
    expect(await tallies()).toEqual(expected);
  });

  it("is read by orders/create's facts: a postal code's, its area's and the shop's counts, the same as counting the outcomes", async () => {
    const shop = await installShop({ domain: "tally-read.myshopify.com" });
    const rows = [
      ["400001", "failed"],
      ["400001", "delivered"],
      ["400002", "failed"],
      ["400100", "delivered"],
      ["401000", "failed"], // another area
      [null, "failed"], // the shop's only
      ["400001", "none"], // nothing learnt
    ] as const;
    await prisma.orderOutcome.createMany({
      data: rows.map(([postalCode, outcome], i) => ({ shopId: shop.id, orderGid: `gid://shopify/Order/${900 + i}`, postalCode, outcome, decidedAt: new Date() })),
    });
    const { orderRiskColumns } = await import("~/risk/assess.server");
    const [row] = await query<Record<string, unknown>>(sql`SELECT ${orderRiskColumns(shop.id, { phones: [], gid: "gid://shopify/Order/1", browserIp: null, shippingAddress: { zip: "400 001" } })}`);
    const figures = ["postalOrders", "postalFailed", "areaOrders", "areaFailed", "shopOrders", "shopFailed"].map((k) => Number(row[k]));
    expect(figures).toEqual([2, 1, 4, 2, 6, 4]);
  });
});
