import * as shopUpdate from "~/routes/webhooks.shop.update";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import { getShop, readShopDetails } from "~/core/settings/shop.server";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";
import { useFakeShopify } from "../helpers/fake-shopify";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

const fake = useFakeTwilio();
// orders/create reads the order back from the shop before acting on it.
const shopify = useFakeShopify();
beforeEach(() => shopify.on(OPERATIONS.orderReadBack, handlers.orderReadBack(), "admin"));

describe("the shop's primary domain, learnt from Shopify and kept current", () => {
  it("is read at install with the shop's name, currency, plan, country and language (Admin GraphQL shop.primaryDomain)", () => {
    const reply = {
      data: {
        shop: {
          name: "Acme",
          currencyCode: "INR",
          primaryDomain: { host: "Shop.Acme.in", localization: { defaultLocale: "hi" } },
          plan: { shopifyPlus: true },
          shopAddress: { countryCodeV2: "IN" },
        },
      },
    };
    expect(readShopDetails(reply)).toEqual({ name: "Acme", currency: "INR", primaryDomain: "shop.acme.in", depositsAvailable: true, locale: "hi", country: "IN" });
    expect(readShopDetails({ data: { shop: { primaryDomain: { host: "shop.acme.in", localization: { defaultLocale: "pt-BR" } } } } })).toEqual({ primaryDomain: "shop.acme.in", locale: "pt" });
    // A domain that redirects has no localization: no language, the rest still read.
    expect(readShopDetails({ data: { shop: { name: "A", primaryDomain: { host: "a.example", localization: null } } } })).toEqual({ name: "A", primaryDomain: "a.example" });
    expect(readShopDetails({ data: { shop: { primaryDomain: { host: "not a host" } } } })).toEqual({});
    expect(readShopDetails(null)).toEqual({});
  });

  it("follows shop/update, and the next code SMS names the new domain on its last line", async () => {
    await installShop({ primaryDomain: null, otpResendCooldownSeconds: 0 });
    const phone = "+14155550123";
    await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone } }));
    expect(fake.twilio.messages[0].body.split("\n").at(-1)).toBe(`@${SHOP} #${fake.twilio.codeFor(phone)}`); // not known yet: the myshopify domain

    const res = await callRoute(
      shopUpdate,
      signedWebhook("shop/update", { id: 1, name: "Acme Store", domain: "www.acme-store.com", myshopify_domain: SHOP, currency: "EUR", plan_name: "basic" }),
    );
    expect(res.status).toBe(200);
    expect(await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).toMatchObject({
      primaryDomain: "www.acme-store.com",
      name: "Acme Store",
      currency: "EUR",
      depositsAvailable: false, // a Basic plan takes no draft-order deposits
    });
    expect((await getShop(SHOP))?.primaryDomain).toBe("www.acme-store.com"); // the cache was dropped

    await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone } }));
    expect(fake.twilio.messages[1].body.split("\n").at(-1)).toBe(`@www.acme-store.com #${fake.twilio.codeFor(phone)}`);
  });

  it("ignores a shop/update without usable fields, and refuses an unsigned one", async () => {
    await installShop({ primaryDomain: "keep.example.com" });
    expect((await callRoute(shopUpdate, signedWebhook("shop/update", { domain: "not a domain", currency: 12 }))).status).toBe(200);
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).primaryDomain).toBe("keep.example.com");
    const forged = signedWebhook("shop/update", { domain: "evil.example.com" }, { secret: "wrong-secret" });
    expect((await callRoute(shopUpdate, forged)).status).toBe(401);
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).primaryDomain).toBe("keep.example.com");
  });
});

describe("the shop's country, learnt from Shopify", () => {
  it("follows shop/update, and an order with no address country reads a national phone in it", async () => {
    await installShop({ allowedCountries: "" });
    const update = { id: 1, name: "Souk", domain: "souk.example.ma", myshopify_domain: SHOP, currency: "MAD", country_code: "MA", country_name: "Morocco" };
    expect((await callRoute(shopUpdate, signedWebhook("shop/update", update))).status).toBe(200);
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).country).toBe("MA");

    // As Shopify sends an order typed without an address country: a national number and nothing else to read it by.
    const order = orderCreatedPayload({
      phone: "0612-345678",
      billing_address: { first_name: "Amina", phone: null, country_code: null },
      shipping_address: null,
    });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { orderGid: order.admin_graphql_api_id } })).toMatchObject({ phone: "+212612345678" });
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ phone: "+212612345678" });
  });

  it("keeps the country when a shop/update carries none or a malformed one", async () => {
    await installShop({ country: "MA" });
    await callRoute(shopUpdate, signedWebhook("shop/update", { id: 1, name: "Souk", myshopify_domain: SHOP, country_code: null }));
    await callRoute(shopUpdate, signedWebhook("shop/update", { id: 1, name: "Souk", myshopify_domain: SHOP, country_code: "Morocco" }));
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).country).toBe("MA");
  });
});

describe("the shop's time zone (the confirmation ladder's quiet hours), learnt from Shopify", () => {
  it("follows shop/update's iana_timezone, and keeps it when the update carries none or one the runtime does not know", async () => {
    await installShop();
    await callRoute(shopUpdate, signedWebhook("shop/update", { id: 1, name: "Souk", myshopify_domain: SHOP, iana_timezone: "Africa/Casablanca" }));
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).timezone).toBe("Africa/Casablanca");
    await callRoute(shopUpdate, signedWebhook("shop/update", { id: 1, name: "Souk", myshopify_domain: SHOP, iana_timezone: null }));
    await callRoute(shopUpdate, signedWebhook("shop/update", { id: 1, name: "Souk", myshopify_domain: SHOP, iana_timezone: "Mars/Olympus_Mons" }));
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).timezone).toBe("Africa/Casablanca");
  });
});
