import { databaseProvider, driver, prisma } from "~/core/db.server";
import { query, sql, type Sql } from "~/core/db/sql.server";
import { claimStatement } from "~/core/jobs/queue.server";
import { selectionByPhone, selectionByToken } from "~/orders/link.server";
import { usualCodValues } from "~/risk/assess.server";
import { installShop } from "../helpers/shops";

/**
 * Statements run for every order and every background job read tables that only grow (finished jobs are kept
 * 30 days, orders and selections for as long as the shop keeps them). Each must read the index of the rows it
 * can use (the claim and the usual COD value a partial one), on both engines, with the table's statistics
 * gathered or not: a plan that walks the kept rows costs more with every order (on PostgreSQL, 2 ms per claim
 * after 3,600 jobs, measured by `npm run bench`).
 */
const KEPT = 3_000;

async function plan(statement: Sql): Promise<string> {
  if (databaseProvider === "sqlite") {
    const rows = await query<{ detail: string }>(sql`EXPLAIN QUERY PLAN ${statement}`);
    return rows.map((r) => r.detail).join("\n");
  }
  const rows = await query<{ "QUERY PLAN": string }>(sql`EXPLAIN ${statement}`);
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
}

/**
 * PostgreSQL's generic plan of a statement (what a named prepared statement runs after its fifth execution, for
 * every value): `PREPARE` and `EXPLAIN EXECUTE` on one connection with `plan_cache_mode = force_generic_plan`.
 */
