import { parse, type FieldNode, type OperationDefinitionNode } from "graphql";
import { prisma } from "~/core/db.server";
import { env } from "~/core/env.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { getShop, upsertInstalledShop } from "~/core/settings/shop.server";
import { recordInstall, shopDetailsJobKey } from "~/core/settings/shop-install.server";
import { shopDetailsJob } from "~/core/shopify/shop-details-job.server";
import { OPERATIONS, SHOP_DETAILS } from "~/core/shopify/operations";
import { clock } from "~/core/utils/clock.server";
import { useFakeShopify } from "../helpers/fake-shopify";
import { installedAccessToken } from "../mocks/shopify/tokens";

describe("installing and reinstalling a shop", () => {
  it("takes the store's language on the first install", async () => {
    await upsertInstalledShop("new-shop.myshopify.com", { name: "New", locale: "fr", currency: "EUR" });
    expect(await getShop("new-shop.myshopify.com")).toMatchObject({ name: "New", locale: "fr", currency: "EUR" });
  });

  it("keeps the language the merchant chose on a reinstall, refreshing the name and currency", async () => {
    await prisma.shop.create({ data: { domain: "back.myshopify.com", name: "Old", locale: "ar", currency: "MAD", uninstalledAt: new Date() } });
    await upsertInstalledShop("back.myshopify.com", { name: "Renamed", locale: "en", currency: "EUR" });
    expect(await prisma.shop.findUnique({ where: { domain: "back.myshopify.com" } })).toMatchObject({
      name: "Renamed",
      locale: "ar",
      currency: "EUR",
      uninstalledAt: null,
    });
  });
});

/**
 * The install reads the shop's details from the Admin API (SHOP_DETAILS), over HTTP to the fake Shopify
 * as the library's client does. A refusal or a failure is never "nothing to record": the read is queued
 * as a job, which retries until Shopify answers.
 */
describe("the shop's details at install", () => {
  const fake = useFakeShopify();
  const DOMAIN = "details-shop.myshopify.com";
  const admin = {
    graphql: (query: string) =>
      fetch(`${fake.origin}/${DOMAIN}/admin/api/2026-10/graphql.json`, { method: "POST", headers: { "content-type": "application/json", "x-shopify-access-token": installedAccessToken(DOMAIN) }, body: JSON.stringify({ query }) }),
  };
  const details = {
    shop: { name: "Dar Atlas", currencyCode: "MAD", primaryDomain: { host: "shop.daratlas.ma", localization: { defaultLocale: "fr" } }, plan: { shopifyPlus: false, partnerDevelopment: false }, shopAddress: { countryCodeV2: "MA" }, ianaTimezone: "Africa/Casablanca" },
  };
  // What Shopify answers a field the app's scopes do not cover: an error, the field's data null.
  const refusal = { data: null, errors: [{ message: "Access denied for shop field.", extensions: { code: "ACCESS_DENIED" } }] };
  const jobOf = () => prisma.job.findUnique({ where: { kind_key: { kind: shopDetailsJob.kind, key: shopDetailsJobKey(DOMAIN) } } });

  it("asks only for the shop (no root field that needs a scope the app does not request)", () => {
    const roots = (parse(SHOP_DETAILS).definitions[0] as OperationDefinitionNode).selectionSet.selections.map((s) => (s as FieldNode).name.value);
    expect(roots).toEqual(["shop"]);
  });

  it("records name, currency, domain, Plus, country and language when Shopify answers, and queues nothing", async () => {
    fake.on(OPERATIONS.shopDetails, () => ({ data: details }), "admin");
    await recordInstall(DOMAIN, admin);
    expect(await prisma.shop.findUnique({ where: { domain: DOMAIN } })).toMatchObject({
      name: "Dar Atlas",
      currency: "MAD",
      primaryDomain: "shop.daratlas.ma",
      depositsAvailable: false,
      country: "MA",
      locale: "fr",
    });
    expect(await jobOf()).toBeNull();
  });

  it("writes the row at once when the read is refused, and the queued job reads the details once Shopify answers", async () => {
    fake.on(OPERATIONS.shopDetails, () => refusal, "admin");
    await recordInstall(DOMAIN, admin);
    expect(await prisma.shop.findUnique({ where: { domain: DOMAIN } })).toMatchObject({ name: null, currency: null, uninstalledAt: null });
    expect(await jobOf()).toMatchObject({ shop: DOMAIN, doneAt: null, failedAt: null });
    // The job runs with the shop's offline session; Shopify still refuses: retried later, the error kept.
    await prisma.session.create({ data: { id: `offline_${DOMAIN}`, shop: DOMAIN, state: "installed", isOnline: false, scope: env.SCOPES, accessToken: installedAccessToken(DOMAIN) } });
    expect(await runDueJobs([shopDetailsJob])).toMatchObject({ claimed: 1, retried: 1 });
    expect((await jobOf())?.lastError).toMatch(/ACCESS_DENIED|Access denied/);
    // Shopify answers: the next run records the details, the store's language too (first install).
    fake.on(OPERATIONS.shopDetails, () => ({ data: details }), "admin");
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 3600_000));
    expect(await runDueJobs([shopDetailsJob])).toMatchObject({ claimed: 1, done: 1 });
    expect(await prisma.shop.findUnique({ where: { domain: DOMAIN } })).toMatchObject({ name: "Dar Atlas", currency: "MAD", country: "MA", locale: "fr", depositsAvailable: false });
    expect(fake.callsTo(OPERATIONS.shopDetails).at(-1)?.shop).toBe(DOMAIN);
  });

  it("keeps a language the merchant chose while the read waited (first install)", async () => {
    fake.on(OPERATIONS.shopDetails, () => refusal, "admin");
    await recordInstall(DOMAIN, admin);
    expect(await jobOf()).toMatchObject({ payload: JSON.stringify({ seedLocaleFrom: "en" }) });
    await prisma.shop.update({ where: { domain: DOMAIN }, data: { locale: "ar" } }); // the settings page
    fake.on(OPERATIONS.shopDetails, () => ({ data: details }), "admin");
    await prisma.session.create({ data: { id: `offline_${DOMAIN}`, shop: DOMAIN, state: "installed", isOnline: false, scope: env.SCOPES, accessToken: installedAccessToken(DOMAIN) } });
    expect(await runDueJobs([shopDetailsJob])).toMatchObject({ done: 1 });
    expect(await prisma.shop.findUnique({ where: { domain: DOMAIN } })).toMatchObject({ name: "Dar Atlas", locale: "ar" });
  });

  it("keeps the merchant's language on a reinstall", async () => {
    await prisma.shop.create({ data: { domain: DOMAIN, locale: "ar", uninstalledAt: new Date() } });
    fake.on(OPERATIONS.shopDetails, () => ({ status: 503 }), "admin");
    await recordInstall(DOMAIN, admin);
    expect(await jobOf()).toMatchObject({ payload: JSON.stringify({ seedLocaleFrom: null }) });
    fake.on(OPERATIONS.shopDetails, () => ({ data: details }), "admin");
    await prisma.session.create({ data: { id: `offline_${DOMAIN}`, shop: DOMAIN, state: "installed", isOnline: false, scope: env.SCOPES, accessToken: installedAccessToken(DOMAIN) } });
    expect(await runDueJobs([shopDetailsJob])).toMatchObject({ done: 1 });
    expect(await prisma.shop.findUnique({ where: { domain: DOMAIN } })).toMatchObject({ name: "Dar Atlas", locale: "ar" });
  });
});
