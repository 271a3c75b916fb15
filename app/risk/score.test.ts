import { addressCompleteness, hasRepeatedWords, looksGibberish, normalizePostalCode, percentile90, phoneKind, postalCodeFormat } from "./signals";
import { allowedModesFor, bandOf, postalArea, smoothedFailureRate, parsePhoneList, parsePostalCodeList, POINTS, scoreRisk, type RiskFacts, type RiskSettings } from "./score";

const SETTINGS: RiskSettings = { mediumThreshold: 20, highThreshold: 60, deniedPostalCodes: [], prepaidPhones: [], codValueCap: null };
const MOBILE = "+919812345678";
const GOOD_ADDRESS = { address1: "Flat 12, Shanti Apartments, MG Road", address2: "Near City Mall", city: "Mumbai", province: "Maharashtra", zip: "400001", country_code: "IN" };
const facts = (over: Partial<RiskFacts> = {}): RiskFacts => ({
  phone: MOBILE,
  otpVerified: null,
  history: null,
  address: null,
  orderValue: null,
  usualValueP90: null,
  velocity: { codesForPhone: 0, requestsFromIp: 0 },
  ...over,
});
const codes = (f: RiskFacts, s = SETTINGS) => scoreRisk(f, s).reasons.map((r) => r.code);

describe("phone signals (libphonenumber)", () => {
  it("reads mobile, landline and invalid numbers", () => {
    expect(phoneKind(MOBILE)).toBe("mobile");
    expect(phoneKind("+912212345678")).toBe("invalid");
    expect(phoneKind("+442071838750")).toBe("not_mobile");
    expect(phoneKind(null)).toBe("invalid");
  });
  it("scores an invalid number into the high band alone, a landline by 20", () => {
    expect(scoreRisk(facts({ phone: "+912212345678" }), SETTINGS)).toMatchObject({ score: 60, band: "high" });
    expect(scoreRisk(facts({ phone: "+442071838750" }), SETTINGS)).toMatchObject({ score: 20, band: "medium" });
    expect(scoreRisk(facts(), SETTINGS)).toMatchObject({ score: 0, band: "low", reasons: [] });
  });
  it("adds 30 when the phone did not confirm its code", () => {
    expect(codes(facts({ otpVerified: false }))).toEqual(["otp_unverified"]);
    expect(codes(facts({ otpVerified: true }))).toEqual([]);
  });
});

describe("history in this shop", () => {
  it("refused orders add 25 each up to 50; good ones take 10 each off up to 30", () => {
    const r = scoreRisk(facts({ history: { verifiedBefore: true, goodOrders: 0, badOrders: 3 } }), SETTINGS);
    expect(r.reasons).toEqual([expect.objectContaining({ code: "rto_prone_phone", points: 50 })]);
    expect(r.band).toBe("medium");
    const g = scoreRisk(facts({ history: { verifiedBefore: true, goodOrders: 5, badOrders: 1 } }), SETTINGS);
    expect(g.reasons.map((x) => [x.code, x.points])).toEqual([["rto_prone_phone", 25], ["good_history", -30]]);
    expect(g.score).toBe(0);
  });
  it("a new phone adds 5; a phone verified before takes 5 off; history unread adds nothing", () => {
    expect(codes(facts({ history: { verifiedBefore: false, goodOrders: 0, badOrders: 0 } }))).toEqual(["new_customer"]);
    expect(scoreRisk(facts({ history: { verifiedBefore: true, goodOrders: 0, badOrders: 0 } }), SETTINGS).reasons[0]).toMatchObject({ code: "verified_before", points: -5 });
    expect(codes(facts({ history: null }))).toEqual([]);
  });
});

