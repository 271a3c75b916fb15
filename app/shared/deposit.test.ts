import { currencyDigits, depositCodeOf, depositSplit } from "./deposit";

describe("depositSplit: the deposit paid at checkout and the balance collected on delivery", () => {
  it("a percentage, rounded up to the currency's smallest unit so the shopper never pays less than configured", () => {
    expect(depositSplit("percentage", 20, 50, 2)).toEqual({ subtotal: 50, deposit: 10, balance: 40 });
    expect(depositSplit("percentage", 20, 33.33, 2)).toEqual({ subtotal: 33.33, deposit: 6.67, balance: 26.66 });
    expect(depositSplit("percentage", 15, 1999, currencyDigits("JPY"))).toEqual({ subtotal: 1999, deposit: 300, balance: 1699 });
    expect(depositSplit("percentage", 10, 12.345, currencyDigits("KWD"))).toEqual({ subtotal: 12.345, deposit: 1.235, balance: 11.11 });
  });

  it("a fixed amount", () => {
    expect(depositSplit("fixed", 15, 50, 2)).toEqual({ subtotal: 50, deposit: 15, balance: 35 });
  });

  it("no split that leaves nothing to pay now or later", () => {
    expect(depositSplit("fixed", 50, 50, 2)).toBeNull();
    expect(depositSplit("fixed", 80, 50, 2)).toBeNull();
    expect(depositSplit("percentage", 100, 50, 2)).toBeNull();
    expect(depositSplit("percentage", 0.5, 50, 2)).toBeNull();
    expect(depositSplit("percentage", 20, 0, 2)).toBeNull();
    expect(depositSplit("percentage", 99, 0.01, 2)).toBeNull();
  });

  it("currencies' decimals, 2 where the runtime does not know the code", () => {
    expect([currencyDigits("USD"), currencyDigits("JPY"), currencyDigits("KWD"), currencyDigits("XXQ"), currencyDigits(null)]).toEqual([2, 0, 3, 2, 2]);
  });

  it("finds the app's own code among an order's codes, whatever its case, and no other", () => {
    expect(depositCodeOf([{ code: "WELCOME10", amount: 5 }, { code: "codv-dep-ABC", amount: 40 }])).toEqual({ code: "codv-dep-ABC", amount: 40 });
    expect(depositCodeOf([{ code: "DEP-CODV", amount: 40 }])).toBeNull();
  });
});
