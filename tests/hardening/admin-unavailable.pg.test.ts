import { getJwt } from "@shopify/shopify-api/test-helpers";
import pg from "pg";
import { inject } from "vitest";
import { createScratchPostgresDatabase, POSTGRES_ADMIN_URL } from "../setup/databases";
import { startServer, type RunningServer } from "../helpers/server";
import { DEMO_SHOP } from "./requests";
import { startTcpProxy } from "./tcp-proxy";

/**
 * The merchant's admin while PostgreSQL is unreachable (a TCP proxy the test cuts and restores), on
 * the production server: the admin's own error state with 503 and Retry-After instead of a 500 page,
 * and the page works again once the database is back, with no restart.
 */
describe("the admin while the database is down", () => {
  let databaseUrl: string;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let server: RunningServer;

  beforeAll(async () => {
    databaseUrl = await createScratchPostgresDatabase(inject("runId"), `adminDown${Date.now() % 100000}`);
    const target = new URL(databaseUrl);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(databaseUrl);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    server = await startServer({ DATABASE_URL: viaProxy.toString() });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    await proxy?.stop();
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${new URL(databaseUrl).pathname.slice(1)}" WITH (FORCE)`);
    await admin.end();
  });

  /** The admin's home as Shopify's admin opens it in its iframe: embedded, with a fresh session token. */
  async function openAdmin() {
    const { token } = await getJwt(DEMO_SHOP.replace(".myshopify.com", ""), "local-dev-api-key", "local-dev-api-secret");
    const host = Buffer.from(`admin.shopify.com/store/${DEMO_SHOP.replace(".myshopify.com", "")}`).toString("base64url");
    const res = await fetch(`${server.url}/app?embedded=1&shop=${DEMO_SHOP}&host=${host}&id_token=${token}`, {
      redirect: "manual",
      // The library answers 410 to bots, and isbot counts fetch's own user agent as one.
      headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36" },
    });
    return { status: res.status, retryAfter: res.headers.get("retry-after"), type: res.headers.get("content-type") ?? "", html: await res.text() };
  }

  it("answers the admin's error state with 503 and Retry-After, then the page again once the database is back", async () => {
    const before = await openAdmin();
    expect(before.status).toBe(200);
    expect(before.html).toMatch(/Home/);

    await proxy.cut();
    const down = await openAdmin();
    expect(down.status).toBe(503);
    expect(Number(down.retryAfter)).toBeGreaterThan(0);
    expect(down.type).toMatch(/text\/html/);
    expect(down.html).toMatch(/COD Verify is briefly unavailable/);
    expect(down.html).toMatch(/Polaris-Banner/);
    expect(down.html).not.toMatch(/Unexpected Server Error|prisma|node_modules/i);
    expect(server.output()).not.toMatch(/"level":"error"/);

    // The job worker sweeps every 5 s in the production server: at least one sweep meets the cut (it
    // once logged "job worker sweep failed: read ECONNRESET" at error level, at random). A cut is an
    // outage, not a fault: no error line, and one warning for the whole outage, requests and sweeps alike.
    await new Promise((r) => setTimeout(r, 6_000));
    expect((await openAdmin()).status).toBe(503);
    const duringCut = server.output();
    expect(duringCut).not.toMatch(/"level":"error"/);
    expect(duringCut.match(/"level":"warn"[^\n]*database unavailable/g) ?? []).toHaveLength(1);

    await proxy.restore();
    let after = await openAdmin();
    for (let i = 0; i < 20 && after.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 500));
      after = await openAdmin();
    }
    expect(after.status).toBe(200);
    expect(after.html).not.toMatch(/briefly unavailable/);
    expect(server.process.exitCode).toBeNull();
    expect(server.output()).not.toMatch(/"level":"error"/);
  }, 90_000);
});