describe("address quality", () => {
  it("a complete address with a valid postal code adds nothing", () => {
    expect(addressCompleteness(GOOD_ADDRESS)).toBe(100);
    expect(codes(facts({ address: GOOD_ADDRESS }))).toEqual([]);
  });
  it("an incomplete address is weak", () => {
    const a = { address1: "home", city: "", zip: "400001", country_code: "IN" };
    expect(addressCompleteness(a)).toBeLessThan(60);
    expect(codes(facts({ address: a }))).toEqual(["weak_address"]);
  });
  it("a postal code must have its country's format; spaces are ignored; unknown countries are not judged", () => {
    expect(postalCodeFormat("400 001", "IN")).toBe("valid");
    expect(postalCodeFormat("40001", "IN")).toBe("invalid");
    expect(postalCodeFormat("012345", "IN")).toBe("invalid");
    expect(postalCodeFormat("SW1A 1AA", "GB")).toBe("valid");
    expect(postalCodeFormat("12", "ZZ")).toBe("unknown");
    expect(postalCodeFormat(null, "IN")).toBe("missing");
    expect(codes(facts({ address: { ...GOOD_ADDRESS, zip: "4001" } }))).toEqual(["bad_postal_code"]);
  });
  it("flags keyboard mashing and repeated words", () => {
    expect(looksGibberish({ address1: "xkcdfg street 4" })).toBe(true);
    expect(looksGibberish({ address1: "aaaaa 12" })).toBe(true);
    expect(looksGibberish(GOOD_ADDRESS)).toBe(false);
    expect(looksGibberish({ address1: "12 Rue de la République", city: "Casablanca" })).toBe(false);
    expect(hasRepeatedWords({ address1: "test test test 12", city: "x" })).toBe(true);
    expect(hasRepeatedWords(GOOD_ADDRESS)).toBe(false);
    expect(codes(facts({ address: { ...GOOD_ADDRESS, address2: "qwrtpsd near near near" } }))).toEqual(["address_gibberish", "address_repeated_words"]);
  });
});

describe("order value and velocity", () => {
  it("P90 by nearest rank needs 20 values", () => {
    expect(percentile90(Array.from({ length: 19 }, (_, i) => i))).toBeNull();
    expect(percentile90(Array.from({ length: 20 }, (_, i) => i + 1))).toBe(18);
  });
  it("an order above the shop's P90 adds 10", () => {
    expect(codes(facts({ orderValue: 500, usualValueP90: 400 }))).toEqual(["high_value"]);
    expect(codes(facts({ orderValue: 400, usualValueP90: 400 }))).toEqual([]);
    expect(codes(facts({ orderValue: 500, usualValueP90: null }))).toEqual([]);
  });
  it("bursts per phone and per IP add 15 each", () => {
    expect(codes(facts({ velocity: { codesForPhone: 3, requestsFromIp: 10 } }))).toEqual([]);
    expect(codes(facts({ velocity: { codesForPhone: 4, requestsFromIp: 11 } }))).toEqual(["velocity_phone", "velocity_ip"]);
  });
  it("codes asked for a number count only before it is proven: others' send-otp calls never raise its owner's score", () => {
    expect(codes(facts({ otpVerified: true, velocity: { codesForPhone: 9, requestsFromIp: 11 } }))).toEqual(["velocity_ip"]);
    expect(codes(facts({ otpVerified: false, velocity: { codesForPhone: 9, requestsFromIp: 0 } }))).toEqual(["otp_unverified", "velocity_phone"]);
    const limit = { ...SETTINGS, phoneCodeLimit: 2 };
    expect(scoreRisk(facts({ otpVerified: true, velocity: { codesForPhone: 9, requestsFromIp: 0 } }), limit)).toMatchObject({ band: "low", rule: null });
    expect(scoreRisk(facts({ otpVerified: null, velocity: { codesForPhone: 9, requestsFromIp: 0 } }), limit).rule?.code).toBe("phone_code_limit");
  });
});

describe("the postal code's learnt failures (smoothed toward the shop's rate)", () => {
  it("adds 15 above 1.5 times the shop's rate, with few orders pulled toward the shop", () => {
    const shop = { shopOrders: 100, shopFailed: 10 };
    expect(smoothedFailureRate({ orders: 0, failed: 0, ...shop })).toEqual({ rate: 0.1, areaRate: 0.1, shopRate: 0.1 });
    // One failure in one order: (1 + 2) / 21 = 14% < 15%: not enough evidence.
    expect(codes(facts({ postalHistory: { orders: 1, failed: 1, ...shop } }))).toEqual([]);
    // Five in ten: (5 + 2) / 30 = 23%.
    const r = scoreRisk(facts({ postalHistory: { orders: 10, failed: 5, ...shop } }), SETTINGS);
    expect(r.reasons).toEqual([{ code: "rto_prone_postal_code", points: 15, text: "5 cash-on-delivery orders to this postal code failed (23% against 10% for the shop)." }]);
  });
});

