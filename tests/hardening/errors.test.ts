import Database from "better-sqlite3";
import path from "node:path";
import { startServer, type RunningServer } from "../helpers/server";
import { PROXY_ROUTES, WEBHOOK_TOPICS, signedProxyUrl, signedWebhookInit, webhookPayload } from "./requests";

async function expectJsonError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  const body = await res.json();
  expect(body).toMatchObject({ code });
  expect(typeof body.error).toBe("string");
  return body;
}

describe("the database is unreachable: 503 unavailable with Retry-After on every route", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // Nothing listens on port 9: every query fails at once, as when PostgreSQL is stopped.
    server = await startServer({ DATABASE_URL: "postgresql://nobody@127.0.0.1:9/nothing" }, { migrate: false });
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const route of PROXY_ROUTES) {
    it(`${route.method} /proxy${route.path}`, async () => {
      const res = await fetch(signedProxyUrl(server.url, route.path, { extra: [["token", "t"]] }), {
        method: route.method,
        headers: { "content-type": "application/json" },
        body: route.body === undefined ? undefined : JSON.stringify(route.body),
      });
      const body = await expectJsonError(res, 503, "unavailable");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(JSON.stringify(body)).not.toMatch(/prisma|\/work\/|node_modules|\.js:/i);
    });
  }

  for (const topic of WEBHOOK_TOPICS) {
    it(`webhook ${topic} (Shopify retries a 5xx)`, async () => {
      const res = await fetch(`${server.url}/webhooks/${topic}`, signedWebhookInit(topic, JSON.stringify(webhookPayload(topic))));
      await expectJsonError(res, 503, "unavailable");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    });
  }

  it("the hosted address form shows a friendly page to a browser, with the same status", async () => {
    const res = await fetch(signedProxyUrl(server.url, "/ac/some-token"), { headers: { accept: "text/html,application/xhtml+xml" } });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBeTruthy();
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(await res.text()).toMatch(/try again/i);
  });

  it("the ping says unavailable with Retry-After", async () => {
    const res = await fetch(`${server.url}/proxy/api/auth/ping`);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBeTruthy();
  });
});

describe("refused requests on a working server", () => {
  let server: RunningServer;
  let db: Database.Database;
  beforeAll(async () => {
    server = await startServer();
    db = new Database(path.join(server.dataDir, "app.db"), { readonly: true });
  });
  afterAll(async () => {
    db?.close();
    await server?.stop();
  });

  const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n;

  for (const shop of ["", "evil.com", "demo-shop.myshopify.com\u0000", "-.myshopify.com", "a b.myshopify.com"]) {
    it(`a correctly signed request for shop ${JSON.stringify(shop)} is 401 invalid_signature`, async () => {
      for (const route of PROXY_ROUTES) {
        const res = await fetch(signedProxyUrl(server.url, route.path, { shop }), {
          method: route.method,
          headers: { "content-type": "application/json" },
          body: route.body === undefined ? undefined : JSON.stringify(route.body),
        });
        if (route.path.startsWith("/ac/")) {
          expect(res.status, route.path).toBe(401);
          await res.body?.cancel();
        } else {
          await expectJsonError(res, 401, "invalid_signature");
        }
      }
    });
  }

  for (const topic of WEBHOOK_TOPICS) {
    it(`webhook ${topic}: a signed body that is not a JSON object is 400 and stores nothing`, async () => {
      const before = count("WebhookDelivery");
      for (const raw of ["not json", "{", "", "null", "[1,2]", '"text"', "42"]) {
        const res = await fetch(`${server.url}/webhooks/${topic}`, signedWebhookInit(topic, raw));
        await expectJsonError(res, 400, "invalid_request");
      }
      expect(count("WebhookDelivery")).toBe(before);
    });

    it(`webhook ${topic}: a signed delivery whose shop header is not a shop domain is 400`, async () => {
      const before = count("WebhookDelivery");
      for (const shop of ["", "evil.com", "x\u0001.myshopify.com"]) {
        const init = signedWebhookInit(topic, JSON.stringify(webhookPayload(topic)), { "x-shopify-shop-domain": shop });
        if (shop.includes("\u0001")) continue; // fetch refuses control characters in headers; covered by the fuzz suite's raw client
        const res = await fetch(`${server.url}/webhooks/${topic}`, init);
        await expectJsonError(res, 400, "invalid_request");
      }
      expect(count("WebhookDelivery")).toBe(before);
    });
  }

  it("GET /auth/login shows the library's login form; a shop domain posted to it goes to Shopify's install page for that shop (managed install)", async () => {
    const page = await fetch(`${server.url}/auth/login`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/Shop domain/);
    expect(html).toMatch(/<form[^>]*method="post"/i);

    const invalid = await fetch(`${server.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "shop=not%20a%20shop",
      redirect: "manual",
    });
    expect(invalid.status).toBe(200);
    expect(await invalid.text()).toMatch(/valid shop domain/);

    const ok = await fetch(`${server.url}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "shop=demo-shop",
      redirect: "manual",
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toMatch(/^https:\/\/admin\.shopify\.com\/store\/demo-shop\/oauth\/install\?client_id=/);
  });

  it.each(["/ac/some-token", "/vc/some-token"])("the hosted page %s cannot be framed by another page", async (path) => {
    const res = await fetch(signedProxyUrl(server.url, path), { headers: { accept: "text/html" } });
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    await res.body?.cancel();
  });

  it("webhooks refuse other methods with a JSON 405 and Allow: POST", async () => {
    const res = await fetch(`${server.url}/webhooks/orders/create`);
    await expectJsonError(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toBe("POST");
  });

  for (const path of ["/api/config", "/api/auth/ping", "/api/address-correction.status"]) {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      it(`${method} ${path} is the contract's 405 with Allow: GET`, async () => {
        const res = await fetch(signedProxyUrl(server.url, path), { method, headers: { "content-type": "application/json" }, body: "{}" });
        const body = await expectJsonError(res, 405, "method_not_allowed");
        expect(res.headers.get("allow")).toBe("GET");
        expect(JSON.stringify(body)).not.toMatch(/routes\//);
      });
    }
  }
});
