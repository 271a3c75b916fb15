import { orderCreatedPayload as orderPayload } from "~/core/shopify/webhook-payloads";
import { isCodGateway, readOrderFacts, shopCountryOf } from "./order-facts";
import { paymentModeOf, tagsForOrder } from "~/orders/order-tags";

const base = { admin_graphql_api_id: "gid://shopify/Order/1" };
const shop = { codMethodNames: "Cash on Delivery (COD)", country: null };
const received = new Date("2026-11-20T10:00:00Z");
const facts = (order: Record<string, unknown>, s: { codMethodNames: string | null; country: string | null } = shop) =>
  readOrderFacts(orderPayload.parse({ ...base, ...order }), s, received);

describe("the order's phones", () => {
  it("are every phone of the order in E.164, each once, in order of trust: order, customer, shipping, billing", () => {
    const f = facts({
      phone: "+212600000001",
      customer: { phone: "+212 600 000 001" },
      shipping_address: { phone: "+212600000002" },
      billing_address: { phone: "00212600000003" },
    });
    expect(f.phones).toEqual(["+212600000001", "+212600000002", "+212600000003"]);
  });

  it("read a national number with the shipping address's country, then the billing's, then the shop's", () => {
    expect(facts({ phone: "(415) 365-6949", shipping_address: { country_code: "US" } }).phones).toEqual(["+14153656949"]);
    expect(facts({ phone: "0600000002", billing_address: { country_code: "MA" } }).phones).toEqual(["+212600000002"]);
    expect(facts({ phone: "0600000002" }, { ...shop, country: "MA" }).phones).toEqual(["+212600000002"]);
    // The shipping address's country wins over the billing address's for the order's own phone.
    expect(facts({ phone: "(415) 365-6949", shipping_address: { country_code: "US" }, billing_address: { country_code: "MA" } }).phones).toEqual([
      "+14153656949",
    ]);
  });

  it("read an address's own phone with that address's country", () => {
    const f = facts({ shipping_address: { phone: "06 00 00 00 02", country_code: "MA" }, billing_address: { phone: "415-365-6949", country_code: "US" } });
    expect(f.phones).toEqual(["+212600000002", "+14153656949"]);
  });

  it("leave out what no country makes a number", () => {
    expect(facts({ phone: "4153656949" }).phones).toEqual([]);
    expect(facts({ phone: "12", shipping_address: { country_code: "US" } }).phones).toEqual([]);
    expect(facts({ phone: "0600000002", shipping_address: { country_code: "ZZ" } }).phones).toEqual([]);
  });

  it("give the address check the number to text: the order's own, the shipping address's, then the customer's", () => {
    expect(facts({ customer: { phone: "+212600000001" }, shipping_address: { phone: "0600000002", country_code: "MA" } }).contactPhone).toBe("+212600000002");
  });
});

describe("what the order carries", () => {
  it("its proof, our selection attribute (only when it looks like one of our ids) and its cart tokens", () => {
    const f = facts({
      note_attributes: [
        { name: "_cod_selection", value: "cm1abcdefghij0123" },
        { name: "_cod_proof", value: "v1.212600000001.cod.1900000000.x.sig" },
      ],
      cart_token: "c1",
      checkout_token: "k1",
    });
    expect(f).toMatchObject({ selectionId: "cm1abcdefghij0123", proof: "v1.212600000001.cod.1900000000.x.sig", cartTokens: ["c1", "k1"] });
    expect(facts({ note_attributes: [{ name: "_cod_selection", value: "'; drop" }] }).selectionId).toBeNull();
  });

  it("when it was placed, or when it arrived if Shopify did not say", () => {
    expect(facts({ created_at: "2026-11-20T09:00:00-05:00" }).placedAt.toISOString()).toBe("2026-11-20T14:00:00.000Z");
    expect(facts({ created_at: "not a date" }).placedAt).toEqual(received);
  });

  it("its customer, only by a customer id", () => {
    expect(facts({ customer: { admin_graphql_api_id: "gid://shopify/Customer/7", tags: "vip, cod-verified-customer" } }).customer).toEqual({
      gid: "gid://shopify/Customer/7",
      tags: ["vip", "cod-verified-customer"],
    });
    expect(facts({ customer: { admin_graphql_api_id: "gid://shopify/Order/7" } }).customer.gid).toBeNull();
  });
});

