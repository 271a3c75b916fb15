import crypto from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import { startServer, type RunningServer } from "../helpers/server";
import { sendingThrough, startFakeTwilio, type FakeTwilio } from "../mocks/twilio";
import { signedProxyUrl, signedWebhookInit } from "./requests";

/**
 * Faults of the services the app calls, under concurrent requests to the built server: Twilio failing
 * (5xx, hanging past SMS_TIMEOUT_MS) and Shopify failing (every way the fake Shopify can answer
 * badly). Each answer is the contract's, within a bounded time; nothing accepted is lost.
 */
const post = (server: RunningServer, p: string, body: unknown) =>
  fetch(signedProxyUrl(server.url, p), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function timed<T>(run: () => Promise<T>) {
  const started = Date.now();
  const value = await run();
  return { value, ms: Date.now() - started };
}

describe("Twilio failing under load", () => {
  let twilio: FakeTwilio;
  let server: RunningServer;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    server = await startServer({
      ...sendingThrough(twilio),
      SMS_TIMEOUT_MS: "3000",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await twilio?.close();
  });

  it("answers 200 or 502 sms_unavailable within the SMS bound; every code that went out verifies", async () => {
    twilio.fail("server_error", { when: (m) => m.to.endsWith("1") || m.to.endsWith("4") });
    twilio.fail("hang", { when: (m) => m.to.endsWith("7") });
    const phones = Array.from({ length: 12 }, (_, i) => `+1415556${String(1000 + i).padStart(4, "0")}`);
    const answers = await Promise.all(phones.map((phone) => timed(async () => ({ phone, res: await post(server, "/send-otp", { phone }) }))));
    for (const { value, ms } of answers) {
      const body = await value.res.json();
      const failing = /[147]$/.test(value.phone);
      // A failing Twilio is always 502; a working one is 200, or 502 when a loaded machine passes the bound.
      if (failing) expect(value.res.status, value.phone).toBe(502);
      else expect([200, 502], value.phone).toContain(value.res.status);
      if (value.res.status === 502) expect(body.code).toBe("sms_unavailable");
      expect(ms, value.phone).toBeLessThan(3000 + 8_000);
    }
    expect(answers.filter((a) => a.value.res.status === 200).length).toBeGreaterThan(0);
    for (const { value } of answers.filter((a) => a.value.res.status === 200)) {
      const verified = await post(server, "/verify-otp", { phone: value.phone, otp: twilio.codeFor(value.phone) });
      expect(await verified.json(), value.phone).toMatchObject({ success: true });
    }
    expect(server.process.exitCode).toBeNull();
  }, 120_000);
});

describe("Shopify failing under load", () => {
  let server: RunningServer;
  let db: Database.Database;
  beforeAll(async () => {
    server = await startServer({ NODE_ENV: "development" });
    db = new Database(path.join(server.dataDir, "app.db"), { readonly: true });
  });
  afterAll(async () => {
    db?.close();
    await server?.stop();
  });

  const answer = (operation: string, how: string) =>
    fetch(`${server.shopify!.origin}/answers`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ operation, answer: how }) });

  it("create-checkout answers 200 (a checkout or { fallback: true }) within a bound, whatever Shopify does", async () => {
    for (const how of ["throttled", "http_429", "http_503", "graphql_errors", "user_errors", "dropped", "timeout"]) {
      expect((await answer("cartCreate", how)).status).toBe(200);
      expect((await answer("draftOrderCreate", how)).status).toBe(200);
      const runs = await Promise.all(
        ["prepaid", "partial", "prepaid", "partial"].map((selectedMode, i) =>
          timed(() => post(server, "/create-checkout", { phone: `+1415557${String(1000 + i).padStart(4, "0")}`, selectedMode, variantId: "123", quantity: 1 })),
        ),
      );
      for (const { value, ms } of runs) {
        expect(value.status, how).toBe(200);
        expect(await value.json(), how).toEqual({ fallback: true });
        // SHOPIFY_CALL_TIMEOUT_MS (4 s) bounds each Shopify call; a partial checkout makes a few.
        expect(ms, how).toBeLessThan(20_000);
      }
    }
    await answer("cartCreate", "ok");
    await answer("draftOrderCreate", "ok");
  }, 240_000);

  it("orders/create answers 200 while tagging fails, and keeps the tag job to retry it", async () => {
    expect((await answer("tagsAdd", "http_503")).status).toBe(200);
    const orders = Array.from({ length: 6 }, (_, i) => {
      const id = 820982911946160000n + BigInt(i);
      const gid = `gid://shopify/Order/${id}`;
      const raw = `{"id":${id},"admin_graphql_api_id":"${gid}","name":"#${i}","phone":"+14155558${String(100 + i)}","gateway":"Cash on Delivery (COD)","payment_gateway_names":["Cash on Delivery (COD)"],"note_attributes":[],"tags":""}`;
      return { gid, init: signedWebhookInit("orders/create", raw, { "x-shopify-webhook-id": crypto.randomUUID() }) };
    });
    const answers = await Promise.all(orders.map((o) => fetch(`${server.url}/webhooks/orders/create`, o.init)));
    for (const res of answers) expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_000)); // the worker tries, Shopify fails
    for (const o of orders) {
      const job = db.prepare(`SELECT attempts, "doneAt", "failedAt" FROM "Job" WHERE kind = 'order-tags' AND key = ?`).get(`demo-shop.myshopify.com|${o.gid}`) as
        | { attempts: number; doneAt: unknown; failedAt: unknown }
        | undefined;
      expect(job, o.gid).toBeDefined();
      expect(job!.doneAt, o.gid).toBeNull();
      expect(job!.failedAt, o.gid).toBeNull();
    }
    await answer("tagsAdd", "ok");
  }, 120_000);
});
