import { env } from "~/env.server";
import { FakeShopify } from "~/dev/fake-shopify/server";
import { installDefaultHandlers } from "~/dev/fake-shopify/handlers";
import { FakeOrderStore, fakeOrder } from "~/dev/fake-shopify/handlers/orders";
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
      // A demo order (#1001, id 1001) whose address the address-correction flow can fix.
      new FakeOrderStore([fakeOrder({ id: "gid://shopify/Order/1001", name: "#1001" })]).install(fake);
      const origin = await fake.start();
      redirectShopifyApi(origin);
      process.stdout.write(`local mode: fake Shopify at ${origin} answers Admin and Storefront calls\n`);
    })())
  : Promise.resolve();
