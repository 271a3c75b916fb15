#!/usr/bin/env node
// Calls the running app the way Shopify's app proxy does, signed with the app's secret, and prints
// the answer.   npm run proxy -- POST /send-otp '{"phone":"+14155550123"}'
//               npm run proxy -- GET /api/config
// Environment: APP_URL (default http://localhost:$PORT or 3000), SHOPIFY_API_SECRET and DEMO_SHOP
// (default: local mode's demo shop and secret).
import "../app/server/load-env.mjs";
import { LOCAL_DEFAULTS, signedProxyQuery } from "../app/server/app-proxy-signature.mjs";

const [methodArg, pathArg, body] = process.argv.slice(2);
if (!methodArg || !pathArg) {
  console.error("usage: npm run proxy -- <GET|POST> </path[?query]> ['<json body>']");
  process.exit(2);
}
const method = methodArg.toUpperCase();
// `||`: an empty variable means the default, as everywhere in the app.
const base = process.env.APP_URL || `http://localhost:${process.env.PORT || 3000}`;
const [path, query = ""] = pathArg.split("?");
const params = signedProxyQuery({
  shop: process.env.DEMO_SHOP || LOCAL_DEFAULTS.shop,
  secret: process.env.SHOPIFY_API_SECRET || LOCAL_DEFAULTS.secret,
  extra: new URLSearchParams(query),
});
const url = `${base}/proxy${path.startsWith("/") ? path : `/${path}`}?${params}`;
try {
  const response = await fetch(url, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body && method !== "GET" ? body : undefined,
  });
  const text = await response.text();
  console.log(`HTTP ${response.status}`);
  try {
    console.log(JSON.stringify(JSON.parse(text), null, 2));
  } catch {
    console.log(text);
  }
  process.exit(response.ok ? 0 : 1);
} catch (err) {
  console.error(`proxy: cannot reach ${base}: ${err.cause?.code ?? err.message}. Is the app running (npm run local)?`);
  process.exit(1);
}
