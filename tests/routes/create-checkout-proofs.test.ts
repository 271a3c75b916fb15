import * as createCheckout from "~/routes/proxy.create-checkout";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { blockPhone } from "~/otp/blocklist.server";
import { checkProof } from "~/otp/proof.server";
import { clock } from "~/core/utils/clock.server";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * A proof is only as good as the verification behind it (docs/contract.md, "Proofs and holds"): the proofs
 * create-checkout hands back keep the first one's expiry, and a number blocked after it verified gets
 * no COD, whatever it shows.
 */
const PHONE = "+212600000001";
const twilio = useFakeTwilio();
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
const MINUTE = 60_000;

beforeEach(() => handlers.installDefaultHandlers(shopify));
afterEach(() => vi.restoreAllMocks());

function post(route: typeof createCheckout | typeof sendOtp | typeof verifyOtp, path: string, body: Record<string, unknown>) {
  return callRoute(route, signedRequest(path, { method: "POST", body }));
}

/** The shopper's journey up to the code: send, read the text, verify. Returns verify-otp's answer. */
async function verifyPhone(phone = PHONE) {
  expect((await post(sendOtp, "/send-otp", { phone })).status).toBe(200);
  const res = await post(verifyOtp, "/verify-otp", { phone, otp: twilio.twilio.codeFor(phone), selectedMode: "cod" });
  expect(res.status).toBe(200);
  return (await jsonOf(res)) as { proof: string; deviceToken?: string };
}

const checkout = (body: Record<string, unknown>) => post(createCheckout, "/create-checkout", { phone: PHONE, selectedMode: "cod", variantId: "1", ...body });

/** The proof create-checkout put on the cart it just built. */
function proofOnLastCart(): string {
  const input = shopify.callsTo(OPERATIONS.cartCreate).at(-1)!.variables.input as { attributes: { key: string; value: string }[] };
  return input.attributes.find((a) => a.key === "_cod_proof")!.value;
}

describe("POST /create-checkout: a derived proof keeps the verification's expiry", () => {
  it("GIVEN a code confirmed at T WHEN the proof comes back at T+1h50 THEN the cart's proof still ends at T+2h, and at T+2h05 it is refused", async () => {
    await installShop({ returningSkipDays: 0 });
    const start = new Date();
    vi.spyOn(clock, "now").mockReturnValue(start);
    const { proof } = await verifyPhone();
    const expiresAt = (checkProof(SHOP, proof, start) as { ok: true; proof: { expiresAt: number } }).proof.expiresAt;

    vi.spyOn(clock, "now").mockReturnValue(new Date(start.getTime() + 110 * MINUTE));
    const first = await checkout({ proof });
    expect(await jsonOf(first)).toHaveProperty("checkoutUrl");
    const derived = proofOnLastCart();
    expect(checkProof(SHOP, derived, clock.now())).toMatchObject({ ok: true, proof: { expiresAt } });

    // Each refresh is derived from the one before: none of them reaches past T+2h.
    const second = await checkout({ proof: derived, selectedMode: "cod" });
    expect(second.status).toBe(200);
    expect(checkProof(SHOP, proofOnLastCart(), clock.now())).toMatchObject({ ok: true, proof: { expiresAt } });

    vi.spyOn(clock, "now").mockReturnValue(new Date(start.getTime() + 125 * MINUTE));
    const late = await checkout({ proof: proofOnLastCart() });
    expect(late.status).toBe(403);
    expect(await jsonOf(late)).toMatchObject({ code: "phone_not_verified" });
  });

  it("a fallback's proof (for the theme's own cart) keeps the expiry too", async () => {
    await installShop();
    const start = new Date();
    vi.spyOn(clock, "now").mockReturnValue(start);
    const { proof } = await verifyPhone();
    shopify.on(OPERATIONS.cartCreate, handlers.serverError(503), "storefront");
    vi.spyOn(clock, "now").mockReturnValue(new Date(start.getTime() + 100 * MINUTE));
    const answer = (await jsonOf(await checkout({ proof }))) as { fallback: boolean; proof: string };
    expect(answer.fallback).toBe(true);
    expect(checkProof(SHOP, answer.proof, new Date(start.getTime() + 121 * MINUTE))).toMatchObject({ ok: false, reason: "expired" });
  });
});

describe("POST /create-checkout: a number blocked after it verified", () => {
  it("answers 403 phone_blocked to its still-valid proof and remembered device, and builds nothing", async () => {
    const shop = await installShop({ returningSkipDays: 90 });
    const { proof, deviceToken } = await verifyPhone();
    expect(deviceToken).toEqual(expect.any(String));
    expect((await checkout({ proof })).status).toBe(200);
    shopify.reset();

    await blockPhone(shop, PHONE, "refused two parcels");
    for (const tokens of [{ proof }, { deviceToken }, { proof, deviceToken }, {}]) {
      const res = await checkout(tokens);
      expect(res.status).toBe(403);
      expect(await jsonOf(res)).toMatchObject({ code: "phone_blocked", error: expect.any(String) });
    }
    expect(shopify.callsTo(OPERATIONS.cartCreate)).toHaveLength(0);
  });

  it("may still pay online, but its prepaid cart carries no proof and says unverified", async () => {
    const shop = await installShop();
    const { proof } = await verifyPhone();
    await blockPhone(shop, PHONE);
    const res = await checkout({ proof, selectedMode: "prepaid" });
    expect(await jsonOf(res)).toHaveProperty("checkoutUrl");
    const input = shopify.callsTo(OPERATIONS.cartCreate)[0].variables.input as { attributes: { key: string; value: string }[] };
    expect(input.attributes.map((a) => a.key)).not.toContain("_cod_proof");
    expect(input.attributes).toContainEqual({ key: "_cod_phone_verified", value: "false" });
  });
});
