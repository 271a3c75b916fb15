import {
  cartPaymentMethodsTransformRun as run,
  type CartPaymentMethodsTransformRunInput as RunInput,
  type FunctionConfiguration,
} from "../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";
import { checkProof, issueProof, PROOF_TTL_SECONDS } from "~/otp/proof.server";
import { functionConfiguration } from "~/enforcement/cod-methods";
import { runChecked } from "../helpers/checkout-function";

/**
 * A live proof keeps cash on delivery in every shop, at every hour. Shopify gives the function only the
 * shop's date (`shop.localTime.date`, in the shop's zone); the app writes the zone's offsets into the
 * function's configuration, and the function compares the proof's expiry as a date of the shop's own.
 * Swept over every UTC offset from -12:00 to +14:00 by 15 minutes, a verification every 30 minutes of a
 * day, and a checkout just after it, half-way through the proof's life and one second before it expires:
 * no live proof hides COD, and the order side (checkProof at the same instant) agrees. An expired proof
 * stops keeping COD when the shop's day of its expiry ends (at most 24 hours, 25 on the day clocks go
 * back), or, while the app does not know the zone, when that day ends at UTC+14 (at most 50 hours).
 */
const SHOP = "test-shop.myshopify.com";
const PHONE = "+919812345678";
const COD = { id: "gid://shopify/PaymentCustomizationPaymentMethod/1", name: "Cash on Delivery (COD)" };
const CARD = { id: "gid://shopify/PaymentCustomizationPaymentMethod/2", name: "Credit card" };
const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** The shop's date at `ms` in a zone of fixed offset, as Shopify's `localTime.date` gives it. */
const dateAtOffset = (ms: number, minutes: number) => new Date(ms + minutes * 60_000).toISOString().slice(0, 10);
/** The shop's date at `ms` in an IANA zone, read with the runtime's own time zone database. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateInZone(ms: number, zone: string): string {
  if (!dateFormats.has(zone)) dateFormats.set(zone, new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }));
  return dateFormats.get(zone)!.format(ms);
}

function checkout(proof: string, date: string, configuration: FunctionConfiguration): RunInput {
  return {
    cart: { proof: { value: proof }, buyerIdentity: { phone: PHONE, customer: null }, deliveryGroups: [{ deliveryAddress: { phone: PHONE } }] },
    paymentMethods: [CARD, COD],
    paymentCustomization: { metafield: { jsonValue: configuration } },
    shop: { localTime: { date } },
  };
}

const keepsCod = (input: RunInput) => run(input).operations.length === 0;

/** A configuration as the app writes it for a shop of one fixed offset (what the sync writes for such a zone). */
const fixedOffset = (minutes: number, from: number): FunctionConfiguration => ({
  codMethodNames: ["Cash on Delivery (COD)"],
  enforce: true,
  utcOffsets: [[Math.floor(from / 1000) - 86_400, minutes]],
  utcOffsetsUntil: Math.floor(from / 1000) + 400 * 86_400,
});

const OFFSETS: number[] = [];
for (let m = -12 * 60; m <= 14 * 60; m += 15) OFFSETS.push(m);
const DAY_START = Date.UTC(2026, 10, 29); // a Sunday; month-end and daylight-saving days below
const VERIFICATIONS = Array.from({ length: 48 }, (_, i) => DAY_START + i * 30 * 60_000);
const TTL = PROOF_TTL_SECONDS * 1000;
const LIVE_MOMENTS = [1000, TTL / 2, TTL - 1000];

