/**
 * Access tokens as the fake Shopify issues them: one per shop, good only for that shop. A test's
 * installed shop holds `installedAccessToken(domain)` (tests/helpers/shops.ts), which the fake knows as
 * issued at install; the token exchange and local mode's demo shop register theirs
 * (`FakeShopify.issueToken`). Any other token, or none, is answered as Shopify answers it: HTTP 401.
 */
export const DEFAULT_TEST_SHOP = "test-shop.myshopify.com";

export function installedAccessToken(shop: string): string {
  return shop === DEFAULT_TEST_SHOP ? "shpat_test_token" : `shpat_test_${shop.split(".")[0]}`;
}

/** Shopify's answer to a request with no access token, or one it did not issue for this shop (Admin API). */
export const UNAUTHORIZED = {
  status: 401,
  body: { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" },
  headers: { "www-authenticate": 'Basic Realm="Shopify API Authentication"' },
};

/** The access token `npm run setup` installs for local mode's demo shop (scripts/setup.mjs). */
export const LOCAL_DEMO_SHOP_TOKEN = "shpat_local_demo_token";

/** A fake that knows local mode's demo shop as Shopify would: its install token issued (for a built server started by the tests in local mode). */
export function servingLocalDemoShop<T extends { issueToken(shop: string, token: string): T }>(fake: T): T {
  return fake.issueToken(process.env.DEMO_SHOP || "demo-shop.myshopify.com", LOCAL_DEMO_SHOP_TOKEN);
}
