#!/usr/bin/env node
// Measures create-checkout (prepaid, through local mode's in-process fake Shopify) and orders/create
// (signed webhook deliveries) against a running app in local development mode:
//   NODE_ENV=development npm start   (after npm run setup && npm run build), then
//   node scripts/bench-checkout.mjs [requests=400] [connections=16]
// Prints requests/s and latency percentiles. Numbers only; nothing asserts on them.
import crypto from "node:crypto";
import { LOCAL_DEFAULTS, signedProxyQuery } from "./lib/app-proxy-signature.mjs";

const total = Number(process.argv[2] ?? 400);
const connections = Number(process.argv[3] ?? 16);
const base = process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
const secret = process.env.SHOPIFY_API_SECRET ?? LOCAL_DEFAULTS.secret;
const shop = process.env.DEMO_SHOP ?? LOCAL_DEFAULTS.shop;

async function run(name, makeRequest) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        const res = await makeRequest(i);
        await res.arrayBuffer();
        if (!res.ok) failures++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  console.log(`${name}: ${total} requests, ${connections} connections: ${(total / seconds).toFixed(0)} req/s, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, failures ${failures}`);
}

await run("POST /proxy/create-checkout (prepaid)", (i) =>
  fetch(`${base}/proxy/create-checkout?${signedProxyQuery({ shop, secret })}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.1" },
    body: JSON.stringify({ phone: `+1415555${String(i % 10000).padStart(4, "0")}`, selectedMode: "prepaid", variantId: String(1000 + i), quantity: 1 }),
  }),
);

await run("POST /webhooks/orders/create", (i) => {
  const body = JSON.stringify({
    id: 1,
    admin_graphql_api_id: `gid://shopify/Order/${Date.now()}${i}`,
    name: `#${i}`,
    phone: `+1415555${String(i % 10000).padStart(4, "0")}`,
    payment_gateway_names: ["Cash on Delivery (COD)"],
    note_attributes: [],
  });
  return fetch(`${base}/webhooks/orders/create`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-shopify-hmac-sha256": crypto.createHmac("sha256", secret).update(body).digest("base64"),
      "x-shopify-topic": "orders/create",
      "x-shopify-shop-domain": shop,
      "x-shopify-api-version": "2026-10",
      "x-shopify-webhook-id": crypto.randomUUID(),
    },
    body,
  });
});