describe("a live proof keeps COD in every zone at every hour", () => {
  it("the inputs the sweep builds are what the function's input query returns", () => {
    const proof = issueProof(SHOP, { phone: PHONE, mode: "cod", selectionId: "sel1" }, new Date(DAY_START)).token;
    expect(runChecked(checkout(proof, "2026-11-29", fixedOffset(330, DAY_START)))).toEqual({ operations: [] });
    expect(runChecked(checkout(proof, "2026-12-01", fixedOffset(330, DAY_START)))).toEqual({ operations: [{ paymentMethodHide: { paymentMethodId: COD.id } }] });
  });

  it(`every offset -12:00..+14:00 by 15 minutes (${OFFSETS.length}) × a verification every 30 minutes × checkout just after, mid-life and 1 s before expiry: none hidden; the order side agrees`, () => {
    let live = 0;
    const hidden: string[] = [];
    for (const offset of OFFSETS) {
      const configuration = fixedOffset(offset, DAY_START);
      for (const verifiedAt of VERIFICATIONS) {
        const proof = issueProof(SHOP, { phone: PHONE, mode: "cod", selectionId: "sel1" }, new Date(verifiedAt)).token;
        for (const after of LIVE_MOMENTS) {
          const at = verifiedAt + after;
          live++;
          expect(checkProof(SHOP, proof, new Date(at)).ok).toBe(true);
          if (!keepsCod(checkout(proof, dateAtOffset(at, offset), configuration))) hidden.push(`${offset} min, verified ${new Date(verifiedAt).toISOString()}, +${after / 1000} s`);
        }
      }
    }
    expect(live).toBe(OFFSETS.length * 48 * 3);
    expect(hidden).toEqual([]);
  });

  it("an expired proof keeps COD until the shop's day of its expiry ends, never longer (at most 24 hours), and the order side refuses it from the first second", () => {
    for (const offset of OFFSETS) {
      const configuration = fixedOffset(offset, DAY_START);
      for (const verifiedAt of VERIFICATIONS) {
        const proof = issueProof(SHOP, { phone: PHONE, mode: "cod", selectionId: "sel1" }, new Date(verifiedAt)).token;
        const expiresAt = verifiedAt + TTL;
        expect(checkProof(SHOP, proof, new Date(expiresAt + 1000))).toMatchObject({ ok: false, reason: "expired" });
        // The shop's day of expiry ends at its next local midnight.
        const local = expiresAt + offset * 60_000;
        const dayEnds = Math.floor(local / DAY) * DAY + DAY - offset * 60_000;
        expect(dayEnds - expiresAt).toBeLessThanOrEqual(DAY);
        expect(keepsCod(checkout(proof, dateAtOffset(dayEnds - 1000, offset), configuration))).toBe(true);
        expect(keepsCod(checkout(proof, dateAtOffset(dayEnds, offset), configuration))).toBe(false);
      }
    }
  });

  it("while the app does not know the shop's zone (no offsets in the configuration), the date at UTC+14: no live proof hidden anywhere, an expired one gone within 50 hours", () => {
    const unknown: FunctionConfiguration = { codMethodNames: ["Cash on Delivery (COD)"], enforce: true };
    const hidden: string[] = [];
    for (const offset of OFFSETS) {
      for (const verifiedAt of VERIFICATIONS) {
        const proof = issueProof(SHOP, { phone: PHONE, mode: "cod", selectionId: "sel1" }, new Date(verifiedAt)).token;
        for (const after of LIVE_MOMENTS) {
          if (!keepsCod(checkout(proof, dateAtOffset(verifiedAt + after, offset), unknown))) hidden.push(`${offset} min, ${new Date(verifiedAt).toISOString()}`);
        }
        expect(keepsCod(checkout(proof, dateAtOffset(verifiedAt + TTL + 50 * HOUR, offset), unknown))).toBe(false);
      }
    }
    expect(hidden).toEqual([]);
  });

  it("offsets past the configuration's reach, or malformed, read as UTC+14 (the safe side)", () => {
    const proof = issueProof(SHOP, { phone: PHONE, mode: "cod", selectionId: "sel1" }, new Date(Date.UTC(2026, 10, 29, 18, 40))).token;
    // Verified 00:10 in India (18:40 UTC), checkout at 01:00 India time, 29 -> 30 November.
    const date = "2026-11-30";
    const stale: FunctionConfiguration = { codMethodNames: [], utcOffsets: [[0, -600]], utcOffsetsUntil: 1 };
    const malformed = { codMethodNames: [], utcOffsets: [["x", 330]], utcOffsetsUntil: 9e9 } as unknown as FunctionConfiguration;
    const wild = { codMethodNames: [], utcOffsets: [[0, 10_000]], utcOffsetsUntil: 9e9 } as unknown as FunctionConfiguration;
    for (const c of [stale, malformed, wild]) expect(keepsCod(checkout(proof, date, c))).toBe(true);
    // The shop's own offsets: the same checkout keeps COD; a UTC shop's expiry date would have hidden it.
    expect(keepsCod(checkout(proof, date, fixedOffset(330, Date.UTC(2026, 10, 29))))).toBe(true);
    expect(keepsCod(checkout(proof, date, fixedOffset(0, Date.UTC(2026, 10, 29))))).toBe(false);
  });
});

