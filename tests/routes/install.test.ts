import * as home from "~/routes/app._index";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { JOB_KINDS } from "~/server-build";
import { shopDetailsJobKey } from "~/core/settings/shop-install.server";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { useFakeShopify } from "../helpers/fake-shopify";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { FakeOrderStore } from "../mocks/shopify/orders";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { recentOrderGateways, themeAppBlocks } from "../mocks/shopify/onboarding";
import { tokenExchange } from "../mocks/shopify/token-exchange";

/**
 * A first visit to the embedded admin after Shopify installed the app (managed install): the library
 * trades the admin's session token for an offline token (token exchange, no OAuth redirect), then the
 * install hook records the shop's details and queues the install steps (app/server-build.ts
 * INSTALL_STEPS): the `enforcement-sync` job sets up the checkout function, which hides nothing until
 * the storefront can verify, and is retried with the queue's backoff when Shopify refuses.
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
  // The store has no orders yet: the install's risk backfill finds none.
  new FakeOrderStore().install(shopify);
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
    expect(await prisma.job.count({ where: { key: shopDetailsJobKey(NEW) } })).toBe(0);
    // The payment customization is the install's job, run by the worker after the answer.
    expect(await prisma.job.findFirst({ where: { kind: "enforcement-sync", shop: NEW } })).toMatchObject({ doneAt: null, attempts: 0 });
    await runDueJobs(JOB_KINDS);
    const [customization] = [...store.customizations.values()];
    expect(customization).toMatchObject({ enabled: false });
    expect(await prisma.shop.findUnique({ where: { domain: NEW } })).toMatchObject({ paymentCustomizationId: customization.id, paymentCustomizationError: null });
  });

  it("a payment customization Shopify refuses at install is retried by its job until it is made", async () => {
    shopify.on(OPERATIONS.shopDetails, () => ({ data: details }), "admin");
    // GIVEN Shopify fails the first create (a server error), then answers as usual.
    let refusals = 1;
    const create = store.paymentCustomizationCreate();
    shopify.on(
      OPERATIONS.paymentCustomizationCreate,
      (call) => (refusals-- > 0 ? { data: null, errors: [{ message: "Internal error. Looks like something went wrong on our end.", extensions: { code: "INTERNAL_SERVER_ERROR" } }] } : create(call)),
      "admin",
    );
    // WHEN the merchant's first visit installs the shop and the worker runs the install's job.
    expect((await callAdminRoute(home, await adminRequest("/app", { shop: NEW }))).status).toBe(200);
    await runDueJobs(JOB_KINDS);
    // THEN the failure is kept on the job and on the shop, nothing was made, and the job waits for its backoff.
    const job = await prisma.job.findFirstOrThrow({ where: { kind: "enforcement-sync", shop: NEW, key: `${NEW}|now` } });
    expect(job).toMatchObject({ attempts: 1, doneAt: null, failedAt: null });
    expect(job.lastError).toMatch(/Internal error|INTERNAL_SERVER_ERROR|server_error|http/i);
    expect(job.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(store.customizations.size).toBe(0);
    expect((await prisma.shop.findUnique({ where: { domain: NEW } }))?.paymentCustomizationError).toBeTruthy();
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ claimed: 0 });
    // AND once the backoff has passed, the retry makes the customization and clears the error.
    vi.spyOn(clock, "now").mockReturnValue(new Date(job.nextAttemptAt.getTime() + 1000));
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ claimed: 1, done: 1 });
    expect(store.customizations.size).toBe(1);
    const [customization] = [...store.customizations.values()];
    expect(await prisma.shop.findUnique({ where: { domain: NEW } })).toMatchObject({ paymentCustomizationId: customization.id, paymentCustomizationError: null });
    expect(await prisma.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ attempts: 2, lastError: null });
    expect((await prisma.job.findUniqueOrThrow({ where: { id: job.id } })).doneAt).not.toBeNull();
  });

  it("a refused ShopDetails read still installs the shop, and queues the read again", async () => {
    shopify.on(OPERATIONS.shopDetails, () => ({ data: null, errors: [{ message: "Access denied for shop field.", extensions: { code: "ACCESS_DENIED" } }] }), "admin");
    const res = await callAdminRoute(home, await adminRequest("/app", { shop: NEW }));
    expect(res.status).toBe(200);
    expect(await prisma.shop.findUnique({ where: { domain: NEW } })).toMatchObject({ name: null, uninstalledAt: null });
    expect(await prisma.job.findFirst({ where: { key: shopDetailsJobKey(NEW) } })).toMatchObject({ kind: "shop-details", doneAt: null });
  });
});
