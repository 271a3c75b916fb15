import fs from "node:fs";
import path from "node:path";
import { buildSchema, coerceInputValue, GraphQLInputObjectType, parse, validate, type GraphQLSchema } from "graphql";
import { run, verifiedBy, type RunInput } from "../../extensions/cod-payment-customization/src/run";
import { phoneMatchesProof, PROOF_ATTRIBUTE } from "../../extensions/cod-payment-customization/src/proof-format";
import { ATTRIBUTES } from "~/shared/payment-modes";
import { checkProof, issueHoldoutProof, issueProof } from "~/otp/proof.server";

/**
 * The payment customization function: its input query checked against Shopify's published schema,
 * its logic run on inputs shaped by that schema, and every output checked against the schema's
 * output type (FunctionRunResult), as Shopify's CLI would before deploying it.
 */
const DIR = path.resolve(__dirname, "../../extensions/cod-payment-customization");
const SHOP = "test-shop.myshopify.com";
const PHONE = "+212600000001";

let schema: GraphQLSchema;
beforeAll(() => {
  schema = buildSchema(fs.readFileSync(path.join(DIR, "schema.graphql"), "utf8"));
});

/** Coerces `value` to the schema's FunctionRunResult; returns the errors (none when it is valid output). */
function outputErrors(value: unknown): string[] {
  const type = schema.getType("FunctionRunResult") as GraphQLInputObjectType;
  const errors: string[] = [];
  coerceInputValue(value, type, (p, _v, error) => errors.push(`${p.join(".")}: ${error.message}`));
  return errors;
}

const COD = { id: "gid://shopify/PaymentCustomizationPaymentMethod/1", name: "Cash on Delivery (COD)" };
const CARD = { id: "gid://shopify/PaymentCustomizationPaymentMethod/2", name: "Credit card" };
const POD = { id: "gid://shopify/PaymentCustomizationPaymentMethod/3", name: "Pay on delivery" };

function input(overrides: { proof?: string | null; buyerPhone?: string | null; addressPhones?: (string | null)[]; customerVerified?: boolean; names?: string[] | null; date?: string; methods?: { id: string; name: string }[] } = {}): RunInput {
  return {
    cart: {
      proof: overrides.proof === undefined ? null : { value: overrides.proof },
      buyerIdentity: {
        phone: overrides.buyerPhone ?? null,
        customer: overrides.customerVerified === undefined ? null : { verified: overrides.customerVerified },
      },
      deliveryGroups: (overrides.addressPhones ?? [null]).map((phone) => ({ deliveryAddress: { phone } })),
    },
    paymentMethods: overrides.methods ?? [CARD, COD, POD],
    paymentCustomization: { metafield: overrides.names === null ? null : { jsonValue: { codMethodNames: overrides.names ?? ["Cash on Delivery (COD)"] } } },
    shop: { localTime: { date: overrides.date ?? new Date().toISOString().slice(0, 10) } },
  };
}

const proof = (phone = PHONE, mode = "cod", at = new Date()) => issueProof(SHOP, { phone, mode, selectionId: "sel123" }, at).token;
const hideCod = { operations: [{ hide: { paymentMethodId: COD.id } }] };

