import * as index from "~/routes/app.settings._index";
import * as settings from "~/routes/app.settings.$section";
import * as config from "~/routes/proxy.api.config";
import { prisma } from "~/core/db.server";
import { SETTINGS, SETTINGS_SECTIONS, sectionFields, type SettingsSectionId } from "~/core/settings/registry";
import { settingsFormValues, type SettingsField, type SettingsFormValues } from "~/core/settings/settings";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { useFakeShopify } from "../helpers/fake-shopify";
import { tokenExchange } from "../mocks/shopify/token-exchange";

type Answer = { status?: string; values: SettingsFormValues; errors: Partial<Record<SettingsField, string>> };

async function load(options: Parameters<typeof adminRequest>[1] = {}, section: SettingsSectionId = "codes") {
  return callAdminRoute<Answer>(settings, await adminRequest(`/app/settings/${section}`, options), { section });
}

/** Posts to one section's page (the whole form may be posted: the section reads its own fields only). */
async function save(form: Record<string, string>, options: Parameters<typeof adminRequest>[1] = {}, section: SettingsSectionId = "codes") {
  return callAdminRoute<Answer>(settings, await adminRequest(`/app/settings/${section}`, { ...options, form }), { section });
}

/** Each section's page posts its own fields, one after the other, as a merchant saving every page would. */
async function saveEverySection(form: Record<string, string>) {
  const answers = [];
  for (const { id } of SETTINGS_SECTIONS) {
    if (id === "experiment") continue;
    answers.push(await save(Object.fromEntries(sectionFields(id).map((f) => [f, form[f]])), {}, id));
  }
  return answers;
}

const only = (form: Record<string, string>, section: SettingsSectionId) => Object.fromEntries(sectionFields(section).map((f) => [f, form[f]]));

/** The settings columns and the ones the page must never touch, as stored. */
async function row(domain = SHOP) {
  return prisma.shop.findUniqueOrThrow({ where: { domain } });
}

/** The form exactly as the page posts it for the shop as stored, with some fields changed. */
async function formWith(changes: Partial<SettingsFormValues> = {}): Promise<Record<string, string>> {
  return { ...settingsFormValues(await row()), ...changes };
}

describe("GET /app/settings", () => {
  it("shows the shop's current settings to an authenticated admin", async () => {
    await installShop({ otpTtlSeconds: 900, allowedCountries: "IN,AE", smsTemplate: "{code} at {shop}", depositType: "fixed", depositValue: 150, tagVerified: "ok-cod" });
    const res = await load();
    expect(res.status).toBe(200);
    expect(res.data?.values).toMatchObject({
      otpEnabled: "true",
      otpTtlSeconds: "900",
      otpResendCooldownSeconds: "30",
      allowedCountries: "IN, AE",
      smsChannel: "sms",
      smsTemplate: "{code} at {shop}",
      locale: "en",
      discountCodeCod: "",
      depositType: "fixed",
      depositValue: "150",
      tagOrders: "true",
      tagVerified: "ok-cod",
      tagModePrefix: "payment-mode:",
      addressCorrectionTtlHours: "72",
      autoAddressCorrection: "false",
    });
  });

  it("lists every section on the index, and answers 404 for a section that does not exist", async () => {
    await installShop();
    expect((await callAdminRoute(index, await adminRequest("/app/settings"))).status).toBe(200);
    for (const { id } of SETTINGS_SECTIONS) expect((await load({}, id)).status).toBe(200);
    expect((await load({}, "everything" as SettingsSectionId)).status).toBe(404);
  });

  it("says which way this store takes a partial deposit: Shopify's draft-order deposit (Plus), a deposit code, or not known yet", async () => {
    const shop = await installShop({ depositsAvailable: true });
    const pattern = async () => ((await load({}, "checkout")).data as unknown as { figures: { depositPattern: string } }).figures.depositPattern;
    expect(await pattern()).toBe("draft-order-deposit");
    await prisma.shop.update({ where: { id: shop.id }, data: { depositsAvailable: false } });
    const { forgetShop } = await import("~/core/settings/shop.server");
    forgetShop(SHOP);
    expect(await pattern()).toBe("deposit-code");
    await prisma.shop.update({ where: { id: shop.id }, data: { depositsAvailable: null } });
    forgetShop(SHOP);
    expect(await pattern()).toBe("unknown");
  });

  it("shows the language the texts are written in when the stored one has none", async () => {
    await installShop({ locale: "de" });
    expect((await load()).data?.values.locale).toBe("en");
  });
});

