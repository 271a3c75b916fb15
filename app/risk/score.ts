import { sourceRuleMatches, type TrafficSource } from "~/shared/traffic-source";
import {
  addressCompleteness,
  hasRepeatedWords,
  looksGibberish,
  normalizePostalCode,
  phoneKind,
  postalCodeFormat,
  type AddressInput,
} from "./signals";

/**
 * The COD risk decision: the merchant's rules first, then a points score 0-100 from what the shop
 * itself knows (docs/risk.md). Pure and deterministic: the same facts and settings always give the
 * same score, and every point names its reason in a code and in plain words.
 */

export const RISK_BANDS = ["low", "medium", "high"] as const;
export type RiskBand = (typeof RISK_BANDS)[number];

export type RiskReason = { code: string; points: number; text: string };

export type RiskFacts = {
  /** E.164, or null when the order carries no usable phone. */
  phone: string | null;
  /** Whether the phone proved itself by a code for this order; null before that step (send-otp). */
  otpVerified: boolean | null;
  /**
   * The phone's history in this shop. Null when it must not be read: before the caller proved the
   * number, nobody learns from the answer what the number did before (docs/contract.md, "The storefront routes").
   */
  history: { verifiedBefore: boolean; goodOrders: number; badOrders: number } | null;
  /** The shipping address, when known (orders/create). */
  address: AddressInput | null;
  /** The order's value in the shop's currency, when known, and the shop's usual high value (P90 of recent COD orders). */
  orderValue: number | null;
  usualValueP90: number | null;
  /**
   * The delivery postal code's learnt outcomes (app/risk/outcomes.server.ts) beside the shop's own, for
   * the smoothed failure rate; null when the order has no postal code or before an order exists.
   */
  postalHistory?: PostalHistory | null;
  /**
   * Codes sent to this phone and storefront requests from this IP in the last 24 hours; COD orders of
   * this phone in the last 24 hours, this one included, when known (the caller proved the number, or on the order);
   * COD orders from the order's browser IP in the last 24 hours, this one included (on an order that carries an IP).
   */
  velocity: { codesForPhone: number; requestsFromIp: number; ordersForPhone?: number | null; ordersFromIp?: number | null };
  /** Where the shopper came from (the session's first touch, or the order's landing page), when known. */
  trafficSource?: TrafficSource | null;
  /** An Indian PIN code that does not match its place (app/core/places/pin-directory.server.ts), in words; null when it does or was not checked. */
  pinPlace?: { code: "pin_unknown" | "pin_other_state" | "pin_other_district"; text: string } | null;
  /** How the shopper behaved, as far as the storefront saw it (docs/risk.md, "Behaviour"); absent when unknown. */
  behaviour?: BehaviourFacts | null;
};

/**
 * The shopper's behaviour. The first four come from the modal (the shopper's own browser, so an attacker
 * can write them: together they add at most BEHAVIOUR_CAP points and never take any away); the hour and
 * the cart are the server's own readings.
 */
export type BehaviourFacts = {
  /** Other phone numbers asked a code for from this browser session before this one. */
  numbersTried?: number | null;
  /** Milliseconds from opening the modal to asking for the code. */
  msToRequest?: number | null;
  /** Milliseconds from the code's sending to the shopper typing it. */
  msToType?: number | null;
  /** Codes asked from this session (for any number) and never typed. */
  codesAbandoned?: number | null;
  /** Whether the order comes at an hour unusual for the shop (its own time zone: `unusualHour` in signals.ts). */
  unusualHour?: boolean | null;
  /** This cart's value over the mean of the phone's earlier orders (needs two). */
  cartRatio?: number | null;
};

/**
 * The postal code's learnt COD outcomes, its wider area's (the codes sharing its first characters:
 * `postalArea`) and the shop's, for the smoothed failure rate.
 */
export type PostalHistory = {
  orders: number;
  failed: number;
  area?: { prefix: string; orders: number; failed: number } | null;
  shopOrders: number;
  shopFailed: number;
};

/** The merchant's rules and thresholds, as the Shop row keeps them (app/risk/rules.ts parses the lists). */
export type RiskSettings = {
  mediumThreshold: number;
  highThreshold: number;
  deniedPostalCodes: string[];
  prepaidPhones: string[];
  codValueCap: number | null;
  /** Velocity rules (24 hours): more codes to one phone, attempts from one IP, COD orders from one phone or one IP than this; null or absent: no limit. */
  phoneCodeLimit?: number | null;
  ipAttemptLimit?: number | null;
  phoneOrderLimit?: number | null;
  ipOrderLimit?: number | null;
  /** Traffic sources whose shoppers pay in advance ("facebook", or "facebook/cpc" for one medium). */
  prepaidSources?: string[];
};