describe("the input query", () => {
  it("is valid against Shopify's published payment customization schema", () => {
    const query = parse(fs.readFileSync(path.join(DIR, "src/run.graphql"), "utf8"));
    expect(validate(schema, query).map((e) => e.message)).toEqual([]);
  });

  it("the schema check is real: a field the schema lacks is refused", () => {
    const query = parse(`query { cart { selectedPaymentMethod { id } } }`);
    expect(validate(schema, query).length).toBeGreaterThan(0);
  });

  it("reads the cart attribute the app writes the proof into", () => {
    expect(ATTRIBUTES.proof).toBe(PROOF_ATTRIBUTE);
    // The modal writes it onto the theme's cart under the same name.
    expect(fs.readFileSync(path.join(DIR, "../cod-verify/assets/cod-modal-ui.js"), "utf8")).toContain(`var PROOF_ATTRIBUTE = "${PROOF_ATTRIBUTE}";`);
    expect(fs.readFileSync(path.join(DIR, "src/run.graphql"), "utf8")).toContain(`attribute(key: "${PROOF_ATTRIBUTE}")`);
  });

  it("the extension is declared as Shopify's template declares it", () => {
    const toml = fs.readFileSync(path.join(DIR, "shopify.extension.toml"), "utf8");
    expect(toml).toMatch(/type = "function"/);
    expect(toml).toMatch(/target = "purchase\.payment-customization\.run"/);
    expect(toml).toMatch(/input_query = "src\/run\.graphql"/);
    expect(toml).toMatch(/export = "run"/);
  });
});

