import * as route from "~/routes/proxy.create-checkout";
import { prisma } from "~/core/db.server";
import { markPhoneVerified } from "~/otp/verified-phones.server";
import { recordSelection } from "~/otp/selection.server";
import { forgetPaymentTermsTemplate } from "~/checkout/checkout.server";
import { shopifyCallLimits } from "~/core/shopify/graphql.server";
import * as handlers from "../mocks/shopify/handlers";
import { FakeDepositStore } from "../mocks/shopify/deposits";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { describeProxyEdge } from "../helpers/proxy-edge";
import { installShop, SHOP } from "../helpers/shops";
import { checkProof, issueDeviceToken, issueProof } from "~/otp/proof.server";

const PHONE = "+212600000001";
const fake = useFakeShopify((f) => handlers.installDefaultHandlers(f));

beforeEach(() => {
  handlers.installDefaultHandlers(fake);
  forgetPaymentTermsTemplate();
  shopifyCallLimits.timeoutMs = 4000;
});

function post(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return callRoute(route, signedRequest("/create-checkout", { body, headers }));
}

describeProxyEdge("POST /create-checkout", route, {
  path: "/create-checkout",
  method: "POST",
  validBody: { phone: PHONE, selectedMode: "prepaid", variantId: "123" },
  requiredFields: ["phone", "selectedMode", "variantId"],
});

