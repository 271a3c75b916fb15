import { spokenMoney, spokenOrderName, writtenMoney } from "./money-words";

describe("money as people write it", () => {
  it.each([
    ["en", "₹1,299"],
    ["hi", "₹1,299"],
    ["ar", "‏1,299 ₹"],
    ["fr", "1 299 ₹"],
    ["es", "1299 ₹"],
  ])("%s shows the shop's currency symbol in the shop's country's format, never the code", (language, shown) => {
    const written = writtenMoney({ amount: 1299, currency: "INR" }, language, "IN");
    expect(written.replace(/\s/g, " ")).toBe(shown.replace(/\s/g, " "));
    expect(written).not.toContain("INR");
  });

  it("keeps the decimals of an amount that has them, and reads a shop without a currency as a plain number", () => {
    expect(writtenMoney({ amount: 1299.5, currency: "INR" }, "en", "IN")).toBe("₹1,299.50");
    expect(writtenMoney({ amount: 12.5, currency: "EUR" }, "fr", "FR").replace(/\s/g, " ")).toBe("12,50 €");
    expect(writtenMoney({ amount: 499, currency: null }, "en", null)).toBe("499");
  });
});

describe("money as people say it", () => {
  it.each([
    ["en", 499, "499 rupees"],
    ["en", 1, "1 rupee"],
    ["hi", 499, "499 रुपये"],
    ["hi", 1, "1 रुपया"],
    ["ar", 499, "499 روبية"],
    ["fr", 1299, "1299 roupies"],
    ["es", 1299, "1299 rupias"],
  ])("%s: %d INR is %j (no decimals, no grouping, the currency as a word)", (language, amount, said) => {
    expect(spokenMoney({ amount, currency: "INR" }, language)).toBe(said);
  });

  it("other currencies by their name in the language, declined by Intl; decimals only when there are some", () => {
    expect(spokenMoney({ amount: 499, currency: "AED" }, "en")).toBe("499 UAE dirhams");
    expect(spokenMoney({ amount: 12.5, currency: "USD" }, "en")).toBe("12.50 US dollars");
    expect(spokenMoney({ amount: 12.5, currency: "EUR" }, "es")).toBe("12,50 euros");
  });
});

describe("an order's name aloud", () => {
  it.each([
    ["#1001", "1001"],
    ["L19239", "L 1 9 2 3 9"],
    ["#SO-20411", "SO 2 0 4 1 1"],
    ["COD42", "COD 42"],
  ])("%j is said %j", (name, said) => {
    expect(spokenOrderName(name)).toBe(said);
  });
});
