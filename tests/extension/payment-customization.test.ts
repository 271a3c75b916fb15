import fs from "node:fs";
import path from "node:path";
import { buildSchema, parse, printSchema, validate, type GraphQLSchema } from "graphql";
import {
  verifiedBy,
  type CartPaymentMethodsTransformRunInput as RunInput,
} from "../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";
import * as entry from "../../extensions/cod-payment-customization/src/index";
import { phoneMatchesProof, PROOF_ATTRIBUTE } from "../../extensions/cod-payment-customization/src/proof-format";
import { ATTRIBUTES } from "~/shared/payment-modes";
import { checkProof, issueHoldoutProof, issueProof } from "~/otp/proof.server";
import { SCHEMA_SOURCE, shopifySchema } from "../helpers/shopify-schemas";
import { FUNCTION_DIR, functionSchema, outputErrors, QUERY_FILE, runChecked } from "../helpers/checkout-function";
import { FUNCTION_HANDLE, functionConfiguration } from "~/enforcement/cod-methods";
import { isCodGateway } from "~/core/shopify/order-facts";

/**
 * The payment customization function on target `cart.payment-methods.transform.run`: its input query
 * checked against Shopify's published 2026-10 schema (shopify-schemas/, the committed schema.graphql is
 * printed from it), every input the tests build checked to be what that query returns, and every output
 * coerced to the schema's `CartPaymentMethodsTransformRunResult` (with `Operation` one-of, as Shopify
 * declares it), as Shopify's CLI and checkout would.
 */
const DIR = FUNCTION_DIR;
const SHOP = "test-shop.myshopify.com";
const PHONE = "+212600000001";

let schema: GraphQLSchema;
beforeAll(() => {
  schema = functionSchema();
});

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
const hideCod = { operations: [{ paymentMethodHide: { paymentMethodId: COD.id } }] };