describe("POST /app/settings/:section", () => {
  it("saves every setting, section by section, and shows each page again with what was stored", async () => {
    await installShop();
    const answers = await saveEverySection(
      await formWith({
        otpEnabled: "false",
        returningSkipDays: "0",
        otpSendLimit: "5",
        otpSendWindowSeconds: "3600",
        otpTtlSeconds: "300",
        otpResendCooldownSeconds: "45",
        otpMaxAttempts: "3",
        dailySendCap: "200",
        allowedCountries: "in; ae ma, IN",
        smsChannel: "whatsapp",
        smsTemplate: "  {code} is your {shop} code  ",
        locale: "fr",
        discountCodeCod: "COD5",
        discountCodePrepaid: "PREPAID10",
        discountCodePartial: "",
        depositType: "percentage",
        depositValue: "33,5",
        tagOrders: "false",
        tagVerified: "verified",
        tagUnverified: "not verified",
        tagModePrefix: "mode-",
        addressCorrectionTtlHours: "24",
        autoAddressCorrection: "true",
        recordRetentionDays: "90",
      }),
    );
    expect(answers.map((a) => [a.status, a.data?.status])).toEqual(answers.map(() => [200, "saved"]));
    const res = answers[0];
    expect(await row()).toMatchObject({
      otpEnabled: false,
      returningSkipDays: 0,
      otpSendLimit: 5,
      otpSendWindowSeconds: 3600,
      otpTtlSeconds: 300,
      otpResendCooldownSeconds: 45,
      otpMaxAttempts: 3,
      dailySendCap: 200,
      allowedCountries: "IN,AE,MA",
      smsChannel: "whatsapp",
      smsTemplate: "{code} is your {shop} code",
      locale: "fr",
      discountCodeCod: "COD5",
      discountCodePrepaid: "PREPAID10",
      discountCodePartial: null,
      depositType: "percentage",
      depositValue: 33.5,
      tagOrders: false,
      tagVerified: "verified",
      tagUnverified: "not verified",
      tagModePrefix: "mode-",
      addressCorrectionTtlHours: 24,
      autoAddressCorrection: true,
      recordRetentionDays: 90,
    });
    expect(res.data?.values).toMatchObject({ allowedCountries: "IN, AE, MA", smsTemplate: "{code} is your {shop} code" });
    expect(answers[1].data?.values).toMatchObject({ depositValue: "33.5" });
    expect(res.data?.errors).toEqual({});
  });

  it("writes only the posted section's columns: another section's field in the same post, valid or not, is left alone", async () => {
    await installShop();
    const before = await row();
    const res = await save(await formWith({ tagVerified: "ok-cod", recordRetentionDays: "nonsense", otpMaxAttempts: "7" }), {}, "codes");
    expect(res.data?.status).toBe("saved");
    expect(Object.keys(res.data?.errors ?? {})).toEqual([]);
    expect(await row()).toMatchObject({ otpMaxAttempts: 7, tagVerified: before.tagVerified, recordRetentionDays: before.recordRetentionDays });
    const refused = await save(await formWith({ tagVerified: "", otpMaxAttempts: "8" }), {}, "orders");
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.data?.errors ?? {})).toEqual(["tagVerified"]);
    expect(Object.keys(refused.data?.values ?? {}).sort()).toEqual([...sectionFields("orders")].sort());
    expect((await row()).otpMaxAttempts).toBe(7);
  });

  it("saves the failed parcel's cost in one place, and a saved cost saves again unchanged", async () => {
    await installShop();
    const res = await save({ codFailureCost: "180,50", messageCost: "0.0079" }, {}, "costs");
    expect(res.data?.status).toBe("saved");
    expect(await row()).toMatchObject({ codFailureCost: 180.5, messageCost: 0.0079 });
    const again = await save(only(res.data!.values, "costs"), {}, "costs");
    expect(again.data?.status).toBe("saved");
    expect(await row()).toMatchObject({ codFailureCost: 180.5, messageCost: 0.0079 });
  });

  it("is seen by the storefront at once: /proxy/api/config follows the save", async () => {
    await installShop();
    // GIVEN the storefront has read (and cached) the shop's settings
    expect(await jsonOf(await callRoute(config, signedRequest("/api/config")))).toMatchObject({ otpEnabled: true, resendAfter: 30 });
    // WHEN the merchant turns the codes off and changes the resend wait
    expect((await save(await formWith({ otpEnabled: "false", otpResendCooldownSeconds: "90" }))).status).toBe(200);
    // THEN the next storefront request sees both
    expect(await jsonOf(await callRoute(config, signedRequest("/api/config")))).toMatchObject({ otpEnabled: false, resendAfter: 90 });
  });

  it("clears optional texts left empty", async () => {
    await installShop({ smsTemplate: "{code}", discountCodeCod: "COD5", allowedCountries: "IN" });
    expect((await save(await formWith({ smsTemplate: " ", allowedCountries: "" }))).status).toBe(200);
    expect((await save(await formWith({ discountCodeCod: "" }), {}, "checkout")).status).toBe(200);
    expect(await row()).toMatchObject({ smsTemplate: null, discountCodeCod: null, allowedCountries: "" });
  });

  it("saves countries typed rather than picked (codes or names), and send-otp's list follows", async () => {
    await installShop({ allowedCountries: "" });
    // The page posts the chosen tags and the text left in the field, comma-separated.
    const res = await save(await formWith({ allowedCountries: "IN, AE,Kenya" }));
    expect(res.status).toBe(200);
    expect(res.data?.status).toBe("saved");
    expect((await row()).allowedCountries).toBe("IN,AE,KE");
    expect(res.data?.values.allowedCountries).toBe("IN, AE, KE");
  });

  const invalid: [SettingsField, string, RegExp][] = [
    ["otpEnabled", "yes", /on or off/],
    ["returningSkipDays", "-1", /from 0 to 365/],
    ["otpSendLimit", "0", /from 1 to 20/],
    ["otpSendWindowSeconds", "30", /from 60 to 86,400/],
    ["otpTtlSeconds", "59", /from 60 to 3,600/],
    ["otpTtlSeconds", "3601", /from 60 to 3,600/],
    ["otpResendCooldownSeconds", "601", /from 0 to 600/],
    ["otpMaxAttempts", "11", /from 1 to 10/],
    ["otpMaxAttempts", "2.5", /whole number/],
    ["dailySendCap", "0", /from 1 to/],
    ["dailySendCap", "lots", /whole number/],
    ["allowedCountries", "IN, XX, Indya", /: XX, Indya\. Type a country/],
    ["smsChannel", "pigeon", /SMS or WhatsApp/],
    ["smsTemplate", "Your code is below", /\{code\}/],
    ["locale", "de", /listed languages/],
    ["discountCodeCod", "A".repeat(256), /255 characters/],
    ["depositType", "half", /percentage or a fixed amount/],
    ["depositValue", "100", /from 1 to 99/],
    ["depositValue", "0", /from 1 to 99/],
    ["depositValue", "abc", /Enter a number such as 120/],
    ["codFailureCost", "12.345", /up to two decimals/],
    ["messageCost", "free", /up to four decimals/],
    ["tagOrders", "", /on or off/],
    ["tagVerified", "  ", /Enter a tag/],
    ["tagUnverified", "cod,unverified", /comma/],
    ["tagModePrefix", "p".repeat(34), /33 characters/],
    ["addressCorrectionTtlHours", "0", /from 1 to 168/],
    ["recordRetentionDays", "400", /from 30 to 365/],
  ];

  it.each(invalid)("refuses %s = %j with 422 naming the field, keeps what was typed and changes nothing", async (field, value, message) => {
    await installShop();
    const before = await row();
    const section = SETTINGS[field].section;
    const form = await formWith({ otpTtlSeconds: "900", [field]: value });
    const res = await save(form, {}, section);
    expect(res.status).toBe(422);
    expect(res.data?.status).toBe("invalid");
    expect(Object.keys(res.data?.errors ?? {})).toEqual([field]);
    expect(res.data?.errors[field]).toMatch(message);
    // Every value of the section comes back exactly as typed, the valid change included.
    expect(res.data?.values).toEqual(only(form, section));
    expect(await row()).toEqual(before);
  });

  it("refuses a fixed deposit of 0 and accepts any positive amount", async () => {
    await installShop();
    const refused = await save(await formWith({ depositType: "fixed", depositValue: "0" }), {}, "checkout");
    expect(refused.status).toBe(422);
    expect(refused.data?.errors.depositValue).toMatch(/above 0/);
    expect((await save(await formWith({ depositType: "fixed", depositValue: "250.50" }), {}, "checkout")).status).toBe(200);
    expect(await row()).toMatchObject({ depositType: "fixed", depositValue: 250.5 });
  });

  it("names every missing field when the form is incomplete, and writes nothing", async () => {
    await installShop();
    const before = await row();
    const { otpEnabled: _a, otpSendLimit: _b, ...partial } = await formWith();
    const res = await save({ ...partial, otpTtlSeconds: "120" });
    expect(res.status).toBe(422);
    expect(Object.keys(res.data?.errors ?? {}).sort()).toEqual(["otpEnabled", "otpSendLimit"]);
    expect(await row()).toEqual(before);
  });

  it("writes only the settings: the shop's domain, subscription and install state cannot be set through the form", async () => {
    await installShop({ subscriptionStatus: "cancelled" });
    const before = await row();
    const res = await save({
      ...(await formWith({ otpMaxAttempts: "7" })),
      domain: "evil.myshopify.com",
      subscriptionStatus: "active",
      subscriptionPlan: "Free forever",
      id: "other",
      uninstalledAt: "2020-01-01T00:00:00Z",
      name: "Renamed",
    });
    expect(res.status).toBe(200);
    const after = await row();
    expect(after.otpMaxAttempts).toBe(7);
    expect(after).toMatchObject({
      id: before.id,
      domain: SHOP,
      name: before.name,
      subscriptionStatus: "cancelled",
      subscriptionPlan: null,
      uninstalledAt: null,
      installedAt: before.installedAt,
    });
    expect(await prisma.shop.count()).toBe(1);
  });

  it("changes only the shop named by the session token", async () => {
    await installShop();
    await installShop({ domain: "other-shop.myshopify.com" });
    const res = await save(await formWith({ otpMaxAttempts: "2" }), { shop: "other-shop.myshopify.com" });
    expect(res.status).toBe(200);
    expect((await row("other-shop.myshopify.com")).otpMaxAttempts).toBe(2);
    expect((await row()).otpMaxAttempts).toBe(5);
  });
});

