import Database from "better-sqlite3";
import http from "node:http";
import path from "node:path";
import { startServer, type RunningServer } from "../helpers/server";
import { DEMO_SHOP, signedWebhookInit } from "./requests";

/** One request with the exact request-target given (fetch would normalise it). */
function raw(server: RunningServer, method: string, target: string, body?: string) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: server.port, method, path: target, headers: body ? { "content-type": "application/json" } : {} }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, type: String(res.headers["content-type"] ?? ""), body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const settle = () => new Promise((r) => setTimeout(r, 100));
const errorLines = (output: string) => output.split("\n").filter((l) => /"level":"error"/.test(l));

describe("malformed paths and wrong methods against the built server", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  // Remix's legacy data requests: the app uses single fetch, so only a probe sends `?_data`; the runtime
  // used to report each through handleError, which logged an error-level line.
  const DATA_PROBES = ["/app?_data=routes/app", "/app/orders?_data=routes%2Fapp.orders", "/?_data=root", "/auth/login?_data=routes/auth.login", "/app/risk?x=1&_data=routes/app.risk", "/proxy/send-otp?_data"];
  for (const target of DATA_PROBES) {
    it(`GET ${target} (unauthenticated ?_data probe): 400 invalid_request JSON, no error-level line`, async () => {
      const before = server.output().length;
      const res = await raw(server, "GET", target);
      expect(res.status).toBe(400);
      expect(res.type).toMatch(/application\/json/);
      expect(JSON.parse(res.body)).toMatchObject({ code: "invalid_request", error: expect.any(String) });
      await settle();
      expect(errorLines(server.output().slice(before))).toEqual([]);
    });
  }
  it("a query parameter that only starts like _data is served as usual", async () => {
    expect((await raw(server, "GET", "/proxy/api/auth/ping?_database=1")).status).toBe(200);
  });

  const MALFORMED: [string, string][] = [
    ["GET", "/%"],
    ["GET", "/%zz"],
    ["POST", "/proxy/send-otp%"],
    ["POST", "/proxy/send-otp%E0%A4%A?signature=abc&shop=demo-shop.myshopify.com"],
    ["GET", "/proxy/ac/%ff%"],
    ["POST", "/webhooks/orders/create%"],
    ["GET", "/app%"],
    ["GET", "/build/%"],
  ];
  for (const [method, target] of MALFORMED) {
    it(`${method} ${target}: 400 invalid_request JSON, the raw path not logged`, async () => {
      const before = server.output().length;
      const res = await raw(server, method, target, method === "POST" ? '{"phone":"+14155550100"}' : undefined);
      expect(res.status).toBe(400);
      expect(res.type).toMatch(/application\/json/);
      expect(JSON.parse(res.body)).toMatchObject({ code: "invalid_request", error: expect.any(String) });
      await settle();
      const logged = server.output().slice(before);
      expect(logged).not.toContain(target.split("?")[0]);
      expect(logged).not.toContain("signature=");
      expect(errorLines(logged)).toEqual([]);
    });
  }

  it("a signed shop/update with a lone surrogate in the shop's name is stored without it (200, not 500)", async () => {
    const rawBody = `{"id":1,"name":"Demo \\udc00Shop","domain":"demo.example.com","myshopify_domain":"${DEMO_SHOP}"}`;
    const res = await fetch(`${server.url}/webhooks/shop/update`, signedWebhookInit("shop/update", rawBody));
    expect(res.status).toBe(200);
    const db = new Database(path.join(server.dataDir, "app.db"), { readonly: true });
    try {
      expect(db.prepare(`SELECT "name" FROM "Shop" WHERE "domain" = ?`).get(DEMO_SHOP)).toEqual({ name: "Demo Shop" });
    } finally {
      db.close();
    }
  });

  const WRONG_METHODS: [string, string][] = [
    ["PUT", "/app"],
    ["DELETE", "/app/data-requests"], // a page with no action
    ["PATCH", "/"],
    ["PUT", "/auth/login"],
    ["POST", "/auth/login"], // a JSON body, not the login form
  ];
  for (const [method, target] of WRONG_METHODS) {
    it(`unauthenticated ${method} ${target}: a 4xx, and no error-level log line`, async () => {
      const before = server.output().length;
      const res = await raw(server, method, target, method === "POST" ? '{"shop":"x"}' : undefined);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      await settle();
      expect(errorLines(server.output().slice(before))).toEqual([]);
    });
  }
});