describe("the wider area when the postal code has few orders", () => {
  const shop = { shopOrders: 100, shopFailed: 10 };
  it("is the code's first 3 characters (2 for short codes)", () => {
    expect(postalArea("400001")).toBe("400");
    expect(postalArea("SW1A1AA")).toBe("SW1");
    expect(postalArea("1010")).toBe("10");
    expect(postalArea("12")).toBeNull();
    expect(postalArea(null)).toBeNull();
  });
  it("pulls a code with no outcomes to its area's rate, and flags it by the area", () => {
    // Area 400: 12 failed of 20 -> (12 + 2) / 40 = 35%; the new code takes it: (0 + 20 * 0.35) / 20 = 35% > 15%.
    const f = facts({ postalHistory: { orders: 0, failed: 0, area: { prefix: "400", orders: 20, failed: 12 }, ...shop } });
    expect(smoothedFailureRate(f.postalHistory!)).toEqual({ rate: 0.35, areaRate: 0.35, shopRate: 0.1 });
    expect(scoreRisk(f, SETTINGS).reasons).toEqual([
      { code: "rto_prone_postal_area", points: 15, text: "12 cash-on-delivery orders to postal codes starting 400 failed (35% against 10% for the shop)." },
    ]);
  });
  it("lets a code with many good orders of its own stand apart from a bad area", () => {
    // The code: 0 failed of 200 -> (0 + 20 * 0.35) / 220 = 3%.
    expect(codes(facts({ postalHistory: { orders: 200, failed: 0, area: { prefix: "400", orders: 220, failed: 12 }, ...shop } }))).toEqual([]);
  });
  it("says nothing when the area's rate is the shop's", () => {
    expect(codes(facts({ postalHistory: { orders: 0, failed: 0, area: { prefix: "400", orders: 20, failed: 2 }, ...shop } }))).toEqual([]);
  });
});

describe("velocity rules (merchant's limits in 24 hours, before the score)", () => {
  const s = { ...SETTINGS, phoneCodeLimit: 2, ipAttemptLimit: 5, phoneOrderLimit: 1, ipOrderLimit: 3 };
  it("each limit decides with its own reason code once passed, not at it", () => {
    expect(scoreRisk(facts({ velocity: { codesForPhone: 2, requestsFromIp: 5, ordersForPhone: 1 } }), s)).toMatchObject({ band: "low", rule: null });
    expect(scoreRisk(facts({ velocity: { codesForPhone: 3, requestsFromIp: 0 } }), s)).toMatchObject({ band: "high", rule: { code: "phone_code_limit" } });
    expect(scoreRisk(facts({ velocity: { codesForPhone: 0, requestsFromIp: 6 } }), s)).toMatchObject({ band: "high", rule: { code: "ip_attempt_limit" } });
    expect(scoreRisk(facts({ velocity: { codesForPhone: 0, requestsFromIp: 0, ordersForPhone: 2 } }), s)).toMatchObject({ band: "high", rule: { code: "phone_order_limit" } });
    expect(scoreRisk(facts({ velocity: { codesForPhone: 0, requestsFromIp: 0, ordersFromIp: 3 } }), s).rule).toBeNull();
    expect(scoreRisk(facts({ velocity: { codesForPhone: 0, requestsFromIp: 0, ordersFromIp: 4 } }), s)).toMatchObject({
      band: "high",
      rule: { code: "ip_order_limit", text: "4 cash-on-delivery orders came from the same network in 24 hours, above the shop's limit of 3." },
    });
    // The phone's order limit is checked first, then the network's.
    expect(scoreRisk(facts({ velocity: { codesForPhone: 0, requestsFromIp: 0, ordersForPhone: 2, ordersFromIp: 4 } }), s).rule?.code).toBe("phone_order_limit");
    // An order without an IP (draft, POS, API): the network rule cannot apply.
    expect(scoreRisk(facts({ velocity: { codesForPhone: 0, requestsFromIp: 0, ordersFromIp: null } }), s).rule).toBeNull();
    // Orders not known (before the number is proven): the order rule cannot apply.
    expect(scoreRisk(facts({ velocity: { codesForPhone: 0, requestsFromIp: 0, ordersForPhone: null } }), s).rule).toBeNull();
    expect(scoreRisk(facts({ velocity: { codesForPhone: 0, requestsFromIp: 6 } }), s).rule?.text).toBe("6 checkout attempts came from the same network in 24 hours, above the shop's limit of 5.");
  });
  it("no limit set: no rule, whatever the counts", () => {
    expect(scoreRisk(facts({ velocity: { codesForPhone: 2, requestsFromIp: 9, ordersForPhone: 9, ordersFromIp: 9 } }), SETTINGS).rule).toBeNull();
  });
});

