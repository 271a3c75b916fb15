import * as home from "~/routes/app._index";
import { prisma } from "~/core/db.server";
import { shopDetailsJobKey } from "~/core/settings/shop-install.server";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { useFakeShopify } from "../helpers/fake-shopify";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { recentOrderGateways, themeAppBlocks } from "../mocks/shopify/onboarding";
import { tokenExchange } from "../mocks/shopify/token-exchange";

/**
 * A first visit to the embedded admin after Shopify installed the app (managed install): the library
 * trades the admin's session token for an offline token (token exchange, no OAuth redirect), then the
 * install hook records the shop's details and sets up the checkout function, which hides nothing until
 * the storefront can verify.
 */
const NEW = "new-install.myshopify.com";
const shopify = useFakeShopify();
let store: FakeEnforcementStore;
const details = {
  shop: { name: "Nouvelle Boutique", currencyCode: "EUR", primaryDomain: { host: "boutique.example.fr", localization: { defaultLocale: "fr" } }, plan: { shopifyPlus: true, partnerDevelopment: false }, shopAddress: { countryCodeV2: "FR" }, ianaTimezone: "Europe/Paris" },
};

beforeEach(() => {
  store = new FakeEnforcementStore();
  handlers.installDefaultHandlers(shopify);
  store.install(shopify);
  tokenExchange(shopify, NEW);
  shopify.on(OPERATIONS.themeAppBlocks, themeAppBlocks({ withBlock: false }), "admin");
  shopify.on(OPERATIONS.recentOrderGateways, recentOrderGateways(), "admin");
});

describe("the first admin visit after a Shopify-managed install", () => {
  it("stores the exchanged offline token, records the shop's details, and sets up checkout hiding nothing yet", async () => {
    shopify.on(OPERATIONS.shopDetails, () => ({ data: details }), "admin");
    const res = await callAdminRoute(home, await adminRequest("/app", { shop: NEW }));
    expect(res.status).toBe(200);
    expect(await prisma.session.findUnique({ where: { id: `offline_${NEW}` } })).toMatchObject({ isOnline: false, accessToken: "shpat_exchanged_new-install" });
    expect(await prisma.shop.findUnique({ where: { domain: NEW } })).toMatchObject({
      name: "Nouvelle Boutique",
      currency: "EUR",
      primaryDomain: "boutique.example.fr",
      depositsAvailable: true,
      country: "FR",
      locale: "fr",
      uninstalledAt: null,
    });
    // The Admin API is called with the exchanged token.
    expect(shopify.callsTo(OPERATIONS.shopDetails)[0].headers["x-shopify-access-token"]).toBe("shpat_exchanged_new-install");
    const [customization] = [...store.customizations.values()];
    expect(customization).toMatchObject({ enabled: false });
    expect(await prisma.job.count({ where: { key: shopDetailsJobKey(NEW) } })).toBe(0);
  });

  it("a refused ShopDetails read still installs the shop, and queues the read again", async () => {
    shopify.on(OPERATIONS.shopDetails, () => ({ data: null, errors: [{ message: "Access denied for shop field.", extensions: { code: "ACCESS_DENIED" } }] }), "admin");
    const res = await callAdminRoute(home, await adminRequest("/app", { shop: NEW }));
    expect(res.status).toBe(200);
    expect(await prisma.shop.findUnique({ where: { domain: NEW } })).toMatchObject({ name: null, uninstalledAt: null });
    expect(await prisma.job.findFirst({ where: { key: shopDetailsJobKey(NEW) } })).toMatchObject({ kind: "shop-details", doneAt: null });
  });
});
