import pg from "pg";
import { inject } from "vitest";
import { postSigned, startServer, type RunningServer } from "../helpers/server";
import { readOutbox } from "../helpers/outbox";
import { createScratchPostgresDatabase } from "../setup/databases";

/**
 * One pending address correction per order holds across app instances: two built servers (local
 * mode, each with its own fake Shopify holding order #1001) share one PostgreSQL database and take a
 * burst of requests for that order between them. Needs the build and the postgres suite.
 */
describe("address-correction requests for one order on two app instances", () => {
  let a: RunningServer;
  let b: RunningServer;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createScratchPostgresDatabase(inject("runId"), "ac2");
    a = await startServer({ DATABASE_URL: databaseUrl, NODE_ENV: "development" });
    b = await startServer({ DATABASE_URL: databaseUrl, NODE_ENV: "development" }, { migrate: false });
  }, 60_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it("a double click, one request to each instance, ten times: one link texted and one pending row each time", async () => {
    const orderId = "gid://shopify/Order/1001";
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      for (let round = 0; round < 10; round++) {
        // A fresh start for the order: no correction and no counted requests (3 per order a day).
        await client.query(`DELETE FROM "AddressCorrection"`);
        await client.query(`DELETE FROM "RateCounter"`);
        const texts = readOutbox(a.dataDir).length + readOutbox(b.dataDir).length;
        const responses = await Promise.all([a, b].map((server) => postSigned(server, "/api/address-correction.request", { orderId })));
        expect(responses.map((r) => r.status)).toEqual([200, 200]);
        const bodies = await Promise.all(responses.map(async (r) => (await r.json()) as { status: string }));
        expect(bodies.map((x) => x.status).sort()).toEqual(["already_pending", "sent"]);
        expect(readOutbox(a.dataDir).length + readOutbox(b.dataDir).length - texts).toBe(1);
        const { rows } = await client.query(`SELECT "status" FROM "AddressCorrection" WHERE "orderGid" = $1`, [orderId]);
        expect(rows).toEqual([{ status: "pending" }]);
      }
    } finally {
      await client.end();
    }
  });

  it("20 concurrent requests, split across the instances: one link texted, one pending row", async () => {
    const orderId = "gid://shopify/Order/1001";
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DELETE FROM "AddressCorrection"`);
    await client.query(`DELETE FROM "RateCounter"`);
    const texts = readOutbox(a.dataDir).length + readOutbox(b.dataDir).length;
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => postSigned(i % 2 ? a : b, "/api/address-correction.request", { orderId })));
    const answers = await Promise.all(responses.map(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> })));
    const outcomes = answers.map((x) => (x.status === 200 ? String(x.body.status) : String(x.body.code)));
    // The per-order limit (3 a day, counted in the shared database) lets three through; one of those wins.
    expect(outcomes.filter((o) => o === "sent")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "already_pending")).toHaveLength(2);
    expect(outcomes.filter((o) => o === "rate_limited")).toHaveLength(17);
    expect(readOutbox(a.dataDir).length + readOutbox(b.dataDir).length - texts).toBe(1);
    const { rows } = await client.query(`SELECT "status" FROM "AddressCorrection" WHERE "orderGid" = $1`, [orderId]);
    await client.end();
    expect(rows).toEqual([{ status: "pending" }]);
  });
});