describe("score, bands and rules", () => {
  it("is clamped to 0-100, the same every time, and every point has a reason in words", () => {
    const f = facts({ phone: "+912212345678", otpVerified: false, history: { verifiedBefore: false, goodOrders: 0, badOrders: 4 }, velocity: { codesForPhone: 9, requestsFromIp: 99 } });
    const a = scoreRisk(f, SETTINGS);
    expect(a.score).toBe(100);
    expect(scoreRisk(f, SETTINGS)).toEqual(a);
    for (const r of a.reasons) expect(r.text.length).toBeGreaterThan(10);
    expect(a.reasons.reduce((s, r) => s + r.points, 0)).toBe(POINTS.bad_phone + POINTS.otp_unverified + POINTS.rto_prone_phone_cap + POINTS.velocity_phone + POINTS.velocity_ip);
  });
  it("bands follow the merchant's thresholds", () => {
    expect(bandOf(19, SETTINGS)).toBe("low");
    expect(bandOf(20, SETTINGS)).toBe("medium");
    expect(bandOf(60, SETTINGS)).toBe("high");
    expect(bandOf(30, { mediumThreshold: 10, highThreshold: 30 })).toBe("high");
  });
  it("a prepaid-only phone, a denied postal code (exact or prefix, any spacing) or an order above the cap is high whatever the score", () => {
    const s = { ...SETTINGS, prepaidPhones: parsePhoneList("+91 98123 45678\nnot a phone"), deniedPostalCodes: parsePostalCodeList("110 001, 4000*"), codValueCap: 1000 };
    expect(s.prepaidPhones).toEqual([MOBILE]);
    expect(s.deniedPostalCodes).toEqual(["110001", "4000*"]);
    expect(scoreRisk(facts(), s)).toMatchObject({ band: "high", score: 0, rule: { code: "phone_prepaid_only" } });
    const other = { phone: "+919800000001" };
    expect(scoreRisk(facts({ ...other, address: { ...GOOD_ADDRESS, zip: "110-001" } }), s).rule?.code).toBe("postal_code_denied");
    expect(scoreRisk(facts({ ...other, address: { ...GOOD_ADDRESS, zip: "400 012" } }), s).rule?.code).toBe("postal_code_denied");
    expect(scoreRisk(facts({ ...other, address: { ...GOOD_ADDRESS, zip: "500001" }, orderValue: 1001 }), s).rule?.code).toBe("cod_value_cap");
    expect(scoreRisk(facts({ ...other, address: { ...GOOD_ADDRESS, zip: "500001" }, orderValue: 1000 }), s)).toMatchObject({ band: "low", rule: null });
  });
  it("normalises postal codes and names the modes a band may use", () => {
    expect(normalizePostalCode(" sw1a-1aa ")).toBe("SW1A1AA");
    expect(allowedModesFor("high", ["cod", "prepaid", "partial"])).toEqual(["prepaid", "partial"]);
    expect(allowedModesFor("medium", ["cod", "prepaid"])).toEqual(["cod", "prepaid"]);
  });
});
