import * as createCheckout from "~/routes/proxy.create-checkout";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { prisma } from "~/core/db.server";
import { forgetPaymentTermsTemplate } from "~/checkout/checkout.server";
import { priorProbability } from "~/risk/calibration";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";

/**
 * A deposit priced from the expected loss (docs/risk.md): a band set to price takes plain cash on
 * delivery away and offers the partial checkout with a deposit of P(fail) × the failed-parcel cost,
 * rounded up to a whole unit, within the merchant's bounds, whether or not the shop offers partial
 * otherwise. The amount is the server's: nothing the shopper sends changes it.
 */
const PHONE = "+919812345678";
const twilio = useFakeTwilio();
const fake = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => {
  handlers.installDefaultHandlers(fake);
  forgetPaymentTermsTemplate();
});

// The phone on the no-COD list makes the band high whatever the score; the score of a new number is 5 (band 0-9).
const PRICED = { riskPrepaidPhones: PHONE, riskHighAction: "price", codFailureCost: 1000, currency: "USD", paymentModes: "cod, prepaid" };
const DEPOSIT = Math.ceil(priorProbability(5) * 1000); // 40: nothing learnt yet, the prior's 3.95 % of 1000

const send = async () => jsonOf(await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } })));
const verify = async () => jsonOf(await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp: twilio.twilio.codeFor(PHONE) } })));
const checkout = (body: Record<string, unknown>) => callRoute(createCheckout, signedRequest("/create-checkout", { method: "POST", body: { phone: PHONE, variantId: "5", quantity: 3, ...body } }));

describe("a band set to price", () => {
  it("offers partial with the priced deposit instead of COD at send-otp and verify-otp, and refuses plain COD at create-checkout", async () => {
    await installShop(PRICED);
    expect(await send()).toMatchObject({ allowedModes: ["prepaid", "partial"], deposit: { amount: DEPOSIT, currency: "USD" }, risk: { band: "high", reasons: [{ code: "phone_prepaid_only" }] } });
    const verified = await verify();
    expect(verified).toMatchObject({ allowedModes: ["prepaid", "partial"], deposit: { amount: DEPOSIT, currency: "USD" } });
    const cod = await checkout({ selectedMode: "cod", proof: verified.proof });
    expect(cod.status).toBe(403);
    expect(await jsonOf(cod)).toMatchObject({ code: "cod_not_allowed", allowedModes: ["prepaid", "partial"], deposit: { amount: DEPOSIT } });
  });

  it("builds the partial checkout with the priced deposit, whatever the shop's own deposit setting and whatever the shopper sends", async () => {
    await installShop({ ...PRICED, depositType: "percentage", depositValue: 90 });
    await send();
    const verified = await verify();
    const res = await checkout({ selectedMode: "partial", proof: verified.proof, deposit: 1, depositValue: 1 });
    expect(await jsonOf(res)).toMatchObject({ checkoutUrl: expect.stringMatching(/\/invoices\//) });
    // 3 units at the fake's 25.00 = 75.00: 40.00 of it is 53.34 % (rounded up).
    const input = fake.callsTo(OPERATIONS.draftOrderCreate)[0].variables.input as { deposit: unknown; customAttributes: { key: string; value: string }[] };
    expect(input.deposit).toEqual({ percentage: 53.34 });
    expect(input.customAttributes).toContainEqual({ key: "Deposit", value: `${DEPOSIT}.00 USD due at checkout (53.34% of 75.00 USD)` });
  });

  it("keeps the deposit within the merchant's bounds, and refuses COD when no failed-parcel cost is set", async () => {
    await installShop({ ...PRICED, riskDepositMin: 60, otpResendCooldownSeconds: 0, otpSendLimit: 10 });
    expect(await send()).toMatchObject({ deposit: { amount: 60 } });
    await prisma.shop.updateMany({ data: { riskDepositMin: null, riskDepositMax: 25 } });
    (await import("~/core/settings/shop.server")).clearShopCache();
    expect(await send()).toMatchObject({ deposit: { amount: 25 } });
    await prisma.shop.updateMany({ data: { codFailureCost: null } });
    (await import("~/core/settings/shop.server")).clearShopCache();
    const refused = await send();
    expect(refused.allowedModes).toEqual(["prepaid"]);
    expect(refused.deposit).toBeUndefined();
  });

  it("a medium band set to price prices too; set to nothing it keeps COD", async () => {
    // Four codes for one number before it is proven: velocity_phone, 15 points, medium from 10.
    await installShop({ codFailureCost: 1000, currency: "USD", paymentModes: "cod, prepaid", riskMediumThreshold: 10, riskMediumAction: "price", otpResendCooldownSeconds: 0, otpSendLimit: 10 });
    for (let i = 0; i < 3; i++) expect((await send()).allowedModes).toEqual(["cod", "prepaid"]);
    const fourth = await send();
    expect(fourth).toMatchObject({ risk: { band: "medium" }, allowedModes: ["prepaid", "partial"], deposit: { amount: Math.ceil(priorProbability(15) * 1000) } });
    await prisma.shop.updateMany({ data: { riskMediumAction: "none" } });
    (await import("~/core/settings/shop.server")).clearShopCache();
    const fifth = await send();
    expect(fifth).toMatchObject({ risk: { band: "medium" }, allowedModes: ["cod", "prepaid"] });
    expect(fifth.deposit).toBeUndefined();
  });
});
