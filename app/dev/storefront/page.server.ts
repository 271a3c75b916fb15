import { directionOf } from "~/shared/locales";
import { blockSchema, escapeHtml, renderLiquid } from "./liquid.server";
import { DEMO_PRODUCT } from "./demo-product";
import { defaultLocale, readBlock, readLocales } from "./extension.server";

export type StorefrontOptions = {
  /** Storefront language (?locale=ar); unknown languages fall back to the default locale file. */
  locale?: string;
  /** The shopper's market country, which the block uses as the default phone country. */
  country?: string;
  /** The app proxy base path the block is configured with. */
  basePath: string;
  /** Where the extension's assets are served (the dev stand-in for Shopify's CDN). */
  assetBase: string;
  shopDomain: string;
  /** The block's "what the button buys" setting: this product, or the whole cart. */
  source?: "product" | "cart";
};

/**
 * A minimal product page with the COD Verify app block rendered from the extension's own Liquid and
 * locale files, and the block's JavaScript and stylesheet included the way Shopify includes an app
 * block's `javascript` and `stylesheet` (a deferred script and a stylesheet link).
 */
export function renderStorefrontPage(options: StorefrontOptions): string {
  const locales = readLocales();
  const fallback = defaultLocale();
  const locale = options.locale && locales[options.locale] ? options.locale : fallback;
  const source = readBlock("cod-button");
  const schema = blockSchema(source) ?? {};
  const settings: Record<string, unknown> = {};
  for (const s of schema.settings ?? []) settings[s.id] = s.default ?? null;
  settings.proxy_path = options.basePath;
  if (options.source) settings.source = options.source;
  const variant = DEMO_PRODUCT.variants[1];
  const block = renderLiquid(
    source,
    {
      block: { settings, shopify_attributes: 'data-shopify-editor-block="{}"' },
      product: { title: DEMO_PRODUCT.title, selected_or_first_available_variant: { id: variant.id }, variants: DEMO_PRODUCT.variants },
      cart: { currency: { iso_code: "INR" } },
      routes: { root_url: "/" },
      request: { locale: { iso_code: locale } },
      localization: { country: { iso_code: options.country ?? "IN" } },
      shop: { permanent_domain: options.shopDomain },
    },
    { translations: [locales[locale], locales[fallback]].filter(Boolean), assetBase: options.assetBase },
  );
  const asset = (name: string) => `${options.assetBase}/${encodeURIComponent(name)}`;
  const head = [
    schema.stylesheet ? `<link rel="stylesheet" href="${asset(schema.stylesheet)}" media="all">` : "",
    schema.javascript ? `<script src="${asset(schema.javascript)}" defer="defer"></script>` : "",
  ].join("\n    ");
  const languages = Object.keys(locales)
    .sort()
    .map((l) => (l === locale ? `<strong>${l}</strong>` : `<a href="?locale=${l}">${l}</a>`))
    .join(" · ");
  const options_ = DEMO_PRODUCT.variants
    .map((v) => `<option value="${v.id}"${v.id === variant.id ? " selected" : ""}>${escapeHtml(v.title)}</option>`)
    .join("");

  return `<!doctype html>
<html lang="${locale}" dir="${directionOf(locale)}">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width,initial-scale=1">
    <title>${escapeHtml(DEMO_PRODUCT.title)} – Demo Shop (local storefront)</title>
    <style>${PAGE_CSS}</style>
    ${head}
  </head>
  <body>
    <div class="dev-banner">Local storefront emulation · app proxy at <code>${escapeHtml(options.basePath)}</code> · ${languages}</div>
    <header class="shop-header"><a href="/dev/storefront" class="shop-name">Demo Shop</a><span class="cart" aria-label="Cart">🛒</span></header>
    <main>
      <section id="shopify-section-main-product" class="product">
        <div class="media" role="img" aria-label="${escapeHtml(DEMO_PRODUCT.title)}">
          <svg viewBox="0 0 200 200" aria-hidden="true"><rect width="200" height="200" fill="#efe7dc"/><path d="M70 40h60l25 30-20 12v78H65V82L45 70z" fill="#c2703d"/><path d="M92 40h16v40h-16z" fill="#a85a2c"/></svg>
        </div>
        <div class="info">
          <p class="vendor">${escapeHtml(DEMO_PRODUCT.vendor)}</p>
          <h1>${escapeHtml(DEMO_PRODUCT.title)}</h1>
          <p class="price"><span class="now">${DEMO_PRODUCT.price}</span> <s>${DEMO_PRODUCT.compareAtPrice}</s></p>
          <form method="post" action="/cart/add" class="product-form">
            <label>Size <select name="id">${options_}</select></label>
            <label>Quantity <input type="number" name="quantity" value="1" min="1" max="99"></label>
            <button type="submit" class="add">Add to cart</button>
          </form>
          ${block.trim()}
          <p class="description">${escapeHtml(DEMO_PRODUCT.description)}</p>
        </div>
      </section>
    </main>
  </body>
</html>
`;
}

const PAGE_CSS = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Arabic","Noto Sans Devanagari",sans-serif;color:#1f2937;background:#fff}
.dev-banner{padding:.4rem .75rem;background:#111827;color:#e5e7eb;font-size:.75rem}.dev-banner a{color:#93c5fd}
.shop-header{display:flex;justify-content:space-between;align-items:center;padding:1rem;border-bottom:1px solid #e5e7eb}
.shop-name{font-weight:700;font-size:1.125rem;color:inherit;text-decoration:none}
.product{display:grid;gap:1.25rem;padding:1rem;max-width:60rem;margin:0 auto}
@media(min-width:750px){.product{grid-template-columns:1fr 1fr;padding:2rem}}
.media svg{width:100%;height:auto;border-radius:.75rem;display:block}
.vendor{margin:0;color:#6b7280;font-size:.8rem;text-transform:uppercase;letter-spacing:.08em}
h1{margin:.25rem 0 .5rem;font-size:1.6rem}
.price{margin:0 0 1rem;font-size:1.15rem}.price s{color:#9ca3af;font-size:.95rem}
.product-form{display:grid;gap:.75rem}.product-form label{display:grid;gap:.3rem;font-size:.85rem}
.product-form select,.product-form input{padding:.6rem;border:1px solid #d1d5db;border-radius:.4rem;font:inherit}
.add{padding:.8rem;border:1px solid #111827;border-radius:.5rem;background:#fff;font:inherit;font-weight:600}
.description{color:#4b5563;line-height:1.5}
`;
