#!/usr/bin/env node
// Local mode: delivers a signed orders/create for an unverified cash-on-delivery order to the running
// app, as Shopify would (HMAC with the app's secret), so verification after purchase starts: the
// WhatsApp question (or the SMS link), the hold, the deadline. Run the app with `npm run local -- --twilio`
// and watch http://127.0.0.1:3002/phone.
//   npm run local:order                  an order for +919876512345
//   npm run local:order -- +971501234567 another phone
import "../app/server/load-env.mjs";
import crypto from "node:crypto";

const phone = process.argv[2] ?? "+919876512345";
if (!/^\+\d{10,15}$/.test(phone)) {
  console.error("local:order: give the phone in E.164, such as +919876512345");
  process.exit(2);
}
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
  customer: { id: 77, admin_graphql_api_id: "gid://shopify/Customer/77", email: "buyer@example.com", phone },
  billing_address: { first_name: "Asha", phone, country_code: "IN" },
  shipping_address: { first_name: "Asha", address1: "MG Road", city: "Pune", zip: "411001", phone, country_code: "IN" },
  line_items: [{ id: 1, variant_id: 2, quantity: 1, price: "499.00" }],
};
const body = JSON.stringify(payload);
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
console.log(`local:order: ${payload.name} (${payload.admin_graphql_api_id}) for ${phone}: orders/create answered ${res.status}`);
if (!res.ok) process.exitCode = 1;