describe("POST /create-checkout: cod and prepaid build a Storefront cart", () => {
  it("GIVEN a verified phone WHEN cod THEN cartCreate gets the items, our attributes, the buyer's phone, the cod discount and the buyer IP", async () => {
    await installShop({ discountCodeCod: "COD5" });
    const proof = issueProof(SHOP, { phone: PHONE, mode: "cod", selectionId: "fromverifyotp" }).token;
    const res = await post(
      { phone: PHONE, selectedMode: "cod", variantId: "44556677", quantity: 2, productTitle: "Mug", proof },
      { "x-forwarded-for": "10.0.0.1, 203.0.113.7" },
    );
    expect(res.status).toBe(200);
    const body = await jsonOf(res);
    expect(body.checkoutUrl).toMatch(/^https:\/\/test-shop\.myshopify\.com\/cart\/c\//);

    const [call] = fake.callsTo(OPERATIONS.cartCreate);
    expect(call.api).toBe("storefront");
    expect(call.headers["shopify-storefront-buyer-ip"]).toBe("203.0.113.7");
    expect(call.headers["shopify-storefront-private-token"]).toBe("shpat_test_token");
    const selection = await prisma.selection.findFirstOrThrow();
    expect(call.variables.input).toEqual({
      lines: [{ merchandiseId: "gid://shopify/ProductVariant/44556677", quantity: 2 }],
      attributes: [
        { key: "_cod_selection", value: selection.id },
        { key: "_cod_payment_mode", value: "cod" },
        { key: "_cod_phone_verified", value: "true" },
        { key: "_cod_phone", value: PHONE },
        { key: "_cod_proof", value: expect.stringMatching(/^v1\.212600000001\.cod\.\d+\.[a-z0-9]+\.[0-9a-f]{32}$/) },
      ],
      buyerIdentity: { phone: PHONE, countryCode: "MA" },
      discountCodes: ["COD5"],
    });
    // A fresh proof, bound to this checkout's selection, that the app itself accepts.
    const attrs = (call.variables.input as { attributes: { key: string; value: string }[] }).attributes;
    const onCart = checkProof(SHOP, attrs.find((a) => a.key === "_cod_proof")!.value);
    expect(onCart).toMatchObject({ ok: true, proof: { phone: PHONE, mode: "cod", selectionId: selection.id } });
    expect(selection).toMatchObject({
      mode: "cod",
      verified: true,
      source: "create-checkout",
      checkoutUrl: body.checkoutUrl,
      cartToken: expect.stringMatching(/^c1-[0-9a-f]+$/),
      items: JSON.stringify([{ variantId: "gid://shopify/ProductVariant/44556677", quantity: 2 }]),
    });
  });

  it("prepaid needs no verification, applies the prepaid incentive code and takes lines[] (gids and numbers, merged)", async () => {
    await installShop({ discountCodePrepaid: "PREPAID10" });
    const res = await post({
      phone: PHONE,
      selectedMode: "prepaid",
      cartToken: "cart-abc",
      lines: [
        { variantId: "gid://shopify/ProductVariant/1", quantity: 1 },
        { variantId: 2, quantity: 3 },
        { variantId: "1", quantity: 2 },
      ],
    });
    expect(await jsonOf(res)).toEqual({ checkoutUrl: expect.any(String) });
    const input = fake.callsTo(OPERATIONS.cartCreate)[0].variables.input as Record<string, unknown>;
    expect(input.lines).toEqual([
      { merchandiseId: "gid://shopify/ProductVariant/1", quantity: 3 },
      { merchandiseId: "gid://shopify/ProductVariant/2", quantity: 3 },
    ]);
    expect(input.discountCodes).toEqual(["PREPAID10"]);
    expect(input.attributes).toContainEqual({ key: "_cod_phone_verified", value: "false" });
    expect(await prisma.selection.findFirstOrThrow()).toMatchObject({ mode: "prepaid", verified: false, cartToken: "cart-abc" });
  });

  it("sends no discountCodes when the shop configured none", async () => {
    await installShop();
    await post({ phone: PHONE, selectedMode: "prepaid", variantId: "9" });
    expect(fake.callsTo(OPERATIONS.cartCreate)[0].variables.input).not.toHaveProperty("discountCodes");
  });
});

describe("POST /create-checkout: the COD gate", () => {
  it("answers 403 phone_not_verified for cod when OTP is on and the phone never verified, and calls no Shopify API", async () => {
    await installShop();
    const res = await post({ phone: PHONE, selectedMode: "cod", variantId: "1" });
    expect(res.status).toBe(403);
    expect(await jsonOf(res)).toMatchObject({ code: "phone_not_verified", error: expect.any(String) });
    expect(fake.calls).toHaveLength(0);
  });

  it("lets cod through when the shop turned OTP off (selection recorded unverified)", async () => {
    await installShop({ otpEnabled: false });
    const res = await post({ phone: PHONE, selectedMode: "cod", variantId: "1" });
    expect(await jsonOf(res)).toHaveProperty("checkoutUrl");
    expect(await prisma.selection.findFirstOrThrow()).toMatchObject({ verified: false, mode: "cod" });
  });

  it("accepts cod with the proof verify-otp gave this caller, even with the returning window off", async () => {
    const shop = await installShop({ returningSkipDays: 0 });
    const selection = await recordSelection({ shopId: shop.id, phone: PHONE, mode: "prepaid", source: "verify-otp", verified: true });
    const proof = issueProof(SHOP, { phone: PHONE, mode: "prepaid", selectionId: selection.id }).token;
    const res = await post({ phone: PHONE, selectedMode: "cod", variantId: "1", proof });
    expect(await jsonOf(res)).toHaveProperty("checkoutUrl");
    const rows = await prisma.selection.findMany();
    expect(rows).toHaveLength(1); // the journey's selection is updated, not duplicated
    expect(rows[0]).toMatchObject({ mode: "cod", verified: true, source: "create-checkout" });
  });

  it("does not let a caller ride on someone else's verification: a verified phone without this caller's proof is refused", async () => {
    const shop = await installShop();
    // The owner of PHONE verified minutes ago and again long ago (returning customer).
    await recordSelection({ shopId: shop.id, phone: PHONE, mode: "cod", source: "verify-otp", verified: true });
    await markPhoneVerified(shop.id, PHONE);
    const stranger = await post({ phone: PHONE, selectedMode: "cod", variantId: "1" });
    expect(stranger.status).toBe(403);
    expect(await jsonOf(stranger)).toMatchObject({ code: "phone_not_verified" });
    expect(fake.calls).toHaveLength(0);
    // Tokens that are not for this phone, this shop or this purpose prove nothing either.
    const otherPhone = issueProof(SHOP, { phone: "+212600000009", mode: "cod", selectionId: "abc" }).token;
    const otherShop = issueProof("other-shop.myshopify.com", { phone: PHONE, mode: "cod", selectionId: "abc" }).token;
    const forged = otherPhone.replace("212600000009", "212600000001");
    for (const proof of [otherPhone, otherShop, forged, "v1.garbage", issueDeviceToken(SHOP, PHONE, 90)!]) {
      expect((await post({ phone: PHONE, selectedMode: "cod", variantId: "1", proof })).status).toBe(403);
    }
    expect((await post({ phone: PHONE, selectedMode: "cod", variantId: "1", deviceToken: issueDeviceToken(SHOP, "+212600000009", 90)! })).status).toBe(403);
  });

  it("refuses an expired proof", async () => {
    await installShop();
    const proof = issueProof(SHOP, { phone: PHONE, mode: "cod", selectionId: "abc" }, new Date(Date.now() - 3 * 3600_000)).token;
    expect((await post({ phone: PHONE, selectedMode: "cod", variantId: "1", proof })).status).toBe(403);
  });

  it("counts this browser's remembered device within the returning-customer window and not after it", async () => {
    const shop = await installShop({ returningSkipDays: 30 });
    const now = new Date();
    const verifiedAt = new Date(now.getTime() - 29 * 86_400_000);
    await markPhoneVerified(shop.id, PHONE, verifiedAt);
    const deviceToken = issueDeviceToken(SHOP, PHONE, 30, verifiedAt)!;
    expect((await post({ phone: PHONE, selectedMode: "cod", variantId: "1", deviceToken })).status).toBe(200);
    await prisma.selection.deleteMany();
    vi.spyOn(clock, "now").mockReturnValue(new Date(now.getTime() + 2 * 86_400_000));
    expect((await post({ phone: PHONE, selectedMode: "cod", variantId: "1", deviceToken })).status).toBe(403);
    vi.restoreAllMocks();
  });

  it("a fallback for a proven phone carries a proof for the theme's own cart; an unproven one carries none", async () => {
    await installShop();
    fake.on(OPERATIONS.cartCreate, handlers.serverError(503), "storefront");
    const proof = issueProof(SHOP, { phone: PHONE, mode: "cod", selectionId: "abc" }).token;
    const proven = await jsonOf(await post({ phone: PHONE, selectedMode: "cod", variantId: "1", proof }));
    expect(proven).toMatchObject({ fallback: true, proof: expect.stringMatching(/^v1\.212600000001\.cod\./) });
    expect(checkProof(SHOP, proven.proof as string).ok).toBe(true);
    const prepaid = await jsonOf(await post({ phone: "+212600000002", selectedMode: "prepaid", variantId: "1" }));
    expect(prepaid).toEqual({ fallback: true });
  });
});

describe("POST /create-checkout: partial builds a draft order with Shopify's native deposit", () => {
  it("percentage deposit: draftOrderCreate with deposit, fulfillment payment terms, our attributes and tag", async () => {
    const shop = await installShop({ depositType: "percentage", depositValue: 30, discountCodePartial: "DEP" });
    await markPhoneVerified(shop.id, PHONE);
    const res = await post({ phone: PHONE, selectedMode: "partial", lines: [{ variantId: "5", quantity: 2 }] });
    const body = await jsonOf(res);
    expect(body.checkoutUrl).toMatch(/\/invoices\//);
    expect(fake.callsTo(OPERATIONS.paymentTermsTemplates)).toHaveLength(1);
    expect(fake.callsTo(OPERATIONS.draftOrderCalculate)).toHaveLength(0);
    const input = fake.callsTo(OPERATIONS.draftOrderCreate)[0].variables.input as Record<string, unknown>;
    const selection = await prisma.selection.findFirstOrThrow();
    expect(input).toMatchObject({
      lineItems: [{ variantId: "gid://shopify/ProductVariant/5", quantity: 2 }],
      phone: PHONE,
      deposit: { percentage: 30 },
      paymentTerms: { paymentTermsTemplateId: "gid://shopify/PaymentTermsTemplate/7" },
      tags: ["payment-mode:partial"],
      discountCodes: ["DEP"],
      note: expect.stringContaining("30% due at checkout"),
    });
    expect(input.customAttributes).toContainEqual({ key: "_cod_selection", value: selection.id });
    expect(input.customAttributes).toContainEqual({ key: "_cod_payment_mode", value: "partial" });
    expect(selection).toMatchObject({ mode: "partial", draftOrderGid: expect.stringMatching(/^gid:\/\/shopify\/DraftOrder\//), checkoutUrl: body.checkoutUrl });
  });

  it("fixed deposit: prices the order first, then asks for the matching percentage (rounded up)", async () => {
    await installShop({ depositType: "fixed", depositValue: 20, currency: "USD" });
    // 3 units at the fake's 25.00 = 75.00; 20.00 of 75.00 = 26.67 %
    await post({ phone: PHONE, selectedMode: "partial", variantId: "5", quantity: 3 });
    expect(fake.callsTo(OPERATIONS.draftOrderCalculate)[0].variables.input).toMatchObject({
      lineItems: [{ variantId: "gid://shopify/ProductVariant/5", quantity: 3 }],
    });
    const input = fake.callsTo(OPERATIONS.draftOrderCreate)[0].variables.input as Record<string, unknown>;
    expect(input.deposit).toEqual({ percentage: 26.67 });
    expect(input.customAttributes).toContainEqual({ key: "Deposit", value: "20.00 USD due at checkout (26.67% of 75.00 USD)" });
  });

  it("learns from Shopify's refused deposit that the store has no draft-order deposits: that and later partial checkouts use a deposit code", async () => {
    await installShop();
    fake.on(OPERATIONS.draftOrderCreate, handlers.draftOrderCreateUserErrors(), "admin");
    const res = await post({ phone: PHONE, selectedMode: "partial", variantId: "5" });
    // This file's fake has no discount operations, so the deposit code cannot be made: the contract's fallback.
    expect(await jsonOf(res)).toMatchObject({ fallback: true });
    expect(await prisma.selection.findFirstOrThrow()).toMatchObject({ mode: "partial", checkoutUrl: null });
    expect((await prisma.shop.findFirstOrThrow()).depositsAvailable).toBe(false);
    fake.reset();
    await post({ phone: PHONE, selectedMode: "partial", variantId: "5" });
    expect(fake.callsTo(OPERATIONS.draftOrderCreate)).toHaveLength(0);
    expect(fake.callsTo(OPERATIONS.cartCreate)).toHaveLength(1);
  });
});

describe("POST /create-checkout: the COD fee is a line of the merchant's fee product on cod carts", () => {
  const FEE_VARIANT = "gid://shopify/ProductVariant/999001";
  // COD needs this caller's proof of the code (what verify-otp hands the modal).
  const proof = () => issueProof(SHOP, { phone: PHONE, mode: "cod", selectionId: "fromverifyotp" }).token;

  it("adds the fee variant; a fixed fee equal to the variant's price is one unit, and the cart says what the fee is", async () => {
    const shop = await installShop({ codFeeType: "fixed", codFeeValue: handlers.FAKE_UNIT_PRICE, codFeeVariantId: FEE_VARIANT });
    await markPhoneVerified(shop.id, PHONE);
    expect((await post({ phone: PHONE, selectedMode: "cod", variantId: "7", proof: proof(), quantity: 2 })).status).toBe(200);
    const [call] = fake.callsTo(OPERATIONS.cartCreate);
    const input = call.variables.input as { lines: unknown[]; attributes: { key: string; value: string }[] };
    expect(input.lines).toEqual([
      { merchandiseId: "gid://shopify/ProductVariant/7", quantity: 2 },
      { merchandiseId: FEE_VARIANT, quantity: 1 },
    ]);
    expect(input.attributes).toContainEqual({ key: "_cod_fee", value: String(handlers.FAKE_UNIT_PRICE) });
    expect(fake.callsTo(OPERATIONS.cartLinesUpdate)).toHaveLength(0);
  });

  it("carries a percentage fee as units of the fee variant: 100% of 4 × 25 over a unit price of 25 is 4 units", async () => {
    const shop = await installShop({ codFeeType: "percentage", codFeeValue: 100, codFeeVariantId: FEE_VARIANT });
    await markPhoneVerified(shop.id, PHONE);
    expect((await post({ phone: PHONE, selectedMode: "cod", variantId: "7", proof: proof(), quantity: 4 })).status).toBe(200);
    const [update] = fake.callsTo(OPERATIONS.cartLinesUpdate);
    expect(update.api).toBe("storefront");
    expect(update.variables).toMatchObject({ lines: [{ id: expect.stringMatching(/^gid:\/\/shopify\/CartLine\//), quantity: 4 }] });
  });

  it("charges no fee on prepaid carts, nor where no fee variant is set", async () => {
    const shop = await installShop({ codFeeType: "fixed", codFeeValue: 49, codFeeVariantId: FEE_VARIANT });
    await markPhoneVerified(shop.id, PHONE);
    await post({ phone: PHONE, selectedMode: "prepaid", variantId: "7" });
    await prisma.shop.update({ where: { id: shop.id }, data: { codFeeVariantId: null } });
    const { forgetShop } = await import("~/core/settings/shop.server");
    forgetShop(shop.domain);
    await post({ phone: PHONE, selectedMode: "cod", variantId: "7", proof: proof() });
    for (const call of fake.callsTo(OPERATIONS.cartCreate)) {
      expect((call.variables.input as { lines: unknown[] }).lines).toEqual([{ merchandiseId: "gid://shopify/ProductVariant/7", quantity: 1 }]);
    }
  });

  describe("on a cart Shopify prices in another currency than the shop's (EUR at 0.92, every unit €23.00)", () => {
    const cartLinesOf = (i: number) => (fake.callsTo(OPERATIONS.cartCreate)[i].variables.input as { lines: unknown[]; attributes: { key: string }[] });
    beforeEach(() => new FakeDepositStore({}, { currency: "EUR", unitPrice: 23, rate: 0.92 }).install(fake));

    it("a fixed fee (49 USD) is not turned into units of a euro price (49 / 23 → 2 units = €46, not Shopify's €45.08): the cart is built without the fee, and says none", async () => {
      const shop = await installShop({ codFeeType: "fixed", codFeeValue: 49, codFeeVariantId: FEE_VARIANT, currency: "USD" });
      await markPhoneVerified(shop.id, PHONE);
      const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
      const res = await post({ phone: PHONE, selectedMode: "cod", variantId: "7", proof: proof(), quantity: 2 });
      expect(await jsonOf(res)).toMatchObject({ checkoutUrl: expect.any(String) });
      expect(fake.callsTo(OPERATIONS.cartLinesUpdate)).toHaveLength(0);
      const calls = fake.callsTo(OPERATIONS.cartCreate);
      expect(calls).toHaveLength(2);
      expect(cartLinesOf(1).lines).toEqual([{ merchandiseId: "gid://shopify/ProductVariant/7", quantity: 2 }]);
      expect(cartLinesOf(1).attributes.map((a) => a.key)).not.toContain("_cod_fee");
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/fixed COD fee .* another currency/), expect.objectContaining({ cartCurrency: "EUR", fee: "49 USD" }));
    });

    it("a percentage fee is computed in the cart's own currency: 100% of 4 × €23 over the fee unit's €23 is 4 units", async () => {
      const shop = await installShop({ codFeeType: "percentage", codFeeValue: 100, codFeeVariantId: FEE_VARIANT, currency: "USD" });
      await markPhoneVerified(shop.id, PHONE);
      expect((await post({ phone: PHONE, selectedMode: "cod", variantId: "7", proof: proof(), quantity: 4 })).status).toBe(200);
      expect(fake.callsTo(OPERATIONS.cartCreate)).toHaveLength(1);
      expect(fake.callsTo(OPERATIONS.cartLinesUpdate)[0].variables).toMatchObject({ lines: [{ quantity: 4 }] });
    });

    it("a fixed fee on a shop whose currency is the cart's (EUR) is still carried as units of the fee variant", async () => {
      const shop = await installShop({ codFeeType: "fixed", codFeeValue: 46, codFeeVariantId: FEE_VARIANT, currency: "EUR" });
      await markPhoneVerified(shop.id, PHONE);
      expect((await post({ phone: PHONE, selectedMode: "cod", variantId: "7", proof: proof() })).status).toBe(200);
      expect(fake.callsTo(OPERATIONS.cartCreate)).toHaveLength(1);
      expect(fake.callsTo(OPERATIONS.cartLinesUpdate)[0].variables).toMatchObject({ lines: [{ quantity: 2 }] });
    });
  });

  it("builds the cart without the fee when Shopify refuses the fee variant: the sale goes on", async () => {
    const shop = await installShop({ codFeeType: "fixed", codFeeValue: 49, codFeeVariantId: FEE_VARIANT });
    await markPhoneVerified(shop.id, PHONE);
    let first = true;
    fake.on(
      OPERATIONS.cartCreate,
      (call) => {
        if (first) {
          first = false;
          return handlers.cartCreateUserErrors([{ code: "INVALID", field: ["input", "lines", "1", "merchandiseId"], message: "The merchandise does not exist." }])(call);
        }
        return handlers.cartCreate()(call);
      },
      "storefront",
    );
    const res = await post({ phone: PHONE, selectedMode: "cod", variantId: "7", proof: proof() });
    expect(await jsonOf(res)).toMatchObject({ checkoutUrl: expect.any(String) });
    expect(fake.callsTo(OPERATIONS.cartCreate)).toHaveLength(2);
  });
});

describe("POST /create-checkout: every failure to build answers { fallback: true }", () => {
  const cases: [string, string, () => void][] = [
    ["user errors", "user_errors", () => fake.on(OPERATIONS.cartCreate, handlers.cartCreateUserErrors(), "storefront")],
    ["GraphQL errors", "graphql_errors", () => fake.on(OPERATIONS.cartCreate, handlers.graphqlErrors("Field 'x' doesn't exist"), "storefront")],
    ["throttling (GraphQL THROTTLED)", "throttled", () => fake.on(OPERATIONS.cartCreate, handlers.throttled(), "storefront")],
    ["HTTP 429", "throttled", () => fake.on(OPERATIONS.cartCreate, handlers.tooManyRequests(), "storefront")],
    ["HTTP 503", "http_error", () => fake.on(OPERATIONS.cartCreate, handlers.serverError(503), "storefront")],
    ["a dropped connection", "network_error", () => fake.on(OPERATIONS.cartCreate, () => { throw new Error("drop"); }, "storefront")],
  ];
  for (const [name, cause, arrange] of cases) {
    it(`on ${name} (logged as ${cause})`, async () => {
      await installShop();
      arrange();
      const warn = vi.spyOn(log, "warn");
      const res = await post({ phone: PHONE, selectedMode: "prepaid", variantId: "1" });
      expect(res.status).toBe(200);
      expect(await jsonOf(res)).toEqual({ fallback: true });
      expect(warn).toHaveBeenCalledWith("create-checkout fell back to the store's checkout", expect.objectContaining({ cause, mode: "prepaid" }));
      warn.mockRestore();
      expect(fake.callsTo(OPERATIONS.cartCreate)).toHaveLength(1);
      // The selection is still recorded so the order that follows through the normal checkout can be linked.
      expect(await prisma.selection.count()).toBe(1);
    });
  }

  it("on a timeout, within the bound", async () => {
    await installShop();
    shopifyCallLimits.timeoutMs = 300;
    fake.on(OPERATIONS.cartCreate, handlers.slow(2000, handlers.cartCreate()), "storefront");
    const started = Date.now();
    const res = await post({ phone: PHONE, selectedMode: "prepaid", variantId: "1" });
    expect(await jsonOf(res)).toEqual({ fallback: true });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("for a shop without an active subscription, without calling Shopify (even cod for an unverified phone)", async () => {
    await installShop({ subscriptionStatus: "cancelled" });
    const res = await post({ phone: PHONE, selectedMode: "cod", variantId: "1" });
    expect(await jsonOf(res)).toEqual({ fallback: true });
    expect(fake.calls).toHaveLength(0);
  });

  it("for a shop whose session has no access token", async () => {
    await installShop();
    await prisma.session.updateMany({ data: { accessToken: "" } });
    const res = await post({ phone: PHONE, selectedMode: "prepaid", variantId: "1" });
    expect(await jsonOf(res)).toEqual({ fallback: true });
    expect(fake.calls).toHaveLength(0);
  });
});

describe("POST /create-checkout: bad input", () => {
  const bad: [string, Record<string, unknown>, string][] = [
    ["a phone that is not E.164", { phone: "0600000001", selectedMode: "prepaid", variantId: "1" }, "phone"],
    ["an unknown mode", { phone: PHONE, selectedMode: "cash", variantId: "1" }, "selectedMode"],
    ["a variant id that is neither a number nor a variant gid", { phone: PHONE, selectedMode: "prepaid", variantId: "gid://shopify/Product/1" }, "variantId"],
    ["a quantity of 0", { phone: PHONE, selectedMode: "prepaid", variantId: "1", quantity: 0 }, "quantity"],
    ["an empty lines[]", { phone: PHONE, selectedMode: "prepaid", lines: [] }, "lines"],
    ["both variantId and lines", { phone: PHONE, selectedMode: "prepaid", variantId: "1", lines: [{ variantId: "2" }] }, "lines"],
  ];
  for (const [name, body, field] of bad) {
    it(`answers 400 invalid_request naming ${field} for ${name}`, async () => {
      await installShop();
      const res = await post(body);
      expect(res.status).toBe(400);
      const json = await jsonOf(res);
      expect(json.code).toBe("invalid_request");
      expect(Object.keys(json.fields as object)).toContain(field);
      expect(fake.calls).toHaveLength(0);
    });
  }
});
