#!/usr/bin/env node
// Local mode: delivers a signed orders/create for an unverified cash-on-delivery order to the running
// app, as Shopify would (HMAC with the app's secret), so verification after purchase starts: the
// WhatsApp question (or the SMS link), the hold, the deadline. The order is first placed in the fake Shopify
// (POST /local/orders), as Shopify holds an order before it tells the app. Run the app with
// `npm run local -- --twilio` and watch http://127.0.0.1:3002/phone.
//   npm run local:order                  an order for +919876512345
//   npm run local:order -- +971501234567 another phone
//   npm run local:order -- +919876512345 --ip 203.0.113.7 --zip 400001
//                                        the buyer's IP (browser_ip: the risk score's orders per IP) and
//                                        the delivery postal code (its area's failure rate)
import "../app/server/load-env.mjs";
import crypto from "node:crypto";
import net from "node:net";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { ip: { type: "string" }, zip: { type: "string", default: "411001" } } });
const phone = positionals[0] ?? "+919876512345";
const fail = (message) => {
  console.error(`local:order: ${message}`);
  process.exit(2);
};
if (!/^\+\d{10,15}$/.test(phone)) fail("give the phone in E.164, such as +919876512345");
if (values.ip !== undefined && !net.isIP(values.ip)) fail(`--ip must be an IPv4 or IPv6 address, not ${values.ip}`);
const appUrl = (process.env.SHOPIFY_APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, "");
const secret = process.env.SHOPIFY_API_SECRET ?? "local-dev-api-secret";
const shop = process.env.LOCAL_SHOP ?? "demo-shop.myshopify.com";
const id = 7_000_000 + Math.floor(Math.random() * 1_000_000);
const payload = {
  id,
  admin_graphql_api_id: `gid://shopify/Order/${id}`,
  name: `#L${id % 100_000}`,
  created_at: new Date().toISOString(),
  token: crypto.randomBytes(16).toString("hex"),
  cart_token: null,
  checkout_token: null,
  phone,
  email: "buyer@example.com",
  currency: "INR",
  total_price: "499.00",
  financial_status: "pending",
  gateway: "Cash on Delivery (COD)",
  payment_gateway_names: ["Cash on Delivery (COD)"],
  note_attributes: [],
  tags: "",
  browser_ip: values.ip ?? null,
  customer: { id: 77, admin_graphql_api_id: "gid://shopify/Customer/77", email: "buyer@example.com", phone },
  billing_address: { first_name: "Asha", phone, country_code: "IN" },
  shipping_address: { first_name: "Asha", address1: "MG Road", city: "Pune", zip: values.zip, phone, country_code: "IN" },
  line_items: [{ id: 1, variant_id: 2, title: "Cotton kurta", quantity: 1, price: "499.00", requires_shipping: true }],
};
const body = JSON.stringify(payload);
// As on Shopify, the order exists in the store before its webhook: the fake Shopify holds it with its money,
// addresses, payment page and fulfillment order, so every later read of it (the delivery reminder, the
// pay-now offer, address correction, holds) finds it.
const fakeShopify = (process.env.SHOPIFY_API_ORIGIN ?? `http://127.0.0.1:${process.env.LOCAL_SHOPIFY_PORT ?? Number(process.env.PORT ?? 3000) + 1}`).replace(/\/+$/, "");
const stored = await fetch(`${fakeShopify}/local/orders?shop=${encodeURIComponent(shop)}`, { method: "POST", body, headers: { "content-type": "application/json" } }).catch((error) => ({ ok: false, status: String(error.cause?.code ?? error) }));
if (!stored.ok) console.warn(`local:order: the fake Shopify at ${fakeShopify} did not take the order (${stored.status}): later reads of it will find nothing`);
const res = await fetch(`${appUrl}/webhooks/orders/create`, {
  method: "POST",
  body,
  headers: {
    "content-type": "application/json",
    "x-shopify-hmac-sha256": crypto.createHmac("sha256", secret).update(body).digest("base64"),
    "x-shopify-topic": "orders/create",
    "x-shopify-shop-domain": shop,
    "x-shopify-webhook-id": crypto.randomUUID(),
    "x-shopify-event-id": crypto.randomUUID(),
    "x-shopify-api-version": "2025-10",
    "x-shopify-triggered-at": new Date().toISOString(),
  },
});
console.log(
  `local:order: ${payload.name} (${payload.admin_graphql_api_id}) for ${phone}${values.ip ? ` from ${values.ip}` : ""}, postal code ${values.zip}: orders/create answered ${res.status}`,
);
if (!res.ok) process.exitCode = 1;
