import * as createCheckout from "~/routes/proxy.create-checkout";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import { forgetPaymentTermsTemplate } from "~/checkout/checkout.server";
import { DEPOSIT_UNPAID_TAG } from "~/orders/link.server";
import { priorProbability } from "~/risk/calibration";
import { cartPaymentMethodsTransformRun } from "../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";
import { parseProof, PROOF_ATTRIBUTE } from "../../extensions/cod-payment-customization/src/proof-format";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { FakeDepositStore } from "../mocks/shopify/deposits";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * What a band's action does, from outside, for each band and action and each of Shopify's plans (the
 * partial checkout's draft-order deposit on Plus, the single-use deposit code elsewhere): verify-otp's
 * answer and proof, the checkout function reading that proof on the store's own cart, create-checkout's
 * COD and partial, and orders/create for a COD order placed with the proof (docs/risk.md, "What each band
 * does"). A band set to price or refuse never leaves plain cash on delivery to a proof; a priced proof
 * carries its deposit wherever it goes; confirm keeps COD and opens the confirmation after purchase.
 */
const PHONE = "+919812345678";
const twilio = useFakeTwilio();
const tagged = new Map<string, Set<string>>();
const fake = useFakeShopify((f) => handlers.installDefaultHandlers(f, {}, tagged));
beforeEach(() => {
  tagged.clear();
  handlers.installDefaultHandlers(fake, {}, tagged);
  new FakeDepositStore().install(fake);
  forgetPaymentTermsTemplate();
});

const ACTIONS = ["none", "confirm", "price", "refuse"] as const;
// Thresholds that put every shopper in the band: high from 0, or medium from 0 and high at 100.
const BANDS = { medium: { riskMediumThreshold: 0, riskHighThreshold: 100 }, high: { riskMediumThreshold: 0, riskHighThreshold: 0 } } as const;
const PLANS = { plus: true, other: false } as const;
const COD = { id: "gid://shopify/PaymentCustomizationPaymentMethod/2", name: "Cash on Delivery (COD)" };
const CARD = { id: "gid://shopify/PaymentCustomizationPaymentMethod/1", name: "Credit card" };

type Verified = { proof: string; allowedModes: string[]; deposit?: { amount: number; currency: string | null }; risk: { band: string; reasons: { code: string }[] } };

const send = async () => jsonOf(await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } })));
const verify = async (behaviour?: Record<string, number>) =>
  (await jsonOf(await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp: twilio.twilio.codeFor(PHONE), ...(behaviour ? { behaviour } : {}) } })))) as unknown as Verified;
const depositOf = (v: Verified) => v.deposit!.amount;
const checkout = (body: Record<string, unknown>) => callRoute(createCheckout, signedRequest("/create-checkout", { method: "POST", body: { phone: PHONE, variantId: "5", quantity: 3, ...body } }));
/** The checkout function on the store's own cart carrying the proof (the modal writes it there when the store's checkout takes over). */
const functionHidesCod = (proof: string) =>
  cartPaymentMethodsTransformRun({
    cart: { proof: { value: proof }, buyerIdentity: { phone: PHONE, customer: null }, deliveryGroups: [{ deliveryAddress: { phone: PHONE } }] },
    paymentMethods: [CARD, COD],
    paymentCustomization: { metafield: { jsonValue: { codMethodNames: [COD.name] } } },
    shop: { localTime: { date: new Date().toISOString().slice(0, 10) } },
  }).operations.some((o) => o.paymentMethodHide.paymentMethodId === COD.id);
/** orders/create for a COD order placed with the proof; `paid`: what the shopper paid at checkout. */
const placeCodOrder = async (proof: string, paid = 0) => {
  const order = orderCreatedPayload({ phone: PHONE, total_price: "75.00", total_outstanding: (75 - paid).toFixed(2), note_attributes: [{ name: PROOF_ATTRIBUTE, value: proof }] });
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  const gid = order.admin_graphql_api_id;
  const record = await prisma.orderRecord.findFirstOrThrow({ where: { orderGid: gid } });
  const confirmation = await prisma.orderConfirmation.findFirst({ where: { orderGid: gid } });
  return { record, confirmation, gid };
};