/**
 * Real zones with the configuration the app's sync writes (functionConfiguration with the shop's
 * `timezone`): quarter and half hours, the day line, and every daylight-saving change of a year,
 * including Lord Howe's half-hour one and Chile's at midnight, swept every 30 minutes around each change.
 */
const ZONES = [
  "Asia/Kolkata", "Asia/Kathmandu", "Australia/Eucla", "Pacific/Chatham", "Pacific/Kiritimati", "Etc/GMT+12", "Pacific/Marquesas",
  "America/St_Johns", "America/New_York", "Europe/London", "Europe/Berlin", "America/Santiago", "Australia/Lord_Howe",
  "Australia/Adelaide", "Asia/Tehran", "America/Havana", "Pacific/Apia", "Africa/Casablanca", "America/Los_Angeles",
];
const YEAR_START = Date.UTC(2026, 0, 1);

/** The instants in the year where `zone`'s offset changes (read from the runtime's database every 3 hours: the sweep covers a day and a half around each). */
function changes(zone: string): number[] {
  const format = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric" });
  const offsetAt = (ms: number) => {
    const local = format.formatToParts(ms);
    const p = Object.fromEntries(local.map((x) => [x.type, Number(x.value)]));
    return Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute) - ms;
  };
  const found: number[] = [];
  let before = offsetAt(YEAR_START);
  for (let t = YEAR_START + 3 * HOUR; t < YEAR_START + 366 * DAY; t += 3 * HOUR) {
    const now = offsetAt(t);
    if (now !== before) found.push(t);
    before = now;
  }
  return found;
}

describe("real zones, through the configuration the app writes", () => {
  it.each(ZONES)("%s: every half hour of a month-end and of each day around the year's offset changes, no live proof hidden; an expired one gone by the end of its day (≤ 25 h)", (zone) => {
    const configuration = functionConfiguration(null, zone, new Date(YEAR_START));
    const days = [Date.UTC(2026, 0, 31) - DAY, ...changes(zone).flatMap((c) => [c - DAY, c - 12 * HOUR])];
    let checked = 0;
    for (const from of days) {
      for (let verifiedAt = from; verifiedAt < from + 1.5 * DAY; verifiedAt += 30 * 60_000) {
        const proof = issueProof(SHOP, { phone: PHONE, mode: "cod", selectionId: "sel1" }, new Date(verifiedAt)).token;
        for (const after of LIVE_MOMENTS) {
          const at = verifiedAt + after;
          expect(checkProof(SHOP, proof, new Date(at)).ok).toBe(true);
          expect(keepsCod(checkout(proof, dateInZone(at, zone), configuration)), `${zone} verified ${new Date(verifiedAt).toISOString()} +${after / 1000}s`).toBe(true);
          checked++;
        }
        expect(keepsCod(checkout(proof, dateInZone(verifiedAt + TTL + 25 * HOUR, zone), configuration))).toBe(false);
      }
    }
    expect(checked).toBeGreaterThan(200);
  });
});