describe("/app/settings/:section without a valid admin session", () => {
  // No token: the library sends the browser to log in; a bad token: 401, and App Bridge retries with a fresh one.
  const cases: [string, Parameters<typeof adminRequest>[1], number][] = [
    ["no session token", { unauthenticated: true }, 302],
    ["a token signed with another secret", { secret: "not-the-app-secret-at-all" }, 401],
    ["an expired token", { token: { exp: Math.floor(Date.now() / 1000) - 60 } }, 401],
    ["a token for another app", { token: { aud: "someone-elses-api-key" } }, 401],
  ];

  it.each(cases)("%s: GET shows no settings", async (_name, options, status) => {
    await installShop({ smsTemplate: "{code} secret-template" });
    const res = await load(options);
    expect(res.data).toBeNull();
    expect(res.status).toBe(status);
    expect(await res.response!.text()).not.toContain("secret-template");
  });

  it.each(cases)("%s: POST changes nothing", async (_name, options, status) => {
    await installShop();
    const before = await row();
    const res = await save(await formWith({ otpEnabled: "false", otpMaxAttempts: "9" }), options);
    expect(res.data).toBeNull();
    expect(res.status).toBe(status);
    expect(await row()).toEqual(before);
  });

  describe("a shop without a session", () => {
    // Token exchange (Shopify-managed install): the app trades the session token with Shopify, which
    // refuses one for a shop that did not install the app.
    const shopify = useFakeShopify((fake) => tokenExchange(fake, "stranger.myshopify.com", { installed: false }));

    it("a valid token for a shop that has not installed the app reads and writes nothing", async () => {
      await installShop();
      const res = await save(await formWith({ otpMaxAttempts: "9" }), { shop: "stranger.myshopify.com" });
      expect(res.data).toBeNull();
      expect(res.status).toBe(401);
      expect(await prisma.shop.findUnique({ where: { domain: "stranger.myshopify.com" } })).toBeNull();
      expect(await prisma.session.count({ where: { shop: "stranger.myshopify.com" } })).toBe(0);
      expect((await row()).otpMaxAttempts).toBe(5);
      expect(shopify.calls).toEqual([]); // no Admin API call for a shop that has no token
    });
  });
});