describe.each(Object.entries(PLANS))("on a %s store", (plan, depositsAvailable) => {
  describe.each(Object.entries(BANDS))("a %s shopper", (band, thresholds) => {
    it.each(ACTIONS)("the band set to %s", async (action) => {
      const field = band === "high" ? "riskHighAction" : "riskMediumAction";
      await installShop({ ...thresholds, [field]: action, codFailureCost: 1000, currency: "USD", paymentModes: "cod, prepaid", depositsAvailable, holdUnverifiedCod: false });
      await send();
      const verified = await verify();
      expect(verified.risk.band).toBe(band);
      const proof = parseProof(verified.proof)!;
      const codKept = action === "none" || action === "confirm";

      // verify-otp's answer and its proof say the same.
      expect(verified.allowedModes.includes("cod")).toBe(codKept);
      expect(proof.band ?? null).toBe({ none: null, confirm: "c", price: "p", refuse: "h" }[action]);
      if (action === "price") {
        expect(depositOf(verified)).toBeGreaterThan(0);
        expect(proof.deposit).toBe(depositOf(verified));
      } else expect(verified.deposit).toBeUndefined();

      // The checkout function hides COD for a proof that refuses or prices it.
      expect(functionHidesCod(verified.proof)).toBe(!codKept);

      // create-checkout: plain COD for this proof only where the band keeps it.
      const cod = await checkout({ selectedMode: "cod", proof: verified.proof });
      expect(cod.status).toBe(codKept ? 200 : 403);
      if (!codKept) expect(await jsonOf(cod)).toMatchObject({ code: "cod_not_allowed", ...(action === "price" ? { deposit: { amount: depositOf(verified) } } : {}) });

      if (action === "price") {
        // The partial checkout carries the proof's deposit, as this plan builds it.
        const partial = await checkout({ selectedMode: "partial", proof: verified.proof });
        expect(partial.status).toBe(200);
        expect(await jsonOf(partial)).toMatchObject({ checkoutUrl: expect.any(String) });
        const deposit = depositOf(verified);
        if (depositsAvailable) {
          const input = fake.callsTo(OPERATIONS.draftOrderCreate)[0].variables.input as { customAttributes: { key: string; value: string }[] };
          expect(input.customAttributes).toContainEqual({ key: "Deposit", value: expect.stringMatching(new RegExp(`^${deposit}\\.00 USD due at checkout`)) });
        } else {
          expect(fake.callsTo(OPERATIONS.depositDiscountCreate)).toHaveLength(1);
          expect(await prisma.selection.findFirstOrThrow({ where: { mode: "partial" } })).toMatchObject({ depositAmount: deposit });
        }
      }

      // orders/create: a COD order placed with the proof (COD shown at checkout anyway).
      const placed = await placeCodOrder(verified.proof);
      if (action === "price") {
        expect(placed.record).toMatchObject({ status: "pending", verifiedBy: null });
        expect(placed.confirmation).not.toBeNull();
      } else if (action === "confirm") {
        // Verified by its proof, and confirmed after purchase all the same.
        expect(placed.record).toMatchObject({ status: "pending", verifiedBy: "proof" });
        expect(placed.confirmation).toMatchObject({ kind: "verify", status: "pending" });
      } else {
        expect(placed.record).toMatchObject({ status: "verified", verifiedBy: "proof" });
        expect(placed.confirmation).toBeNull();
      }
    });
  });
});

describe("the order side checks the priced deposit", () => {
  const PRICED = { riskMediumThreshold: 0, riskHighThreshold: 100, riskMediumAction: "price", codFailureCost: 1000, currency: "USD", paymentModes: "cod, prepaid", holdUnverifiedCod: false };

  it("a COD order that paid less than the proof's deposit is not verified by it, is tagged and goes to confirmation; one that paid it is verified", async () => {
    await installShop(PRICED);
    await send();
    const verified = await verify();
    const deposit = depositOf(verified);
    expect(deposit).toBeGreaterThanOrEqual(Math.ceil(priorProbability(0) * 1000));

    const short = await placeCodOrder(verified.proof, deposit - 1);
    expect(short.record).toMatchObject({ status: "pending", verifiedBy: null });
    expect(short.confirmation).not.toBeNull();
    await (await import("~/core/jobs/queue.server")).runDueJobs((await import("~/server-build")).JOB_KINDS);
    expect([...(tagged.get(short.gid) ?? [])]).toContain(DEPOSIT_UNPAID_TAG);

    const paid = await placeCodOrder(verified.proof, deposit);
    expect(paid.record).toMatchObject({ status: "verified", verifiedBy: "proof" });
    expect(paid.confirmation).toBeNull();
  });

  it("a medium shopper priced at verify-otp (what the modal measured) cannot take plain COD where create-checkout alone would score low", async () => {
    // A code typed after three minutes adds 10 points at verify-otp; create-checkout never sees the modal's fields.
    await installShop({ ...PRICED, riskMediumThreshold: 5, depositsAvailable: false });
    await send();
    const verified = await verify({ msToType: 200_000 });
    expect(verified).toMatchObject({ risk: { band: "medium" }, allowedModes: ["prepaid", "partial"] });
    const cod = await checkout({ selectedMode: "cod", proof: verified.proof });
    expect(cod.status).toBe(403);
    const answer = await jsonOf(cod);
    expect(answer).toMatchObject({ code: "cod_not_allowed", deposit: { amount: depositOf(verified) } });
    expect(answer.allowedModes).not.toContain("cod");

    // The proof create-checkout hands back for the partial checkout keeps the deposit.
    const partial = await jsonOf(await checkout({ selectedMode: "partial", proof: verified.proof }));
    expect(partial.checkoutUrl).toEqual(expect.any(String));
    const selection = await prisma.selection.findFirstOrThrow({ where: { mode: "partial" } });
    expect(selection.depositAmount).toBe(depositOf(verified));
  });

  it("a forged deposit: a proof whose deposit letters were changed fails its signature and vouches for nothing", async () => {
    await installShop(PRICED);
    await send();
    const verified = await verify();
    const forged = (verified.proof as string).replace(/\.p\d+\./, ".p100.");
    expect(forged).not.toBe(verified.proof);
    const placed = await placeCodOrder(forged, 1);
    expect(placed.record).toMatchObject({ status: "pending", verifiedBy: null });
  });
});
