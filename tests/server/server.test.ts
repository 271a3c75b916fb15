import crypto from "node:crypto";
import http from "node:http";
import zlib from "node:zlib";
import fs from "node:fs";
import path from "node:path";
import { signedProxyQuery } from "../../app/server/app-proxy-signature.mjs";
import { REQUEST_PROBE, requestInFlight, startServer, type RunningServer } from "../helpers/server";
import { ROOT } from "../setup/databases";

function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe("the production server (server.mjs over the build)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers the public ping", async () => {
    const res = await fetch(`${server.url}/proxy/api/auth/ping`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("serves a signed storefront request for the demo shop, and logs it without the query string", async () => {
    const q = signedProxyQuery({ secret: "local-dev-api-secret" });
    const res = await fetch(`${server.url}/proxy/api/config?${q}`);
    expect(res.status).toBe(200);
    expect((await res.json()).otpEnabled).toBe(true);
    const bad = await fetch(`${server.url}/proxy/api/config?${q.toString().replace(/signature=\w+/, "signature=00")}`);
    expect(bad.status).toBe(401);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.output()).toMatch(/"path":"\/proxy\/api\/config","status":200/);
    expect(server.output()).not.toContain("signature=");
    expect(server.output()).not.toContain(q.get("signature")!);
  });

  it("sends the storefront config compressed when the browser accepts it (the config lists every country: ~6.5 KB)", async () => {
    const q = signedProxyQuery({ secret: "local-dev-api-secret" });
    const get = (encoding: string) => rawGet(`${server.url}/proxy/api/config?${q}`, { "Accept-Encoding": encoding });
    const plain = await get("identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const br = await get("gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  });

  it("caches fingerprinted assets for a year and gzips them when asked", async () => {
    const dir = path.join(ROOT, "public", "build");
    const asset = fs.readdirSync(dir).find((f) => f.endsWith(".js"))!;
    const res = await rawGet(`${server.url}/build/${asset}`, { "accept-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers["content-type"]).toMatch(/javascript/);
    if (fs.statSync(path.join(dir, asset)).size > 1024) {
      expect(res.headers["content-encoding"]).toBe("gzip");
      expect(zlib.gunzipSync(res.body).length).toBe(fs.statSync(path.join(dir, asset)).size);
    }
  });

  it("gzips HTML pages", async () => {
    const res = await rawGet(`${server.url}/`, { "accept-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(res.body).toString()).toContain("COD Verify");
  });

  it("refuses request bodies over 1 MiB with a JSON 413", async () => {
    const res = await fetch(`${server.url}/proxy/api/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(1024 * 1024 + 10),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe("payload_too_large");
  });

  it("answers send-otp and verify-otp through their own interface, and alike through Remix's when the body comes chunked", async () => {
    const url = (p: string) => `${server.url}/proxy/${p}?${signedProxyQuery({ secret: "local-dev-api-secret" })}`;
    const phone = "+14155550177";
    // A declared length: the server reads the body whole and calls the route's own interface.
    const sent = await fetch(url("send-otp"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ phone }) });
    expect(sent.status).toBe(200);
    expect(sent.headers.get("cache-control")).toBe("no-store");
    const sentText = await sent.text();
    expect(Number(sent.headers.get("content-length"))).toBe(Buffer.byteLength(sentText));
    expect(JSON.parse(sentText)).toMatchObject({ success: true, channel: "sms" });
    const line = fs.readFileSync(path.join(server.dataDir, "outbox.jsonl"), "utf8").trim().split("\n").reverse().find((l) => l.includes(phone))!;
    const code = /\b(\d{6})\b/.exec(JSON.parse(line).body)![1];
    const wrongCode = code === "000000" ? "111111" : "000000";

    const wrong = await fetch(url("verify-otp"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ phone, otp: wrongCode }) });
    expect(wrong.status).toBe(400);
    const wrongBody = await wrong.json();
    expect(wrongBody).toEqual({ error: "That code is not right.", code: "invalid_code", success: false, attemptsRemaining: 4 });

    // Chunked (no declared length): streamed to the route through a web Request, as before.
    const chunked = await new Promise<{ status: number; type?: string; body: string }>((resolve, reject) => {
      const req = http.request(url("verify-otp"), { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, type: res.headers["content-type"], body }));
      });
      req.on("error", reject);
      req.write(`{"phone":"${phone}",`);
      req.end(`"otp":"${wrongCode}"}`);
    });
    expect(chunked).toEqual({ status: 400, type: "application/json; charset=utf-8", body: JSON.stringify({ ...wrongBody, attemptsRemaining: 3 }) });

    const right = await fetch(url("verify-otp"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ phone, otp: code }) });
    expect(right.status).toBe(200);
    expect(await right.json()).toMatchObject({ success: true, proof: expect.stringMatching(/^v1\./) });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.output()).toMatch(/"path":"\/proxy\/verify-otp","status":200/);
  });

  it("answers a webhook through its own interface, and alike through Remix's when the body comes chunked", async () => {
    const deliver = (body: string, hmac: string, id: string, chunked: boolean) =>
      new Promise<{ status: number; type?: string; body: string }>((resolve, reject) => {
        const headers: Record<string, string> = {
          "content-type": "application/json",
          "x-shopify-hmac-sha256": hmac,
          "x-shopify-topic": "orders/create",
          "x-shopify-shop-domain": "demo-shop.myshopify.com",
          "x-shopify-api-version": "2026-10",
          "x-shopify-webhook-id": id,
          ...(chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(Buffer.byteLength(body)) }),
        };
        const req = http.request(`${server.url}/webhooks/orders/create`, { method: "POST", headers }, (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode!, type: res.headers["content-type"], body: text }));
        });
        req.on("error", reject);
        if (chunked) req.write(body.slice(0, 10));
        req.end(chunked ? body.slice(10) : body);
      });
    const sign = (body: string) => crypto.createHmac("sha256", "local-dev-api-secret").update(body, "utf8").digest("base64");
    const order = (n: number) => JSON.stringify({ id: n, admin_graphql_api_id: `gid://shopify/Order/${n}`, name: `#${n}`, payment_gateway_names: ["Cash on Delivery (COD)"] });
    for (const chunked of [false, true]) {
      const body = order(chunked ? 2 : 1);
      expect(await deliver(body, sign(body), `w-${chunked}`, chunked)).toEqual({ status: 200, type: undefined, body: "" });
      const refused = await deliver(body, sign("another body"), `w-bad-${chunked}`, chunked);
      expect(refused).toMatchObject({ status: 401, type: "application/json; charset=utf-8" });
      expect(JSON.parse(refused.body)).toMatchObject({ code: "invalid_hmac" });
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(server.output()).toMatch(/"path":"\/webhooks\/orders\/create","status":200/);
  });
});

describe("request lines and LOG_LEVEL", () => {
  it("writes no request line under LOG_LEVEL=warn (they are info lines), and still answers", async () => {
    const quiet = await startServer({ LOG_LEVEL: "warn" });
    try {
      const res = await fetch(`${quiet.url}/proxy/api/config?${signedProxyQuery({ secret: "local-dev-api-secret" })}`);
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 50));
      expect(quiet.output()).toMatch(/listening on/);
      expect(quiet.output()).not.toMatch(/"msg":"request"/);
    } finally {
      await quiet.stop();
    }
  });
});

describe("start-up configuration", () => {
  it("refuses to start in production without its secrets, naming them", async () => {
    await expect(startServer({ SHOPIFY_API_SECRET: "", OTP_HASH_SECRET: "" })).rejects.toThrow(
      /SHOPIFY_API_SECRET.*OTP_HASH_SECRET|Missing required configuration/,
    );
  }, 60_000);
});

describe("graceful shutdown", () => {
  it("on SIGTERM finishes a request already in flight, then exits 0", async () => {
    const server = await startServer({}, { nodeArgs: REQUEST_PROBE });
    const q = signedProxyQuery({ secret: "local-dev-api-secret" });
    const body = JSON.stringify({ phone: "+14155550160" });
    let answer: { status: number; body: string } | null = null;
    const done = new Promise<void>((resolve, reject) => {
      const req = http.request(
        `${server.url}/proxy/send-otp?${q}`,
        { method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
        (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => {
            answer = { status: res.statusCode!, body: text };
            resolve();
          });
        },
      );
      req.on("error", reject);
      // Half the body now; SIGTERM arrives while the server is still reading it.
      req.write(body.slice(0, 10));
      void (async () => {
        // Only once the server holds the request (its head read): then SIGTERM must spare it.
        await requestInFlight(server, "/proxy/send-otp");
        server.process.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(10)), 300);
      })();
    });
    await done;
    expect(answer).toMatchObject({ status: 200 });
    expect(JSON.parse(answer!.body)).toMatchObject({ success: true });
    expect(await server.stop()).toBe(0);
    expect(server.output()).toMatch(/SIGTERM, finishing 1 in-flight request/);
  }, 60_000);

  it("exits 0 on SIGTERM, closing idle keep-alive connections", async () => {
    const server = await startServer();
    const agent = new http.Agent({ keepAlive: true });
    await new Promise((resolve) => http.get(`${server.url}/proxy/api/auth/ping`, { agent }, (res) => res.resume().on("end", resolve)));
    const code = await server.stop("SIGTERM");
    agent.destroy();
    expect(code).toBe(0);
  }, 60_000);
});

describe("the public ping when the database is down", () => {
  it("answers 503 { status: unavailable } and reveals nothing else", async () => {
    const server = await startServer({ DATABASE_URL: "postgresql://nobody@127.0.0.1:9/nothing" }, { migrate: false });
    try {
      const res = await fetch(`${server.url}/proxy/api/auth/ping`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "unavailable" });
    } finally {
      await server.stop();
    }
  }, 60_000);
});
