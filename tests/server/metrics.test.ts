import path from "node:path";
import { parsePrometheus, sampleValue } from "../helpers/prometheus";
import { deliverOrderCreated, postSigned, startServer, type RunningServer } from "../helpers/server";
import { ROOT } from "../setup/databases";

const TOKEN = "metrics-test-token-0123456789abcdef";

describe("GET /metrics: the operator's Prometheus endpoint on the production server", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ METRICS_TOKEN: TOKEN, MESSAGE_PRICE_TABLE: path.join(ROOT, "scripts", "message-prices.json") });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheus(await res.text());
  };

  it("refuses a scraper without the token, or with another, as JSON; and any method but GET", async () => {
    const none = await fetch(`${server.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await none.json()).code).toBe("unauthorized");
    const wrong = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN.slice(0, -1)}x` } });
    expect(wrong.status).toBe(401);
    const basic = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` } });
    expect(basic.status).toBe(401);
    const post = await fetch(`${server.url}/metrics`, { method: "POST", headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(post.status).toBe(405);
  });

  it("counts requests per route, texts sent and their cost, webhooks and their lag, and the jobs they queue", async () => {
    const before = await scrape();
    const sent = (s: typeof before) => sampleValue(s, "cod_messages_total", { channel: "sms", purpose: "otp", result: "sent" }) ?? 0;
    const cost = (s: typeof before) => sampleValue(s, "cod_message_cost_total", { channel: "sms", currency: "USD" }) ?? 0;

    expect((await postSigned(server, "/send-otp", { phone: "+919876543210" })).status).toBe(200);
    expect((await postSigned(server, "/send-otp", { phone: "+14155550123" })).status).toBe(200);
    const texted = await scrape();
    expect(sent(texted) - sent(before)).toBe(2);
    // The price table's SMS prices for India (0.0832) and the US (0.0083).
    expect(cost(texted) - cost(before)).toBeCloseTo(0.0915, 6);
    expect((await fetch(`${server.url}/wp-login.php`)).status).toBe(404);
    const order = { id: 820982911946154500, admin_graphql_api_id: "gid://shopify/Order/820982911946154500", name: "#1001", phone: "+14155550199", payment_gateway_names: ["Cash on Delivery (COD)"], total_price: "10.00", currency: "USD", line_items: [], created_at: new Date().toISOString() };
    expect((await deliverOrderCreated(server, order)).status).toBe(200);

    const after = await scrape();
    // The unverified COD order's confirmation went out too, under its own purpose.
    expect(sampleValue(after, "cod_messages_total", { channel: "sms", purpose: "order_confirmation", result: "sent" })).toBe(1);
    expect(sampleValue(after, "cod_http_requests_total", { route: "/proxy/send-otp", method: "POST", status: "2xx" })).toBe(2);
    expect(sampleValue(after, "cod_http_request_duration_seconds_count", { route: "/proxy/send-otp" })).toBe(2);
    // A probe of a random path adds no series of its own.
    expect(sampleValue(after, "cod_http_requests_total", { route: "other", method: "GET", status: "4xx" })).toBe(1);
    expect(after.some((s) => s.labels.route === "/wp-login.php")).toBe(false);
    expect(sampleValue(after, "cod_webhooks_total", { topic: "orders/create", outcome: "done" })).toBe(1);
    expect(sampleValue(after, "cod_webhook_lag_seconds_count", { topic: "orders/create" })).toBe(1);
    // What the order queued (its tags at least) is waiting or due in the shared queue, with its age.
    const pending = after.filter((s) => s.name === "cod_jobs_pending");
    expect(pending.length).toBeGreaterThan(0);
    expect(after.some((s) => s.name === "cod_jobs_oldest_due_age_seconds")).toBe(true);
    // The process's own health (event loop, memory) comes with it.
    expect(sampleValue(after, "cod_process_resident_memory_bytes")).toBeGreaterThan(0);
  });
});
