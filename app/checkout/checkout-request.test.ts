import { createCheckoutBody, depositPercentage, discountCodeFor, itemsOf, toVariantGid } from "./checkout-request";

describe("toVariantGid", () => {
  it.each([
    ["123", "gid://shopify/ProductVariant/123"],
    [123, "gid://shopify/ProductVariant/123"],
    ["gid://shopify/ProductVariant/44", "gid://shopify/ProductVariant/44"],
    [" 7 ", "gid://shopify/ProductVariant/7"],
  ])("%s → %s", (input, gid) => expect(toVariantGid(input)).toBe(gid));

  it.each(["gid://shopify/Product/1", "abc", "-1", "1.5", "gid://shopify/ProductVariant/x"])("refuses %s", (input) =>
    expect(toVariantGid(input)).toBeNull(),
  );
});

describe("createCheckoutBody", () => {
  it("defaults the quantity to 1 and merges repeated variants", () => {
    const body = createCheckoutBody.parse({ phone: "+14155550123", selectedMode: "cod", variantId: 5 });
    expect(itemsOf(body)).toEqual([{ variantId: "gid://shopify/ProductVariant/5", quantity: 1 }]);
    const lines = createCheckoutBody.parse({
      phone: "+14155550123",
      selectedMode: "cod",
      lines: [{ variantId: "5" }, { variantId: "gid://shopify/ProductVariant/5", quantity: 998 }],
    });
    expect(itemsOf(lines)).toEqual([{ variantId: "gid://shopify/ProductVariant/5", quantity: 999 }]);
  });

  it("needs variantId or lines, and not both", () => {
    expect(createCheckoutBody.safeParse({ phone: "+14155550123", selectedMode: "cod" }).success).toBe(false);
    expect(createCheckoutBody.safeParse({ phone: "+14155550123", selectedMode: "cod", variantId: "1", lines: [{ variantId: "2" }] }).success).toBe(false);
  });

  it("takes 10 to 15 digits after the +", () => {
    const ok = (phone: string) => createCheckoutBody.safeParse({ phone, selectedMode: "cod", variantId: "1" }).success;
    expect(ok("+1234567890")).toBe(true);
    expect(ok("+123456789012345")).toBe(true);
    expect(ok("+123456789")).toBe(false);
    expect(ok("+1234567890123456")).toBe(false);
    expect(ok("1234567890")).toBe(false);
  });
});

describe("depositPercentage", () => {
  it("passes a percentage from 1 to 99 through", () => {
    expect(depositPercentage("percentage", 20, null)).toBe(20);
    expect(depositPercentage("percentage", 0, null)).toBeNull();
    expect(depositPercentage("percentage", 100, null)).toBeNull();
  });
  it("turns a fixed amount into the share of the total, rounded up, within 1..99", () => {
    expect(depositPercentage("fixed", 20, 75)).toBe(26.67);
    expect(depositPercentage("fixed", 200, 75)).toBe(99);
    expect(depositPercentage("fixed", 0.01, 1000)).toBe(1);
    expect(depositPercentage("fixed", 20, 0)).toBeNull();
    expect(depositPercentage("fixed", 20, null)).toBeNull();
  });
});

describe("discountCodeFor", () => {
  const shop = { discountCodeCod: " ", discountCodePrepaid: "PRE10", discountCodePartial: null };
  it("picks the mode's code and ignores blanks", () => {
    expect(discountCodeFor(shop, "prepaid")).toBe("PRE10");
    expect(discountCodeFor(shop, "cod")).toBeNull();
    expect(discountCodeFor(shop, "partial")).toBeNull();
  });
});