describe("run: which payment methods the shopper is offered", () => {
  it("hides COD when the cart has no proof, and only COD", () => {
    const out = run(input({ buyerPhone: PHONE }));
    expect(out).toEqual(hideCod);
    expect(outputErrors(out)).toEqual([]);
  });

  it("keeps COD for a valid cod proof whose phone is the buyer's or a delivery address's (as typed at checkout)", () => {
    for (const typed of [PHONE, "+212 600-000001", "00212600000001", "0600000001", "212600000001"]) {
      expect(run(input({ proof: proof(), buyerPhone: typed })), typed).toEqual({ operations: [] });
    }
    expect(run(input({ proof: proof(), buyerPhone: "+212699999999", addressPhones: [null, "06 00 00 00 01"] }))).toEqual({ operations: [] });
    expect(verifiedBy(input({ proof: proof(), buyerPhone: PHONE }))).toBe("proof");
  });

  it("hides COD when the proof is for another phone, another mode, expired (by the shop's date), or not a proof", () => {
    const yesterday = new Date(Date.now() - 26 * 3600_000);
    const cases = [
      input({ proof: proof(), buyerPhone: "+212600000002", addressPhones: ["0600000002"] }),
      input({ proof: proof(), buyerPhone: null }),
      input({ proof: proof(PHONE, "prepaid"), buyerPhone: PHONE }),
      input({ proof: proof(PHONE, "cod", yesterday), buyerPhone: PHONE, date: new Date().toISOString().slice(0, 10) }),
      input({ proof: "true", buyerPhone: PHONE }),
      input({ proof: "", buyerPhone: PHONE }),
      input({ proof: `${proof()}.extra`, buyerPhone: PHONE }),
    ];
    for (const c of cases) {
      const out = run(c);
      expect(out).toEqual(hideCod);
      expect(outputErrors(out)).toEqual([]);
    }
  });

  it("hides COD for a proof the app issued to a high-risk shopper (v2, band h), even for a customer tagged verified; a v2 proof of another band restricts nothing", () => {
    const banded = (band: "low" | "medium" | "high") => issueProof(SHOP, { phone: PHONE, mode: "cod", selectionId: "sel123", band }, new Date()).token;
    expect(banded("high")).toMatch(/^v2\.212600000001\.cod\.\d+\.sel123\.h\.[0-9a-f]{32}$/);
    expect(run(input({ proof: banded("high"), buyerPhone: PHONE }))).toEqual(hideCod);
    expect(run(input({ proof: banded("high"), buyerPhone: PHONE, customerVerified: true }))).toEqual(hideCod);
    expect(banded("medium")).toMatch(/^v1\./);
    const v2Low = proof().replace(/^v1\.(.*)\.([0-9a-f]{32})$/, "v2.$1.l.$2");
    expect(run(input({ proof: v2Low, buyerPhone: PHONE }))).toEqual({ operations: [] });
    // A band letter the format does not know is not a proof.
    expect(run(input({ proof: proof().replace(/^v1\.(.*)\.([0-9a-f]{32})$/, "v2.$1.x.$2"), buyerPhone: PHONE }))).toEqual(hideCod);
  });

  it("keeps COD for a holdout proof (v3, app/experiment) on the buyer's phone, and for no other phone; the app never reads it as a verification", () => {
    const held = issueHoldoutProof(SHOP, { phone: PHONE, selectionId: "sel123" }).token;
    expect(held).toMatch(/^v3\.212600000001\.cod\.\d+\.sel123\.[0-9a-f]{32}$/);
    expect(run(input({ proof: held, buyerPhone: PHONE }))).toEqual({ operations: [] });
    expect(run(input({ proof: held, buyerPhone: "+212600000009" }))).toEqual(hideCod);
    expect(checkProof(SHOP, held)).toMatchObject({ ok: true, proof: { holdout: true } });
    // A v1 proof's signature does not carry over to a v3 body (the version is signed), nor the other way.
    expect(checkProof(SHOP, held.replace(/^v3\./, "v1."))).toMatchObject({ ok: false, reason: "bad_signature" });
    expect(checkProof(SHOP, proof().replace(/^v1\./, "v3."))).toMatchObject({ ok: false, reason: "bad_signature" });
  });

  it("keeps COD for a returning customer the app tagged as verified", () => {
    expect(run(input({ customerVerified: true }))).toEqual({ operations: [] });
    expect(verifiedBy(input({ customerVerified: true }))).toBe("returning_customer");
    expect(run(input({ customerVerified: false }))).toEqual(hideCod);
  });

  it("hides every method the merchant named (case and spacing aside), and falls back to Shopify's COD name without configuration", () => {
    const out = run(input({ names: ["cash on delivery (cod)", "  Pay   on delivery "] }));
    expect(out).toEqual({ operations: [{ hide: { paymentMethodId: COD.id } }, { hide: { paymentMethodId: POD.id } }] });
    expect(outputErrors(out)).toEqual([]);
    expect(run(input({ names: null }))).toEqual(hideCod);
    expect(run(input({ names: [] }))).toEqual(hideCod);
  });

  it("hides nothing while verification is paused (enforce: false), and hides as before when enforce is true or absent", () => {
    const configured = (jsonValue: unknown): RunInput => ({ ...input(), paymentCustomization: { metafield: { jsonValue } } });
    const out = run(configured({ codMethodNames: ["Cash on Delivery (COD)"], enforce: false }));
    expect(out).toEqual({ operations: [] });
    expect(outputErrors(out)).toEqual([]);
    expect(run(configured({ codMethodNames: ["Cash on Delivery (COD)"], enforce: true }))).toEqual(hideCod);
    expect(run(configured({ codMethodNames: ["Cash on Delivery (COD)"] }))).toEqual(hideCod);
    // Only a real false pauses: a malformed value keeps protection on.
    expect(run(configured({ codMethodNames: ["Cash on Delivery (COD)"], enforce: "false" }))).toEqual(hideCod);
  });

  it("changes nothing when the store has no COD method", () => {
    expect(run(input({ methods: [CARD] }))).toEqual({ operations: [] });
  });

  it("the output check is real: a wrong operation is refused", () => {
    expect(outputErrors({ operations: [{ hide: {} }] }).length).toBeGreaterThan(0);
    expect(outputErrors({ operations: [{ hide: { paymentMethodId: "1" }, rename: { paymentMethodId: "1", name: "x" } }] }).length).toBeGreaterThan(0);
  });
});

describe("phoneMatchesProof", () => {
  it("matches international forms exactly and national forms by their ending (7 digits or more)", () => {
    expect(phoneMatchesProof("212600000001", "+212600000001")).toBe(true);
    expect(phoneMatchesProof("212600000001", "+213600000001")).toBe(false);
    expect(phoneMatchesProof("212600000001", "0600000001")).toBe(true);
    expect(phoneMatchesProof("212600000001", "000001")).toBe(false);
    expect(phoneMatchesProof("212600000001", "")).toBe(false);
    expect(phoneMatchesProof("212600000001", null)).toBe(false);
  });
});
