import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { createScratchPostgresDatabase, POSTGRES_ADMIN_URL } from "../setup/databases";
import { startServer, type RunningServer } from "../helpers/server";
import { signedProxyUrl, signedWebhookInit } from "./requests";
import { startTcpProxy } from "./tcp-proxy";

/**
 * Faults under load, on PostgreSQL behind a TCP proxy the test cuts and restores:
 *   the database unreachable mid-load: every answer is 200 or 503 `unavailable` with Retry-After,
 *     each within a bounded time; the app recovers without a restart;
 *   SIGTERM with requests in flight: they finish, the process exits 0;
 * and in both, every verification, selection, webhook delivery and tag job that was answered 200
 * is in the database afterwards.
 */

type Result = { what: string; status: number; ms: number; code?: string; retryAfter?: string | null };

const BOUND_MS = 12_000; // connection attempts time out after 5 s, queries after 10 s

describe("faults under load on PostgreSQL", () => {
  let databaseUrl: string;
  let direct: pg.Client;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;

  beforeAll(async () => {
    databaseUrl = await createScratchPostgresDatabase(inject("runId"), `faults${crypto.randomBytes(3).toString("hex")}`);
    const target = new URL(databaseUrl);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    direct = new pg.Client({ connectionString: databaseUrl });
    await direct.connect();
  });
  afterAll(async () => {
    await direct?.end();
    await proxy?.stop();
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${new URL(databaseUrl).pathname.slice(1)}" WITH (FORCE)`);
    await admin.end();
  });

  const viaProxy = () => {
    const url = new URL(databaseUrl);
    url.host = `127.0.0.1:${proxy.port}`;
    return url.toString();
  };

  /** Shoppers and Shopify at once: send a code, verify it (a selection), and deliver orders/create. */
  function load(server: RunningServer, stopAt: () => boolean, firstPhone: number) {
    // The load comes from one place (one IP, one block of numbers): the shop's daily cap is raised so the
    // per-place shares of it (2 % each) do not refuse this test's own traffic.
    const capRaised = direct.query(`UPDATE "Shop" SET "dailySendCap" = 1000000`);
    const results: Result[] = [];
    const verified: string[] = [];
    const texted: string[] = [];
    const deliveries: { id: string; orderGid: string; phone: string }[] = [];
    let n = 0;
    const timed = async (what: string, run: () => Promise<Response>) => {
      const started = Date.now();
      try {
        const res = await run();
        const body = res.status === 200 && what !== "send-otp" && what !== "verify-otp" ? {} : await res.json().catch(() => ({}));
        const r: Result = { what, status: res.status, ms: Date.now() - started, code: body.code, retryAfter: res.headers.get("retry-after") };
        results.push(r);
        return { res, body };
      } catch (error) {
        // The server closing a connection during SIGTERM is allowed only for requests it never accepted.
        results.push({ what, status: 0, ms: Date.now() - started, code: String((error as Error).cause ?? error) });
        return null;
      }
    };
    const post = (p: string, body: unknown) =>
      fetch(signedProxyUrl(server.url, p), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    const worker = async (w: number) => {
      while (!stopAt()) {
        // Numbers no earlier test verified (a returning customer would skip the code), one per iteration of any
        // worker: a number sent again within the resend cooldown is refused 429, as it should be.
        const phone = `+1415${String(firstPhone + n++).padStart(7, "0")}`;
        const sent = await timed("send-otp", () => post("/send-otp", { phone }));
        if (sent?.res.status === 200 && sent.body.success && !sent.body.skipped) {
          texted.push(phone);
          const code = codeFor(server, phone);
          const checked = await timed("verify-otp", () => post("/verify-otp", { phone, otp: code, selectedMode: "cod", cartToken: `ct-${phone}` }));
          if (checked?.res.status === 200) verified.push(phone);
        }
        const id = crypto.randomUUID();
        const orderId = 820982911946154500n + BigInt(n * 10 + w);
        const orderGid = `gid://shopify/Order/${orderId}`;
        const raw = `{"id":${orderId},"admin_graphql_api_id":"${orderGid}","name":"#${n}","phone":"${phone}","gateway":"Cash on Delivery (COD)","payment_gateway_names":["Cash on Delivery (COD)"],"note_attributes":[],"tags":""}`;
        const init = signedWebhookInit("orders/create", raw, { "x-shopify-webhook-id": id, "x-shopify-shop-domain": "demo-shop.myshopify.com" });
        const delivered = await timed("orders/create", () => fetch(`${server.url}/webhooks/orders/create`, init));
        if (delivered?.res.status === 200) deliveries.push({ id, orderGid, phone });
      }
    };
    return { results, verified, texted, deliveries, run: async () => (await capRaised, Promise.all([0, 1, 2].map(worker))) };
  }

  function codeFor(server: RunningServer, phone: string): string {
    const lines = fs.readFileSync(path.join(server.dataDir, "outbox.jsonl"), "utf8").trim().split("\n");
    const line = lines.reverse().find((l) => l.includes(`"to":"${phone}"`));
    return /\b(\d{6})\b/.exec(JSON.parse(line!).body)![1];
  }

  async function expectNothingLost(l: ReturnType<typeof load>) {
    // A code that went out has its delivery record (written before the send), cut or no cut.
    for (const phone of l.texted) {
      const m = await direct.query(`SELECT 1 FROM "MessageDelivery" WHERE phone = $1 AND purpose = 'otp'`, [phone]);
      expect(m.rowCount, `message record ${phone}`).toBe(1);
    }
    for (const phone of l.verified) {
      const v = await direct.query(`SELECT 1 FROM "VerifiedCustomer" WHERE phone = $1`, [phone]);
      expect(v.rowCount, `verified ${phone}`).toBe(1);
      const s = await direct.query(`SELECT 1 FROM "Selection" WHERE phone = $1 AND verified`, [phone]);
      expect(s.rowCount, `selection ${phone}`).toBeGreaterThan(0);
    }
    for (const d of l.deliveries) {
      // Recorded under its event (app/http/webhook.server.ts deliveryKey: topic, event id, body digest).
      const w = await direct.query(`SELECT 1 FROM "WebhookDelivery" WHERE id LIKE $1`, [`ORDERS_CREATE:event-${d.id}:%`]);
      expect(w.rowCount, `delivery ${d.id}`).toBe(1);
      // A COD order is always tagged (cod-verified or cod-unverified): its tag job must exist.
      const j = await direct.query(`SELECT 1 FROM "Job" WHERE kind = 'order-tags' AND key = $1`, [`demo-shop.myshopify.com|${d.orderGid}`]);
      expect(j.rowCount, `tag job ${d.orderGid}`).toBe(1);
    }
  }

  it("PostgreSQL unreachable mid-load: 200 or 503 unavailable with Retry-After, each within a bound; recovery without a restart; nothing accepted is lost", async () => {
    const server = await startServer({ DATABASE_URL: viaProxy() });
    try {
      let phase: "before" | "cut" | "after" = "before";
      let stop = false;
      const l = load(server, () => stop, 5550000);
      const running = l.run();
      await new Promise((r) => setTimeout(r, 2_000));
      await proxy.cut();
      phase = "cut";
      const cutAt = l.results.length;
      // 8 s: longer than a connection attempt's 5 s bound, so every waiting request and sweep fails within the cut.
      await new Promise((r) => setTimeout(r, 8_000));
      await proxy.restore();
      phase = "after";
      // Recovers by itself: ping answers 200 again within seconds, with no restart.
      const deadline = Date.now() + 15_000;
      let ping = 0;
      while (Date.now() < deadline && (ping = (await fetch(`${server.url}/proxy/api/auth/ping`)).status) !== 200) await new Promise((r) => setTimeout(r, 250));
      expect(ping).toBe(200);
      const recoveredAt = l.results.length;
      await new Promise((r) => setTimeout(r, 3_000));
      stop = true;
      await running;
      expect(phase).toBe("after");

      for (const r of l.results) {
        expect([200, 503], JSON.stringify(r)).toContain(r.status);
        if (r.status === 503) {
          expect(r.code, JSON.stringify(r)).toBe("unavailable");
          expect(Number(r.retryAfter), JSON.stringify(r)).toBeGreaterThan(0);
        }
        expect(r.ms, JSON.stringify(r)).toBeLessThan(BOUND_MS);
      }
      expect(l.results.slice(cutAt, recoveredAt).some((r) => r.status === 503)).toBe(true);
      expect(l.results.slice(recoveredAt).filter((r) => r.status === 200).length).toBeGreaterThan(0);
      expect(l.verified.length).toBeGreaterThan(0);
      expect(server.process.exitCode).toBeNull();
      // An outage is one warning and no error line (docs/deploy.md), from requests and the job worker alike.
      const logged = server.output().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as { level: string; msg: string });
      expect(logged.filter((line) => line.level === "error")).toEqual([]);
      expect(logged.filter((line) => line.level === "warn" && /database unavailable/.test(line.msg))).toHaveLength(1);
      await expectNothingLost(l);
    } finally {
      await proxy.restore();
      await server.stop();
    }
  }, 120_000);

  it("SIGTERM with requests in flight: they finish, the process exits 0, nothing accepted is lost", async () => {
    const server = await startServer({ DATABASE_URL: viaProxy(), SHUTDOWN_GRACE_MS: "10000" });
    let stop = false;
    const l = load(server, () => stop, 7550000);
    const running = l.run();
    await new Promise((r) => setTimeout(r, 2_000));
    const exited = new Promise<number | null>((resolve) => server.process.once("exit", resolve));
    server.process.kill("SIGTERM");
    const code = await exited;
    stop = true;
    await running;
    await server.stop();
    expect(code).toBe(0);
    // Every answer that arrived is a contract answer; requests sent after the listener closed may fail to connect.
    for (const r of l.results) expect([0, 200, 503], JSON.stringify(r)).toContain(r.status);
    expect(l.results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    await expectNothingLost(l);
  }, 120_000);
});