export type RiskAssessment = {
  score: number;
  band: RiskBand;
  /** The merchant rule that decided, when one did (the band is then high whatever the score). */
  rule: { code: string; text: string } | null;
  reasons: RiskReason[];
  /** The behaviour readings the score used (orders/create keeps them with the assessment: docs/risk.md, "Behaviour"). */
  behaviour?: BehaviourFacts | null;
};

/** The readings of a behaviour that say something (null and absent fields dropped), or null when none does. */
export function behaviourReadings(b: BehaviourFacts | null | undefined): BehaviourFacts | null {
  if (!b) return null;
  const kept = Object.fromEntries(Object.entries(b).filter(([, v]) => v != null)) as BehaviourFacts;
  return Object.keys(kept).length ? kept : null;
}

/** Points, one home: docs/risk.md lists them. */
export const POINTS = {
  bad_phone: 60,
  phone_not_mobile: 20,
  otp_unverified: 30,
  rto_prone_phone: 25,
  rto_prone_phone_cap: 50,
  good_history: -10,
  good_history_cap: -30,
  verified_before: -5,
  new_customer: 5,
  weak_address: 20,
  address_gibberish: 15,
  address_repeated_words: 10,
  bad_postal_code: 25,
  pin_unknown: 20,
  pin_other_state: 25,
  pin_other_district: 15,
  high_value: 10,
  rto_prone_postal_code: 15,
  rto_prone_postal_area: 15,
  velocity_phone: 15,
  velocity_ip: 15,
  behaviour_numbers_tried: 15,
  behaviour_rushed: 10,
  behaviour_slow_code: 10,
  behaviour_codes_abandoned: 10,
  unusual_hour: 10,
  cart_unusual: 10,
} as const;

/** Each behaviour reason and the reading it comes from: the evaluation leaves one out to show what it adds. */
export const BEHAVIOUR_REASON_FIELDS = {
  behaviour_numbers_tried: "numbersTried",
  behaviour_rushed: "msToRequest",
  behaviour_slow_code: "msToType",
  behaviour_codes_abandoned: "codesAbandoned",
  unusual_hour: "unusualHour",
  cart_unusual: "cartRatio",
} as const satisfies Record<string, keyof BehaviourFacts>;
export type BehaviourReason = keyof typeof BEHAVIOUR_REASON_FIELDS;

/** The most the modal's own behaviour fields add together: a nudge, never a decision on its own. */
export const BEHAVIOUR_CAP = 20;
/** Thresholds of the behaviour reasons (docs/risk.md). */
export const BEHAVIOUR_LIMITS = { numbersTried: 2, rushedMs: 5_000, slowCodeMs: 180_000, codesAbandoned: 2, cartRatio: 3 } as const;

/** More codes than this to one phone, or storefront requests from one IP, in 24 hours is a burst. */
export const VELOCITY_LIMITS = { codesForPhone: 3, requestsFromIp: 10 } as const;
/**
 * The postal code's COD failure rate smoothed toward its wider area's, and the area's toward the shop's:
 * areaRate = (failedA + k·p0) / (nA + k), rate = (failed + k·areaRate) / (n + k), k = 20, p0 the shop's
 * rate (second-pass research §6). A code with few orders so takes its area's rate, an area with few
 * the shop's. Above 1.5 × p0 it adds points.
 */
export const POSTAL_SMOOTHING_K = 20;
export function smoothedFailureRate(h: PostalHistory): { rate: number; areaRate: number; shopRate: number } {
  const k = POSTAL_SMOOTHING_K;
  const shopRate = h.shopOrders ? h.shopFailed / h.shopOrders : 0;
  const areaRate = h.area ? (h.area.failed + k * shopRate) / (h.area.orders + k) : shopRate;
  return { rate: (h.failed + k * areaRate) / (h.orders + k), areaRate, shopRate };
}

/**
 * The wider area of a normalised postal code: its first 3 characters (India's sorting district, a US
 * ZIP3, a French département plus one), 2 for codes of 4 characters or fewer; null when too short.
 */
export function postalArea(code: string | null): string | null {
  if (!code || code.length < 3) return null;
  return code.slice(0, code.length <= 4 ? 2 : 3);
}

/** Below this completeness (0-100) an address is weak. */
export const WEAK_ADDRESS_BELOW = 60;

export function bandOf(score: number, settings: Pick<RiskSettings, "mediumThreshold" | "highThreshold">): RiskBand {
  if (score >= settings.highThreshold) return "high";
  if (score >= settings.mediumThreshold) return "medium";
  return "low";
}

