import * as createCheckout from "~/routes/proxy.create-checkout";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { prisma } from "~/core/db.server";
import { cartPaymentMethodsTransformRun, type CartPaymentMethodsTransformRunInput } from "../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * Friction follows the risk band (docs/risk.md): a high-risk shopper is not offered cash on delivery.
 * send-otp and verify-otp keep their contract and add `allowedModes` and `risk`; create-checkout refuses
 * `cod` with 403 cod_not_allowed; the proof carries the band, so the checkout function hides COD for it
 * even when the modal is skipped.
 */
const PHONE = "+212600000001";
const twilio = useFakeTwilio();
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(shopify));

const post = (route: typeof createCheckout | typeof sendOtp | typeof verifyOtp, path: string, body: Record<string, unknown>) =>
  callRoute(route, signedRequest(path, { method: "POST", body }));
const checkout = (body: Record<string, unknown>) => post(createCheckout, "/create-checkout", { phone: PHONE, selectedMode: "cod", variantId: "1", ...body });

/** Two earlier COD orders this phone placed with its proof, both refused (cancelled): +50. */
async function refusedBefore(shopId: string, n = 2) {
  for (let i = 0; i < n; i++) {
    const orderGid = `gid://shopify/Order/${900 + i}`;
    const placedAt = new Date(Date.now() - 86_400_000 * (i + 2));
    await prisma.orderRecord.create({ data: { shopId, orderGid, phone: PHONE, cod: true, status: "verified", verifiedBy: "proof", placedAt } });
    await prisma.orderOutcome.create({ data: { shopId, orderGid, phone: PHONE, outcome: "failed", reason: "cancelled", decidedAt: placedAt } });
  }
}

async function sendAndVerify() {
  const sent = await post(sendOtp, "/send-otp", { phone: PHONE });
  expect(sent.status).toBe(200);
  const verified = await post(verifyOtp, "/verify-otp", { phone: PHONE, otp: twilio.twilio.codeFor(PHONE), selectedMode: "cod" });
  expect(verified.status).toBe(200);
  return { sent: await jsonOf(sent), verified: await jsonOf(verified) };
}

/** The checkout function's input for a cart carrying `proof`, the buyer typing the proof's phone. */
function functionInput(proof: string, customerVerified = false): CartPaymentMethodsTransformRunInput {
  return {
    cart: { proof: { value: proof }, buyerIdentity: { phone: PHONE, customer: { verified: customerVerified } }, deliveryGroups: [{ deliveryAddress: { phone: PHONE } }] },
    paymentMethods: [{ id: "gid://shopify/PaymentCustomizationPaymentMethod/1", name: "Cash on Delivery (COD)" }],
    paymentCustomization: { metafield: { jsonValue: { codMethodNames: ["Cash on Delivery (COD)"] } } },
    shop: { localTime: { date: new Date().toISOString().slice(0, 10) } },
  };
}
const HIDE_COD = { operations: [{ paymentMethodHide: { paymentMethodId: "gid://shopify/PaymentCustomizationPaymentMethod/1" } }] };

describe("a high-risk shopper (a history of refused COD orders, the merchant's high threshold at 50)", () => {
  it("send-otp reveals nothing of the number's history; verify-otp, once the number is proven, answers high and COD not allowed", async () => {
    const shop = await installShop({ riskHighThreshold: 50 });
    await refusedBefore(shop.id);
    const { sent, verified } = await sendAndVerify();
    // Before the code is proven, the number's past stays out of the answer (anyone can type any number).
    expect(sent).toMatchObject({ success: true, allowedModes: ["cod", "prepaid", "partial"], risk: { band: "low", reasons: [] } });
    expect(verified).toMatchObject({
      success: true,
      allowedModes: ["prepaid", "partial"],
      risk: { band: "high", reasons: [{ code: "rto_prone_phone", text: "2 earlier orders with this phone were refused or cancelled." }] },
      proof: expect.stringMatching(/^v2\.212600000001\.cod\.\d+\.[a-z0-9]+\.h\.[0-9a-f]{32}$/),
    });
  });

  it("create-checkout refuses cod with 403 cod_not_allowed and builds no cart; prepaid still works", async () => {
    const shop = await installShop({ riskHighThreshold: 50 });
    await refusedBefore(shop.id);
    const { verified } = await sendAndVerify();
    const refused = await checkout({ proof: verified.proof });
    expect(refused.status).toBe(403);
    expect(await jsonOf(refused)).toMatchObject({
      code: "cod_not_allowed",
      error: expect.stringContaining("Cash on delivery is not available"),
      allowedModes: ["prepaid", "partial"],
      risk: { band: "high", reasons: [expect.objectContaining({ code: "rto_prone_phone" })] },
    });
    expect(shopify.callsTo(OPERATIONS.cartCreate)).toHaveLength(0);
    const prepaid = await checkout({ proof: verified.proof, selectedMode: "prepaid" });
    expect(await jsonOf(prepaid)).toHaveProperty("checkoutUrl");
  });

  it("the checkout function hides COD for that proof, even for a customer tagged verified, when the modal is skipped", async () => {
    const shop = await installShop({ riskHighThreshold: 50 });
    await refusedBefore(shop.id);
    const { verified } = await sendAndVerify();
    expect(cartPaymentMethodsTransformRun(functionInput(verified.proof as string))).toEqual(HIDE_COD);
    expect(cartPaymentMethodsTransformRun(functionInput(verified.proof as string, true))).toEqual(HIDE_COD);
  });

  it("a remembered device does not get COD either", async () => {
    const shop = await installShop({ riskHighThreshold: 50 });
    await refusedBefore(shop.id);
    const { verified } = await sendAndVerify();
    const res = await checkout({ deviceToken: verified.deviceToken });
    expect(res.status).toBe(403);
    expect(await jsonOf(res)).toMatchObject({ code: "cod_not_allowed" });
  });
});

describe("the same shopper at the default threshold (60), and a good history", () => {
  it("is medium: the code as today, COD offered, a v1 proof the function accepts", async () => {
    const shop = await installShop();
    await refusedBefore(shop.id);
    const { verified } = await sendAndVerify();
    expect(verified).toMatchObject({ allowedModes: ["cod", "prepaid", "partial"], risk: { band: "medium" }, proof: expect.stringMatching(/^v1\./) });
    expect(cartPaymentMethodsTransformRun(functionInput(verified.proof as string))).toEqual({ operations: [] });
    expect(await jsonOf(await checkout({ proof: verified.proof }))).toHaveProperty("checkoutUrl");
  });
});

describe("merchant rules, before the score", () => {
  it("a phone the merchant wants prepaid gets no COD, whatever its score, with the rule's reason (formatting does not evade it)", async () => {
    await installShop({ riskPrepaidPhones: "+212 600-000001" });
    const { sent, verified } = await sendAndVerify();
    const rule = { code: "phone_prepaid_only", text: "The shop does not offer cash on delivery to this phone number." };
    expect(sent).toMatchObject({ allowedModes: ["prepaid", "partial"], risk: { band: "high", reasons: [rule] } });
    expect(verified).toMatchObject({ allowedModes: ["prepaid", "partial"], risk: { band: "high", reasons: [rule] } });
    const res = await checkout({ proof: verified.proof });
    expect(res.status).toBe(403);
    expect(await jsonOf(res)).toMatchObject({ code: "cod_not_allowed", risk: { reasons: [rule] } });
    expect(cartPaymentMethodsTransformRun(functionInput(verified.proof as string))).toEqual(HIDE_COD);
  });
});
