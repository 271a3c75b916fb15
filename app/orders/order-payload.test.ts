import { orderCreatedPayload as orderPayload } from "~/shopify/webhook-payloads";
import { isCashOnDelivery, orderPhones, selectionIdOf, tagsForOrder } from "./order-payload";
import { normalizePhone } from "~/shared/phone";

const base = { admin_graphql_api_id: "gid://shopify/Order/1" };
const settings = { tagOrders: true, tagVerified: "cod-verified", tagUnverified: "cod-unverified", tagModePrefix: "payment-mode:" };

describe("normalizePhone on phones as Shopify stores them", () => {
  it.each([
    ["+212 600-000-001", "+212600000001"],
    ["00212600000001", "+212600000001"],
    ["(+1) 415 555 0123", "+14155550123"],
    ["0600000001", null],
    ["+123", null],
    [null, null],
  ])("%s → %s", (raw, e164) => expect(normalizePhone(raw)).toBe(e164));
});

describe("the orders/create payload", () => {
  it("collects the phones from the order, the customer and both addresses, without repeats", () => {
    const order = orderPayload.parse({
      ...base,
      phone: "+212600000001",
      customer: { phone: "+212 600 000 001" },
      shipping_address: { phone: "+212600000002" },
      billing_address: null,
    });
    expect(orderPhones(order)).toEqual(["+212600000001", "+212600000002"]);
  });

  it("reads our selection attribute, and nothing that does not look like one of our ids", () => {
    expect(selectionIdOf(orderPayload.parse({ ...base, note_attributes: [{ name: "_cod_selection", value: "cm1abcdefghij0123" }] }))).toBe("cm1abcdefghij0123");
    expect(selectionIdOf(orderPayload.parse({ ...base, note_attributes: [{ name: "_cod_selection", value: "'; drop" }] }))).toBeNull();
  });

  it("knows cash on delivery by the gateway name", () => {
    expect(isCashOnDelivery(orderPayload.parse({ ...base, payment_gateway_names: ["Cash on Delivery (COD)"] }))).toBe(true);
    expect(isCashOnDelivery(orderPayload.parse({ ...base, payment_gateway_names: ["shopify_payments"] }))).toBe(false);
  });
});

describe("tagsForOrder", () => {
  const cod = orderPayload.parse({ ...base, payment_gateway_names: ["Cash on Delivery (COD)"] });
  const card = orderPayload.parse({ ...base, payment_gateway_names: ["shopify_payments"] });
  it("tags a linked cod order by its verification and mode", () => {
    expect(tagsForOrder(settings, { mode: "cod", verified: true }, cod)).toEqual(["cod-verified", "payment-mode:cod"]);
    expect(tagsForOrder(settings, { mode: "cod", verified: false }, cod)).toEqual(["cod-unverified", "payment-mode:cod"]);
  });
  it("tags other linked modes by mode only", () => {
    expect(tagsForOrder(settings, { mode: "partial", verified: true }, card)).toEqual(["payment-mode:partial"]);
  });
  it("tags an unlinked cod order unverified and leaves other unlinked orders alone", () => {
    expect(tagsForOrder(settings, null, cod)).toEqual(["cod-unverified"]);
    expect(tagsForOrder(settings, null, card)).toEqual([]);
  });
  it("tags nothing when the shop turned tagging off", () => {
    expect(tagsForOrder({ ...settings, tagOrders: false }, { mode: "cod", verified: true }, cod)).toEqual([]);
  });
});