/** The merchant's rules, evaluated before any score: the first that applies decides (COD not offered). */
export function matchRule(facts: RiskFacts, settings: RiskSettings): { code: string; text: string } | null {
  if (facts.phone && settings.prepaidPhones.includes(facts.phone)) {
    return { code: "phone_prepaid_only", text: "The shop does not offer cash on delivery to this phone number." };
  }
  const v = facts.velocity;
  // Codes asked for a number say something about whoever asks them, not about its owner: once the number
  // is proven (verify-otp, a proof, a verified order) others' send-otp calls for it count for nothing.
  if (settings.phoneCodeLimit != null && facts.otpVerified !== true && v.codesForPhone > settings.phoneCodeLimit) {
    return { code: "phone_code_limit", text: `${v.codesForPhone} codes were asked for this phone number in 24 hours, above the shop's limit of ${settings.phoneCodeLimit}.` };
  }
  if (settings.ipAttemptLimit != null && v.requestsFromIp > settings.ipAttemptLimit) {
    return { code: "ip_attempt_limit", text: `${v.requestsFromIp} checkout attempts came from the same network in 24 hours, above the shop's limit of ${settings.ipAttemptLimit}.` };
  }
  if (settings.phoneOrderLimit != null && v.ordersForPhone != null && v.ordersForPhone > settings.phoneOrderLimit) {
    return { code: "phone_order_limit", text: `${v.ordersForPhone} cash-on-delivery orders came from this phone number in 24 hours, above the shop's limit of ${settings.phoneOrderLimit}.` };
  }
  if (settings.ipOrderLimit != null && v.ordersFromIp != null && v.ordersFromIp > settings.ipOrderLimit) {
    return { code: "ip_order_limit", text: `${v.ordersFromIp} cash-on-delivery orders came from the same network in 24 hours, above the shop's limit of ${settings.ipOrderLimit}.` };
  }
  const source = facts.trafficSource;
  const sourceRule = source ? settings.prepaidSources?.find((entry) => sourceRuleMatches(entry, source)) : undefined;
  if (sourceRule) return { code: "source_prepaid_only", text: `The shop asks shoppers who came from ${sourceRule} to pay in advance.` };
  const zip = normalizePostalCode(facts.address?.zip);
  if (zip && settings.deniedPostalCodes.some((entry) => postalCodeMatches(entry, zip))) {
    return { code: "postal_code_denied", text: "The shop does not deliver cash on delivery to this postal code." };
  }
  if (settings.codValueCap !== null && facts.orderValue !== null && facts.orderValue > settings.codValueCap) {
    return { code: "cod_value_cap", text: `The order is above the shop's cash-on-delivery limit of ${settings.codValueCap}.` };
  }
  return null;
}

/** A deny-list entry is an exact postal code, or a prefix ending in `*` ("4000*"). Both sides normalised. */
export function postalCodeMatches(entry: string, zip: string): boolean {
  return entry.endsWith("*") ? zip.startsWith(entry.slice(0, -1)) : zip === entry;
}