describe("the function as Shopify sees it", () => {
  it("the committed schema.graphql is Shopify's published payment customization schema of the function's API version", () => {
    const committed = buildSchema(fs.readFileSync(path.join(DIR, "schema.graphql"), "utf8"));
    expect(printSchema(committed)).toBe(printSchema(shopifySchema("functions_payment_customization")));
  });

  it("the input query is valid against it", () => {
    const query = parse(fs.readFileSync(path.join(DIR, QUERY_FILE), "utf8"));
    expect(validate(schema, query).map((e) => e.message)).toEqual([]);
  });

  it("the schema check is real: a field the schema lacks is refused", () => {
    const query = parse(`query { cart { selectedPaymentMethod { id } } }`);
    expect(validate(schema, query).length).toBeGreaterThan(0);
  });

  it("the input check is real: an input the query would not return is refused", () => {
    expect(() => runChecked({ ...input(), shop: { localTime: { date: "2026-01-01", time: "10:00" } } } as RunInput)).toThrow();
    expect(() => runChecked({ ...input(), paymentMethods: [{ id: COD.id, name: null }] } as unknown as RunInput)).toThrow();
  });

  it("reads the cart attribute the app writes the proof into", () => {
    expect(ATTRIBUTES.proof).toBe(PROOF_ATTRIBUTE);
    // The modal writes it onto the theme's cart under the same name.
    expect(fs.readFileSync(path.join(DIR, "../cod-verify/assets/cod-modal-ui.js"), "utf8")).toContain(`var PROOF_ATTRIBUTE = "${PROOF_ATTRIBUTE}";`);
    expect(fs.readFileSync(path.join(DIR, QUERY_FILE), "utf8")).toContain(`attribute(key: "${PROOF_ATTRIBUTE}")`);
  });

  it("the extension is declared as Shopify's template for cart.payment-methods.transform.run declares it, on the schemas' API version", () => {
    const toml = fs.readFileSync(path.join(DIR, "shopify.extension.toml"), "utf8");
    expect(toml).toMatch(/type = "function"/);
    expect(toml).toMatch(new RegExp(`^api_version = "${SCHEMA_SOURCE.apiVersion}"$`, "m"));
    expect(toml).toMatch(/target = "cart\.payment-methods\.transform\.run"/);
    expect(toml).toMatch(/input_query = "src\/cart_payment_methods_transform_run\.graphql"/);
    // The CLI calls the export named in camel case from src/index.ts.
    const exportName = /export = "([a-z-]+)"/.exec(toml)?.[1] ?? "";
    expect(exportName).toBe("cart-payment-methods-transform-run");
    const camel = exportName.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
    expect(typeof (entry as Record<string, unknown>)[camel]).toBe("function");
    expect(fs.readFileSync(path.join(DIR, QUERY_FILE), "utf8")).toMatch(/^query CartPaymentMethodsTransformRunInput \{/m);
    // paymentCustomizationCreate names the function by this handle (app/enforcement/payment-customization.server.ts).
    expect(toml).toMatch(new RegExp(`^handle = "${FUNCTION_HANDLE}"$`, "m"));
    // The library on its current major.
    const pkg = JSON.parse(fs.readFileSync(path.join(DIR, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(pkg.dependencies["@shopify/shopify_function"]).toMatch(/^\^2\./);
  });
});

describe("run: which payment methods the shopper is offered", () => {
  it("hides COD when the cart has no proof, and only COD", () => {
    const out = runChecked(input({ buyerPhone: PHONE }));
    expect(out).toEqual(hideCod);
    expect(outputErrors(out)).toEqual([]);
  });

  it("keeps COD for a valid cod proof whose phone is the buyer's or a delivery address's (as typed at checkout)", () => {
    for (const typed of [PHONE, "+212 600-000001", "00212600000001", "0600000001", "212600000001"]) {
      expect(runChecked(input({ proof: proof(), buyerPhone: typed })), typed).toEqual({ operations: [] });
    }
    expect(runChecked(input({ proof: proof(), buyerPhone: "+212699999999", addressPhones: [null, "06 00 00 00 01"] }))).toEqual({ operations: [] });
    expect(verifiedBy(input({ proof: proof(), buyerPhone: PHONE }))).toBe("proof");
  });

  it("hides COD when the proof is for another phone, another mode, expired (by the shop's date), or not a proof", () => {
    // Without the shop's zone in the configuration the function reads the expiry's date at UTC+14: a proof
    // that expired 49 hours ago is days past in every zone (tests/extension/checkout-time-zones.test.ts sweeps the rest).
    const yesterday = new Date(Date.now() - 51 * 3600_000);
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
      const out = runChecked(c);
      expect(out).toEqual(hideCod);
      expect(outputErrors(out)).toEqual([]);
    }
  });

  it("hides COD for a proof the app issued to a high-risk shopper (v2, band h), even for a customer tagged verified; a v2 proof of another band restricts nothing", () => {
    const banded = (band: "low" | "medium" | "high") => issueProof(SHOP, { phone: PHONE, mode: "cod", selectionId: "sel123", band }, new Date()).token;
    expect(banded("high")).toMatch(/^v2\.212600000001\.cod\.\d+\.sel123\.h\.[0-9a-f]{32}$/);
    expect(runChecked(input({ proof: banded("high"), buyerPhone: PHONE }))).toEqual(hideCod);
    expect(runChecked(input({ proof: banded("high"), buyerPhone: PHONE, customerVerified: true }))).toEqual(hideCod);
    expect(banded("medium")).toMatch(/^v1\./);
    const v2Low = proof().replace(/^v1\.(.*)\.([0-9a-f]{32})$/, "v2.$1.l.$2");
    expect(runChecked(input({ proof: v2Low, buyerPhone: PHONE }))).toEqual({ operations: [] });
    // A band letter the format does not know is not a proof.
    expect(runChecked(input({ proof: proof().replace(/^v1\.(.*)\.([0-9a-f]{32})$/, "v2.$1.x.$2"), buyerPhone: PHONE }))).toEqual(hideCod);
  });

  it("keeps COD for a holdout proof (v3, app/experiment) on the buyer's phone, and for no other phone; the app never reads it as a verification", () => {
    const held = issueHoldoutProof(SHOP, { phone: PHONE, selectionId: "sel123" }).token;
    expect(held).toMatch(/^v3\.212600000001\.cod\.\d+\.sel123\.[0-9a-f]{32}$/);
    expect(runChecked(input({ proof: held, buyerPhone: PHONE }))).toEqual({ operations: [] });
    expect(runChecked(input({ proof: held, buyerPhone: "+212600000009" }))).toEqual(hideCod);
    expect(checkProof(SHOP, held)).toMatchObject({ ok: true, proof: { holdout: true } });
    // A v1 proof's signature does not carry over to a v3 body (the version is signed), nor the other way.
    expect(checkProof(SHOP, held.replace(/^v3\./, "v1."))).toMatchObject({ ok: false, reason: "bad_signature" });
    expect(checkProof(SHOP, proof().replace(/^v1\./, "v3."))).toMatchObject({ ok: false, reason: "bad_signature" });
  });

  it("keeps COD for a returning customer the app tagged as verified", () => {
    expect(runChecked(input({ customerVerified: true }))).toEqual({ operations: [] });
    expect(verifiedBy(input({ customerVerified: true }))).toBe("returning_customer");
    expect(runChecked(input({ customerVerified: false }))).toEqual(hideCod);
  });

  it("hides every method the merchant named (case and spacing aside), and falls back to Shopify's COD name without configuration", () => {
    const out = runChecked(input({ names: ["cash on delivery (cod)", "  Pay   on delivery "] }));
    expect(out).toEqual({ operations: [{ paymentMethodHide: { paymentMethodId: COD.id } }, { paymentMethodHide: { paymentMethodId: POD.id } }] });
    expect(outputErrors(out)).toEqual([]);
    expect(runChecked(input({ names: null }))).toEqual(hideCod);
    expect(runChecked(input({ names: [] }))).toEqual(hideCod);
  });

  it("hides nothing while verification is paused (enforce: false), and hides as before when enforce is true or absent", () => {
    const configured = (jsonValue: unknown): RunInput => ({ ...input(), paymentCustomization: { metafield: { jsonValue } } });
    const out = runChecked(configured({ codMethodNames: ["Cash on Delivery (COD)"], enforce: false }));
    expect(out).toEqual({ operations: [] });
    expect(outputErrors(out)).toEqual([]);
    expect(runChecked(configured({ codMethodNames: ["Cash on Delivery (COD)"], enforce: true }))).toEqual(hideCod);
    expect(runChecked(configured({ codMethodNames: ["Cash on Delivery (COD)"] }))).toEqual(hideCod);
    // Only a real false pauses: a malformed value keeps protection on.
    expect(runChecked(configured({ codMethodNames: ["Cash on Delivery (COD)"], enforce: "false" }))).toEqual(hideCod);
  });

  it("changes nothing when the store has no COD method", () => {
    expect(runChecked(input({ methods: [CARD] }))).toEqual({ operations: [] });
  });

  it("the output check is real: the legacy target's operation, a variant Shopify lacks and two variants in one operation are refused", () => {
    expect(outputErrors({ operations: [{ hide: { paymentMethodId: COD.id } }] }).length).toBeGreaterThan(0);
    expect(outputErrors({ operations: [{ paymentMethodHide: {} }] }).length).toBeGreaterThan(0);
    expect(outputErrors({ operations: [{ paymentMethodHide: { paymentMethodId: "1" }, paymentMethodRename: { paymentMethodId: "1", name: "x" } }] }).length).toBeGreaterThan(0);
    expect(outputErrors({ operations: [{ paymentMethodHide: { paymentMethodId: COD.id, placements: ["ACCELERATED_CHECKOUT"] } }] })).toEqual([]);
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

/**
 * One rule for "is this cash on delivery", held on both sides with the same cases: the checkout function
 * (hides the method for a shopper without a proof) and orders/create (treats the order's gateway as COD).
 * The shop's settings text is what both start from: the function through its configuration metafield.
 */
describe("the COD name rule, the same at checkout and on the order", () => {
  const cases: [settings: string | null, name: string, cod: boolean][] = [
    [null, "Cash on Delivery (COD)", true],
    [null, "  cash on delivery (cod) ", true],
    [null, "Pay on delivery", false],
    [null, "Credit card", false],
    ["Pay on delivery", "Pay on delivery", true],
    ["Pay on delivery", "PAY  ON DELIVERY", true],
    ["Pay on delivery", "Cash on Delivery (COD)", true],
    ["Pago contra entrega\nPay on delivery", "pago contra entrega", true],
    ["Pay on delivery", "Credit card", false],
    ["", "Cash on Delivery (COD)", true],
    ["   \n  ", "Pay on delivery", false],
  ];
  it.each(cases)("settings %j, method %j: cash on delivery %s", (settings, name, cod) => {
    const method = { id: "gid://shopify/PaymentCustomizationPaymentMethod/9", name };
    const configuration = functionConfiguration(settings);
    const run = runChecked({ ...input({ methods: [method] }), paymentCustomization: { metafield: { jsonValue: configuration } } } as RunInput);
    expect(run.operations.length > 0, "checkout function").toBe(cod);
    expect(isCodGateway([name], settings), "orders/create").toBe(cod);
  });
});