async function genericPlan(statement: Sql): Promise<string> {
  if (driver.provider !== "postgresql") throw new Error("PostgreSQL's");
  const client = await driver.pool.connect();
  try {
    await client.query("SET plan_cache_mode = force_generic_plan");
    await client.query(`PREPARE growing AS ${statement.text}`);
    // EXECUTE takes its values as literals (a statement with parameters cannot be EXPLAINed with bound ones).
    const args = statement.values.map((v) => (v === null ? "NULL" : client.escapeLiteral(v instanceof Date ? v.toISOString() : String(v)))).join(", ");
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN EXECUTE growing(${args})`);
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  } finally {
    // The session was changed (a setting, a prepared statement): the connection leaves the pool instead of going
    // back. Undoing it there (DEALLOCATE ALL) would also drop the app's named statements, which the pool's
    // client would still believe prepared.
    client.release(true);
  }
}

async function analyze() {
  await prisma.$executeRawUnsafe(databaseProvider === "sqlite" ? "ANALYZE" : 'ANALYZE "Job", "OrderRecord", "Selection"');
}

describe(`growing tables on ${databaseProvider}`, () => {
  it("the job worker's claim reads the pending jobs' index, with 3,000 finished jobs kept", async () => {
    const now = new Date("2026-03-01T10:00:00Z");
    const finished = Array.from({ length: KEPT }, (_, i) => ({
      id: `done-${i}`,
      kind: "order-tags",
      key: `done-${i}`,
      shop: "kept.myshopify.com",
      payload: "{}",
      nextAttemptAt: new Date(now.getTime() - 3_600_000 + i),
      doneAt: now,
    }));
    await prisma.job.createMany({ data: finished });
    await prisma.job.create({ data: { id: "due", kind: "order-tags", key: "due", shop: "kept.myshopify.com", payload: "{}", nextAttemptAt: now } });
    const claim = claimStatement(["order-tags", "flow.trigger"], now);

    for (const stats of ["before statistics", "after ANALYZE"]) {
      if (stats === "after ANALYZE") await analyze();
      const read = await plan(claim);
      expect(read, `${stats}:\n${read}`).toContain("Job_pending_nextAttemptAt_idx");
      expect(read, `${stats}:\n${read}`).not.toMatch(/Seq Scan on "Job"|SCAN Job\b|TEMP B-TREE/);
    }
    // And it claims the one due job among them.
    const [claimed] = await query<{ id: string }>(claim);
    expect(claimed?.id).toBe("due");
  });

  it("the risk score's usual COD values read the partial index of COD orders with a value, with 3,000 orders without one", async () => {
    const shop = await installShop();
    const placed = new Date("2026-03-01T10:00:00Z");
    await prisma.orderRecord.createMany({
      data: Array.from({ length: KEPT }, (_, i) => ({
        shopId: shop.id,
        orderGid: `gid://shopify/Order/${i + 1}`,
        cod: true,
        status: "pending",
        placedAt: new Date(placed.getTime() + i * 1000),
      })),
    });
    await prisma.orderRecord.create({ data: { shopId: shop.id, orderGid: "gid://shopify/Order/valued", cod: true, status: "pending", placedAt: placed, value: 42.5 } });
    const usual = sql`SELECT ${usualCodValues(shop.id)} AS "usual"`;

    for (const stats of ["before statistics", "after ANALYZE"]) {
      if (stats === "after ANALYZE") await analyze();
      const read = await plan(usual);
      expect(read, `${stats}:\n${read}`).toContain("OrderRecord_cod_value_placedAt_idx");
    }
    const [row] = await query<{ usual: string | null }>(usual);
    expect(row.usual).toBe("42.5");
  });

  it("orders/create finds the shopper's selection by phone and by cart token through their own indexes, with 3,000 selections made that day", async () => {
    const shop = await installShop();
    const placed = new Date("2026-03-01T10:00:00Z");
    await prisma.selection.createMany({
      data: Array.from({ length: KEPT }, (_, i) => ({
        id: `sel-${i}`,
        shopId: shop.id,
        phone: `+1212555${String(i).padStart(4, "0")}`,
        mode: "cod",
        source: "verify-otp",
        cartToken: `cart-${i}`,
        createdAt: new Date(placed.getTime() - 3_600_000 + i * 1000),
        updatedAt: placed,
      })),
    });
    const byPhone = sql`SELECT ${selectionByPhone(shop.id, ["+12125550042"], placed)} AS "id"`;
    const byToken = sql`SELECT ${selectionByToken(shop.id, ["cart-43"])} AS "id"`;

    // Each of the order's numbers (four, repeated when fewer) and cart tokens (two) is its own read of its index,
    // newest first: one IN (...) list left the planner a near tie with walking the day's selections backwards by
    // creation time, which PostgreSQL's generic plan (a named statement's after its fifth run) took in the bench
    // with statistics gathered (1,532 buffers for a phone with no selection). SQLite is told which index to read,
    // so with no statistics too; PostgreSQL before any statistics ties the two indexes and relies on autovacuum's.
    const reads = (plan: string, index: string) => plan.split(`"${index}"`).length - 1;
    for (const stats of databaseProvider === "sqlite" ? ["before statistics", "after ANALYZE"] : ["after ANALYZE"]) {
      if (stats === "after ANALYZE") await analyze();
      const plans = [await plan(byPhone), await plan(byToken)];
      if (databaseProvider === "postgresql") plans.push(await genericPlan(byPhone), await genericPlan(byToken));
      plans.forEach((read, i) => {
        const [index, branches] = i % 2 === 0 ? ["Selection_shopId_phone_createdAt_idx", 4] : ["Selection_shopId_cartToken_idx", 2];
        const named = databaseProvider === "sqlite" ? read.replace(/INDEX (\w+)/g, 'INDEX "$1"') : read;
        expect(reads(named, index), `${stats}:\n${read}`).toBe(branches);
        expect(read, `${stats}:\n${read}`).not.toMatch(/Selection_shopId_createdAt_idx|Seq Scan on "Selection"|SCAN Selection\b/);
      });
    }
    expect((await query<{ id: string }>(byPhone))[0].id).toBe("sel-42");
    expect((await query<{ id: string }>(byToken))[0].id).toBe("sel-43");
  });
});