export function scoreRisk(facts: RiskFacts, settings: RiskSettings): RiskAssessment {
  const reasons: RiskReason[] = [];
  const add = (code: keyof typeof POINTS, text: string, points: number = POINTS[code]) => reasons.push({ code, points, text });

  const kind = phoneKind(facts.phone);
  if (kind === "invalid") add("bad_phone", "The phone number is not a valid number for its country.");
  else if (kind === "not_mobile") add("phone_not_mobile", "The phone number is not a mobile number.");
  if (facts.otpVerified === false) add("otp_unverified", "The phone number was not confirmed with a code.");

  const h = facts.history;
  if (h) {
    if (h.badOrders > 0) {
      add("rto_prone_phone", `${plural(h.badOrders, "earlier order")} with this phone ${h.badOrders === 1 ? "was" : "were"} refused or cancelled.`,
        Math.min(POINTS.rto_prone_phone_cap, h.badOrders * POINTS.rto_prone_phone));
    }
    if (h.goodOrders > 0) {
      add("good_history", `${plural(h.goodOrders, "earlier order")} with this phone ${h.goodOrders === 1 ? "was" : "were"} confirmed or delivered.`,
        Math.max(POINTS.good_history_cap, h.goodOrders * POINTS.good_history));
    } else if (h.badOrders === 0) {
      if (h.verifiedBefore) add("verified_before", "This phone number was confirmed with a code before.");
      else add("new_customer", "First order from this phone number in this shop.");
    }
  }

  const a = facts.address;
  if (a) {
    if (addressCompleteness(a) < WEAK_ADDRESS_BELOW) add("weak_address", "The delivery address is missing parts a courier needs (street, house number, city or postal code).");
    if (looksGibberish(a)) add("address_gibberish", "The delivery address contains text that looks typed at random.");
    if (hasRepeatedWords(a)) add("address_repeated_words", "The delivery address repeats the same word several times.");
    const format = postalCodeFormat(a.zip, a.country_code);
    if (format === "invalid" || format === "missing") add("bad_postal_code", format === "missing" ? "The delivery address has no postal code." : "The postal code does not have its country's format.");
  }
  if (facts.pinPlace) add(facts.pinPlace.code, facts.pinPlace.text);

  const p = facts.postalHistory;
  if (p && (p.failed > 0 || (p.area?.failed ?? 0) > 0)) {
    const { rate, shopRate } = smoothedFailureRate(p);
    if (rate > 1.5 * shopRate) {
      const against = `(${Math.round(rate * 100)}% against ${Math.round(shopRate * 100)}% for the shop)`;
      if (p.failed > 0) add("rto_prone_postal_code", `${plural(p.failed, "cash-on-delivery order")} to this postal code failed ${against}.`);
      else add("rto_prone_postal_area", `${plural(p.area!.failed, "cash-on-delivery order")} to postal codes starting ${p.area!.prefix} failed ${against}.`);
    }
  }
  if (facts.orderValue !== null && facts.usualValueP90 !== null && facts.orderValue > facts.usualValueP90) {
    add("high_value", "The order is worth more than 9 in 10 of the shop's recent cash-on-delivery orders.");
  }
  if (facts.otpVerified !== true && facts.velocity.codesForPhone > VELOCITY_LIMITS.codesForPhone) add("velocity_phone", `${facts.velocity.codesForPhone} codes were asked for this phone number in the last 24 hours.`);
  if (facts.velocity.requestsFromIp > VELOCITY_LIMITS.requestsFromIp) add("velocity_ip", `${facts.velocity.requestsFromIp} checkout attempts came from the same network in the last 24 hours.`);

  if (facts.behaviour) reasons.push(...behaviourReasons(facts.behaviour));

  const score = Math.max(0, Math.min(100, reasons.reduce((sum, r) => sum + r.points, 0)));
  const rule = matchRule(facts, settings);
  return { score, band: rule ? "high" : bandOf(score, settings), rule, reasons };
}

/** The behaviour reasons, the modal's together capped at BEHAVIOUR_CAP (the last ones cut down). */
function behaviourReasons(b: BehaviourFacts): RiskReason[] {
  const fromModal: RiskReason[] = [];
  const L = BEHAVIOUR_LIMITS;
  if ((b.numbersTried ?? 0) >= L.numbersTried) fromModal.push({ code: "behaviour_numbers_tried", points: POINTS.behaviour_numbers_tried, text: `${b.numbersTried} other phone numbers were tried from this browser before this one.` });
  if (b.msToRequest != null && b.msToRequest < L.rushedMs) fromModal.push({ code: "behaviour_rushed", points: POINTS.behaviour_rushed, text: "The code was asked within seconds of opening the form." });
  if (b.msToType != null && b.msToType > L.slowCodeMs) fromModal.push({ code: "behaviour_slow_code", points: POINTS.behaviour_slow_code, text: "The code was typed more than three minutes after it was sent." });
  if ((b.codesAbandoned ?? 0) >= L.codesAbandoned) fromModal.push({ code: "behaviour_codes_abandoned", points: POINTS.behaviour_codes_abandoned, text: `${b.codesAbandoned} codes were asked from this browser and never typed.` });
  let room = BEHAVIOUR_CAP;
  const capped = fromModal.flatMap((r) => {
    const points = Math.min(r.points, room);
    room -= points;
    return points > 0 ? [{ ...r, points }] : [];
  });
  if (b.unusualHour) capped.push({ code: "unusual_hour", points: POINTS.unusual_hour, text: "The order comes at an hour when the shop rarely gets orders." });
  if (b.cartRatio != null && b.cartRatio >= L.cartRatio) capped.push({ code: "cart_unusual", points: POINTS.cart_unusual, text: `The order is worth ${Math.round(b.cartRatio)} times this phone's usual order.` });
  return capped;
}

function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}

export { parsePhoneList, parsePostalCodeList } from "~/shared/lists";

/** The modes a shopper of this band may choose: high means cash on delivery is not offered. */
export function allowedModesFor(band: RiskBand, offered: readonly string[]): string[] {
  return band === "high" ? offered.filter((m) => m !== "cod") : [...offered];
}
