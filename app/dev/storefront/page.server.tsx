import { renderToStaticMarkup } from "react-dom/server";
import { directionOf } from "~/shared/locales";
import { DEMO_PRODUCT } from "./demo-product";
import { defaultLocale, readBlock, readLocales } from "./extension.server";
import { blockSchema, renderLiquid } from "./liquid.server";

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
  /** The cart's (presentment) currency, INR by default, and the rate Shopify's page states for it (window.Shopify.currency). */
  currency?: string;
  rate?: number;
  /** The block's "what the button buys" setting: this product, or the whole cart. */
  source?: "product" | "cart";
};

/**
 * A minimal product page with the COD Verify app block rendered from the extension's own Liquid and
 * locale files, and the block's JavaScript and stylesheet included the way Shopify includes an app
 * block's `javascript` and `stylesheet` (a deferred script and a stylesheet link). The page is React
 * rendered to static HTML; the block is the Liquid renderer's output, as a theme would place it.
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
      cart: { currency: { iso_code: options.currency ?? "INR" } },
      routes: { root_url: "/" },
      request: { locale: { iso_code: locale } },
      localization: { country: { iso_code: options.country ?? "IN" } },
      shop: { permanent_domain: options.shopDomain },
    },
    { translations: [locales[locale], locales[fallback]].filter(Boolean), assetBase: options.assetBase },
  );
  const asset = (name: string) => `${options.assetBase}/${encodeURIComponent(name)}`;

  return `<!doctype html>\n${renderToStaticMarkup(
    <html lang={locale} dir={directionOf(locale)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{`${DEMO_PRODUCT.title} – Demo Shop (local storefront)`}</title>
        {/* A constant of this file, not data: React would escape the `>` of its selectors. */}
        <style dangerouslySetInnerHTML={{ __html: PAGE_CSS }} />
        {schema.stylesheet ? <link rel="stylesheet" href={asset(schema.stylesheet)} media="all" /> : null}
        {/* What Shopify's content_for_header states on every storefront page: the presentment currency and its rate. */}
        <script dangerouslySetInnerHTML={{ __html: `window.Shopify=window.Shopify||{};window.Shopify.currency=${JSON.stringify({ active: options.currency ?? "INR", rate: String(options.rate ?? 1) })};` }} />
        {schema.javascript ? <script src={asset(schema.javascript)} defer /> : null}
      </head>
      <body>
        <div className="dev-banner">
          Local storefront emulation · app proxy at <code>{options.basePath}</code> ·{" "}
          {Object.keys(locales)
            .sort()
            .map((l, i) => (
              <span key={l}>
                {i ? " · " : null}
                {l === locale ? <strong>{l}</strong> : <a href={`?locale=${l}`}>{l}</a>}
              </span>
            ))}
        </div>
        <header className="shop-header">
          <a href="/dev/storefront" className="shop-name">
            Demo Shop
          </a>
          <span className="cart" aria-label="Cart">
            🛒
          </span>
        </header>
        <main>
          <section id="shopify-section-main-product" className="product">
            <div className="media" role="img" aria-label={DEMO_PRODUCT.title}>
              <svg viewBox="0 0 200 200" aria-hidden="true">
                <rect width="200" height="200" fill="#efe7dc" />
                <path d="M70 40h60l25 30-20 12v78H65V82L45 70z" fill="#c2703d" />
                <path d="M92 40h16v40h-16z" fill="#a85a2c" />
              </svg>
            </div>
            <div className="info">
              <p className="vendor">{DEMO_PRODUCT.vendor}</p>
              <h1>{DEMO_PRODUCT.title}</h1>
              <p className="price">
                <span className="now">{DEMO_PRODUCT.price}</span> <s>{DEMO_PRODUCT.compareAtPrice}</s>
              </p>
              <form method="post" action="/cart/add" className="product-form">
                <label>
                  Size{" "}
                  <select name="id" defaultValue={variant.id}>
                    {DEMO_PRODUCT.variants.map((v) => (
                      <option key={v.id} value={v.id}>
                        {v.title}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  Quantity <input type="number" name="quantity" defaultValue="1" min="1" max="99" />
                </label>
                <button type="submit" className="add">
                  Add to cart
                </button>
              </form>
              {/* The app block as the Liquid renderer wrote it (it escapes its own values), in the wrapper Shopify gives app blocks. */}
              <div id="shopify-block-cod-button" className="shopify-app-block" dangerouslySetInnerHTML={{ __html: block.trim() }} />
              <p className="description">{DEMO_PRODUCT.description}</p>
            </div>
          </section>
        </main>
      </body>
    </html>,
  )}\n`;
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