describe("cash on delivery, by the checkout function's rule", () => {
  const renamed = ["Pago contra entrega", "Paiement à la livraison", "الدفع عند الاستلام"];
  it("a method the shop lists, however its spacing and letter case differ", () => {
    const listed = renamed.join("\n");
    for (const name of renamed) {
      expect(isCodGateway([name], listed), name).toBe(true);
      expect(isCodGateway([`  ${name.toUpperCase()} `], listed), name).toBe(true);
    }
    expect(facts({ payment_gateway_names: ["Paiement  à la livraison"] }, { ...shop, codMethodNames: listed }).isCod).toBe(true);
  });

  it("Shopify's manual method by its default name, whatever the shop lists", () => {
    expect(isCodGateway(["Cash on Delivery (COD)"], "Pago contra entrega")).toBe(true);
    expect(isCodGateway([null, "cash on delivery (cod)"], null)).toBe(true);
  });

  it("not a method the shop does not list, nor a card gateway", () => {
    for (const name of renamed) expect(isCodGateway([name], "Cash on Delivery (COD)"), name).toBe(false);
    expect(isCodGateway(["shopify_payments"], "Cash on Delivery (COD)")).toBe(false);
    expect(isCodGateway(["Cash on Delivery"], null)).toBe(false);
  });
});

describe("the shop's country", () => {
  it("is the one country its allow-list names, else the country Shopify gives for the shop", () => {
    expect(shopCountryOf({ allowedCountries: "ma", country: "FR" })).toBe("MA");
    expect(shopCountryOf({ allowedCountries: "MA, FR", country: null })).toBeNull();
    expect(shopCountryOf({ allowedCountries: "MA, FR", country: "FR" })).toBe("FR");
    expect(shopCountryOf({ allowedCountries: "", country: null })).toBeNull();
  });
});

describe("tags", () => {
  const settings = { tagOrders: true, tagVerified: "cod-verified", tagUnverified: "cod-unverified", tagModePrefix: "payment-mode:" };
  it("the gateway decides the mode: a COD order is cod whatever the selection named", () => {
    expect(paymentModeOf(true, { mode: "prepaid" })).toBe("cod");
    expect(paymentModeOf(false, { mode: "partial" })).toBe("partial");
    expect(paymentModeOf(false, { mode: "cod" })).toBeNull();
    expect(paymentModeOf(true, null)).toBeNull();
  });
  it("a COD order gets its verification tag, any order its mode", () => {
    expect(tagsForOrder(settings, { isCod: true, mode: "cod", verified: true })).toEqual(["cod-verified", "payment-mode:cod"]);
    expect(tagsForOrder(settings, { isCod: true, mode: null, verified: false })).toEqual(["cod-unverified"]);
    expect(tagsForOrder(settings, { isCod: false, mode: "prepaid", verified: true })).toEqual(["payment-mode:prepaid"]);
    expect(tagsForOrder(settings, { isCod: false, mode: null, verified: false })).toEqual([]);
    expect(tagsForOrder({ ...settings, tagOrders: false }, { isCod: true, mode: "cod", verified: true })).toEqual([]);
  });
});

describe("the buyer's IP", () => {
  it("is browser_ip, else client_details.browser_ip, in one canonical form", () => {
    expect(facts({ browser_ip: "203.0.113.9" }).browserIp).toBe("203.0.113.9");
    expect(facts({ browser_ip: null, client_details: { browser_ip: "203.0.113.9", user_agent: "x" } }).browserIp).toBe("203.0.113.9");
    expect(facts({ browser_ip: "2001:0DB8:0000:0000:0000:0000:0000:0001" }).browserIp).toBe("2001:db8::1");
    expect(facts({ browser_ip: "::ffff:203.0.113.9" }).browserIp).toBe("203.0.113.9");
  });
  it("is null when the order has none (draft, POS, API orders) or an unreadable one", () => {
    expect(facts({}).browserIp).toBeNull();
    expect(facts({ browser_ip: null, client_details: null }).browserIp).toBeNull();
    for (const bad of ["", "unknown", "256.1.1.1", "1.2.3", "01.2.3.4", "fe80::1%eth0", "1:2:3:4:5:6:7:8:9", "203.0.113.9, 10.0.0.1"]) {
      expect(facts({ browser_ip: bad }).browserIp, bad).toBeNull();
    }
  });
});
