import { env } from "~/env.server";
import { FakeShopify } from "~/dev/fake-shopify/server";
import { installDefaultHandlers } from "~/dev/fake-shopify/handlers";
import { redirectShopifyApi } from "~/shopify-api-origin.server";

/** The local checkout preview page that the fake's checkout URLs point at (app/routes/local.checkout.ts). */
export const LOCAL_CHECKOUT_PATH = "/local/checkout";

/**
 * Local mode with no Shopify store: an in-process fake Shopify answers the Admin and Storefront
 * calls, and its checkouts lead to a local preview page. Only in development with LOCAL_MODE on and
 * no SHOPIFY_API_ORIGIN; never in production (NODE_ENV=production) and never under tests, which start
 * their own fake.
 */
export const localFakeShopifyWanted = env.localMode && env.NODE_ENV === "development" && !env.SHOPIFY_API_ORIGIN;

declare global {
  var __codLocalShopify: Promise<void> | undefined;
}

export const localShopifyReady: Promise<void> = localFakeShopifyWanted
  ? (globalThis.__codLocalShopify ??= (async () => {
      const fake = installDefaultHandlers(new FakeShopify(), { checkoutBase: `${env.SHOPIFY_APP_URL}${LOCAL_CHECKOUT_PATH}` });
      const origin = await fake.start();
      redirectShopifyApi(origin);
      process.stdout.write(`local mode: fake Shopify at ${origin} answers Admin and Storefront calls\n`);
    })())
  : Promise.resolve();
