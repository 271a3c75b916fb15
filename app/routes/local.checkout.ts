import type { LoaderFunctionArgs } from "@remix-run/node";
import { env } from "~/env.server";
import { FAKE_UNIT_PRICE } from "~/dev/fake-shopify/handlers";

/**
 * GET /local/checkout?c=...: local mode's stand-in for Shopify's checkout. The fake Shopify's carts and
 * draft orders point here with what they were given, and this page shows what the shopper would pay.
 * It does not exist outside local development (404).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!env.localMode || env.production) return new Response("Not Found", { status: 404 });
  let data: {
    kind?: string;
    lines?: { merchandiseId?: string; variantId?: string; quantity?: number }[];
    attributes?: { key: string; value: string }[];
    discountCodes?: string[];
    total?: number;
    subtotal?: number;
    dueNow?: number;
    note?: string;
  };
  try {
    data = JSON.parse(Buffer.from(new URL(request.url).searchParams.get("c") ?? "", "base64url").toString("utf8"));
  } catch {
    return new Response("Bad Request", { status: 400 });
  }
  const lines = (data.lines ?? [])
    .map((l) => `<li>${esc(l.merchandiseId ?? l.variantId ?? "?")} × ${esc(l.quantity ?? 1)} at ${FAKE_UNIT_PRICE.toFixed(2)}</li>`)
    .join("");
  const attrs = (data.attributes ?? []).map((a) => `<li><code>${esc(a.key)}</code> = ${esc(a.value)}</li>`).join("");
  const total = data.total ?? data.subtotal ?? 0;
  const payment =
    data.kind === "draft"
      ? `<p>Due now (deposit): <strong>${esc((data.dueNow ?? total).toFixed(2))}</strong>. Due on delivery: <strong>${esc((total - (data.dueNow ?? total)).toFixed(2))}</strong>.</p><p>${esc(data.note ?? "")}</p>`
      : `<p>Total before discounts: <strong>${esc(total.toFixed(2))}</strong></p>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Local checkout preview</title></head><body style="font-family:system-ui;max-width:36rem;margin:2rem auto;padding:0 1rem">
<h1>Local checkout preview</h1><p>Local mode: this page stands in for Shopify's ${data.kind === "draft" ? "draft-order invoice" : "cart checkout"}.</p>
<h2>Items</h2><ul>${lines}</ul>${payment}
<h2>Discount codes</h2><p>${esc((data.discountCodes ?? []).join(", ") || "none")}</p>
<h2>Attributes (carried to the order)</h2><ul>${attrs}</ul></body></html>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
