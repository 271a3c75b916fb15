import * as route from "~/routes/proxy.create-checkout";
import { forgetPaymentTermsTemplate } from "~/checkout/checkout.server";
import { redirectShopifyApi } from "~/core/shopify/api-origin.server";
import { issueProof } from "~/otp/proof.server";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { startLocalShopify, type LocalShopify } from "../mocks/shopify/local";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";

/**
 * The verified phone reaches Shopify's checkout (issue 27 item 3): the cart's buyer identity carries it
 * with its country, the draft order its phone, and the local store's checkout preview starts from what
 * Shopify was given, not from our own `_cod_phone` attribute.
 */
const PHONE = "+212600000001";
let local: LocalShopify;

beforeAll(async () => {
  local = await startLocalShopify();
  redirectShopifyApi(local.origin);
});
afterAll(async () => {
  redirectShopifyApi(null);
  await local.stop();
});
beforeEach(() => {
  local.fake.calls.length = 0;
  handlers.installDefaultHandlers(local.fake, { checkoutBase: `${local.origin}/local/checkout` });
  forgetPaymentTermsTemplate();
});

const post = (body: Record<string, unknown>) => callRoute(route, signedRequest("/create-checkout", { body }));
const proof = () => issueProof(SHOP, { phone: PHONE, mode: "cod", selectionId: "fromverifyotp" }).token;

/** The value of the preview's "Phone typed at checkout" field. */
async function prefilledPhone(checkoutUrl: string): Promise<string | null> {
  const html = await (await fetch(checkoutUrl)).text();
  return /<input name="phone" value="([^"]*)">/.exec(html)?.[1] ?? null;
}

describe("create-checkout hands Shopify the buyer's phone", () => {
  it("GIVEN a proven phone WHEN cod THEN cartCreate carries buyerIdentity { phone, countryCode } and the checkout starts with that phone", async () => {
    await installShop();
    const res = await post({ phone: PHONE, selectedMode: "cod", variantId: "7", proof: proof() });
    const { checkoutUrl } = (await jsonOf(res)) as { checkoutUrl: string };
    const [call] = local.fake.callsTo(OPERATIONS.cartCreate);
    expect((call.variables.input as Record<string, unknown>).buyerIdentity).toEqual({ phone: PHONE, countryCode: "MA" });
    expect(await prefilledPhone(checkoutUrl)).toBe(PHONE);
  });

  it("prefills from the buyer identity, not from our attribute: a cart Shopify got without a buyer starts empty", async () => {
    await installShop();
    const withoutBuyer = handlers.cartCreate({ checkoutBase: `${local.origin}/local/checkout` });
    local.fake.on(OPERATIONS.cartCreate, (call) => withoutBuyer({ ...call, variables: { input: { ...(call.variables.input as object), buyerIdentity: undefined } } }), "storefront");
    const { checkoutUrl } = (await jsonOf(await post({ phone: PHONE, selectedMode: "prepaid", variantId: "7" }))) as { checkoutUrl: string };
    expect(await prefilledPhone(checkoutUrl)).toBe("");
  });

  it("builds the cart without the buyer when Shopify refuses the phone as a buyer's: the sale goes on", async () => {
    await installShop();
    const good = handlers.cartCreate();
    local.fake.on(
      OPERATIONS.cartCreate,
      (call) =>
        (call.variables.input as { buyerIdentity?: unknown }).buyerIdentity
          ? handlers.cartCreateUserErrors([{ code: "INVALID", field: ["input", "buyerIdentity", "phone"], message: "Phone is invalid" }])(call)
          : good(call),
      "storefront",
    );
    expect(await jsonOf(await post({ phone: PHONE, selectedMode: "cod", variantId: "7", proof: proof() }))).toHaveProperty("checkoutUrl");
    expect(local.fake.callsTo(OPERATIONS.cartCreate)).toHaveLength(2);
  });

  it("partial: the draft order carries the phone, and its checkout starts with it", async () => {
    await installShop({ depositType: "percentage", depositValue: 30 });
    const { checkoutUrl } = (await jsonOf(await post({ phone: PHONE, selectedMode: "partial", variantId: "7" }))) as { checkoutUrl: string };
    expect(local.fake.callsTo(OPERATIONS.draftOrderCreate)[0].variables.input).toMatchObject({ phone: PHONE });
    expect(await prefilledPhone(checkoutUrl)).toBe(PHONE);
  });
});
