import { z } from "zod";
import { normalizePhone } from "~/shared/phone";
import { bandIndex, calibrate, emptyCounts, failureProbability, type CalibrationBand } from "./calibration";
import { orderAssessment, type OrderRiskRow, type RiskShop } from "./facts";
import { codOffer, type BandAction, type PricingSettings } from "./pricing";
import { bandOf, BEHAVIOUR_REASON_FIELDS, postalArea, type BehaviourFacts, type BehaviourReason, type RiskBand } from "./score";
import { normalizePostalCode, shopHour, unusualHour } from "./signals";

/**
 * A shop's COD history replayed through the app's own scoring (docs/risk.md, "Replaying a history"):
 * each order is scored by `orderAssessment` (the function orders/create runs) with the facts the shop
 * had when it was placed (the outcomes learnt by then, the last 24 hours' orders, the last 200 values),
 * read as a probability with the calibration learnt by then, and decided by the band's action. Pure.
 */

const time = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "not a date").transform((s) => new Date(s));
const count = z.number().int().min(0).max(1000);
const ms = z.number().min(0).max(86_400_000);

/** One line of the JSONL: one COD order. docs/risk.md documents every field. */
export const replayOrderSchema = z.object({
  id: z.string().max(100).optional(),
  placedAt: time,
  phone: z.string().max(40).nullable(),
  /** Whether the phone proved itself by a code for this order (default true). */
  verified: z.boolean().default(true),
  address: z
    .object({ address1: z.string().max(500).nullish(), address2: z.string().max(500).nullish(), city: z.string().max(200).nullish(), province: z.string().max(200).nullish(), zip: z.string().max(20).nullish(), country_code: z.string().length(2).nullish() })
    .nullish(),
  postalCode: z.string().max(20).nullish(),
  value: z.number().min(0).nullish(),
  ip: z.string().max(64).nullish(),
  /** Storefront attempts from this IP in the 24 hours before the order, when the export knows them. */
  attemptsFromIp: count.nullish(),
  behaviour: z
    .object({ codesAsked: count.nullish(), numbersTried: count.nullish(), msToRequest: ms.nullish(), msToType: ms.nullish(), codesAbandoned: count.nullish() })
    .nullish(),
  outcome: z.enum(["delivered", "failed"]).nullable(),
  /** When the outcome was learnt; absent: `learnAfterDays` after placedAt. */
  outcomeAt: time.nullish(),
});
export type ReplayOrder = z.infer<typeof replayOrderSchema>;
export type ReplayInput = z.input<typeof replayOrderSchema>;

export type ReplayOptions = {
  shop: RiskShop;
  pricing: PricingSettings;
  /** The shop's IANA time zone, for the hour of an order. */
  timeZone: string;
  /** Days between an order and its outcome when the line says none (default 7). */
  learnAfterDays?: number;
  /** Leave out the modal's behaviour fields and the server's hour and cart readings: the score as it was before them. */
  withoutBehaviour?: boolean;
  /** Leave out the readings of these behaviour reasons only (what each adds: the evaluation's table). */
  withoutReasons?: readonly BehaviourReason[];
  /** Score with the app's prior only, never the shop's learnt calibration. */
  priorOnly?: boolean;
};

export type ReplayResult = {
  id: string;
  value: number | null;
  score: number;
  band: RiskBand;
  probability: number;
  action: BandAction;
  deposit: number | null;
  failed: boolean | null;
  /** Whether a merchant rule made the band high (then any threshold leaves it high). */
  rule: boolean;
  reasons: string[];
};

type PhoneState = { good: number; bad: number; verified: boolean; placed: number[]; values: number[] };
type Learning = { at: number; phone: string | null; proven: boolean; zip: string | null; failed: boolean; score: number };
const DAY = 86_400_000;

/** A shop with the app's default rules (none) and these thresholds. */
export function replayShop(mediumThreshold: number, highThreshold: number): RiskShop {
  return { id: "replay", riskMediumThreshold: mediumThreshold, riskHighThreshold: highThreshold, riskDeniedPostalCodes: "", riskPrepaidPhones: "", riskCodValueCap: null, riskPhoneCodeLimit: null, riskIpAttemptLimit: null, riskPhoneOrderLimit: null, riskIpOrderLimit: null, riskPrepaidSources: "" };
}

/** Parses a JSONL text: the orders, or the first bad line's number and what is wrong with it. */
export function parseReplay(text: string): { ok: true; orders: ReplayOrder[] } | { ok: false; line: number; error: string } {
  const orders: ReplayOrder[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(lines[i]);
    } catch {
      return { ok: false, line: i + 1, error: "not JSON" };
    }
    const parsed = replayOrderSchema.safeParse(json);
    if (!parsed.success) return { ok: false, line: i + 1, error: parsed.error.issues.map((x) => `${x.path.join(".")}: ${x.message}`).join("; ") };
    orders.push(parsed.data);
  }
  return { ok: true, orders };
}

/** The behaviour without the readings of the reasons left out (each before the modal's cap, as if never measured). */
function withoutReadings(b: BehaviourFacts, reasons: readonly BehaviourReason[]): BehaviourFacts {
  const kept = { ...b };
  for (const reason of reasons) delete kept[BEHAVIOUR_REASON_FIELDS[reason]];
  return kept;
}

/** The replay of orders in time order (sorted here, stably); each scored with only what came before it. */
export function replay(input: ReplayOrder[], options: ReplayOptions): { results: ReplayResult[]; calibration: CalibrationBand[] } {
  const orders = input.map((o, i) => ({ o, i })).sort((a, b) => a.o.placedAt.getTime() - b.o.placedAt.getTime() || a.i - b.i);
  const learnAfter = (options.learnAfterDays ?? 7) * DAY;
  const phones = new Map<string, PhoneState>();
  const postal = new Map<string, { orders: number; failed: number }>();
  const ipTimes = new Map<string, number[]>();
  const shopTotals = { orders: 0, failed: 0 };
  const hours = Array<number>(24).fill(0);
  const values: number[] = [];
  const counts = emptyCounts();
  let pending: Learning[] = [];
  let calibration = calibrate(counts);
  const results: ReplayResult[] = [];

  const learn = (l: Learning) => {
    const p = l.phone ? phones.get(l.phone) : undefined;
    // Only what the phone proved counts against it (docs/risk.md, "Only what the phone proved").
    if (p && l.failed && l.proven) p.bad++;
    else if (p && !l.failed) p.good++;
    for (const key of l.zip ? [`=${l.zip}`, `^${postalArea(l.zip) ?? ""}`] : []) {
      const c = postal.get(key) ?? { orders: 0, failed: 0 };
      postal.set(key, { orders: c.orders + 1, failed: c.failed + (l.failed ? 1 : 0) });
    }
    shopTotals.orders++;
    if (l.failed) shopTotals.failed++;
    counts.orders[bandIndex(l.score)]++;
    if (l.failed) counts.failed[bandIndex(l.score)]++;
  };

  for (const { o, i } of orders) {
    const t = o.placedAt.getTime();
    const due = pending.filter((l) => l.at <= t);
    if (due.length) {
      pending = pending.filter((l) => l.at > t);
      due.sort((a, b) => a.at - b.at).forEach(learn);
      if (!options.priorOnly) calibration = calibrate(counts);
    }
    const phone = o.phone ? normalizePhone(o.phone) ?? o.phone : null;
    const p = phone ? phones.get(phone) : undefined;
    const zip = normalizePostalCode(o.address?.zip ?? o.postalCode);
    const area = postalArea(zip);
    const ipRecent = o.ip ? (ipTimes.get(o.ip) ?? []).filter((x) => x > t - DAY).length : 0;
    const row: OrderRiskRow = {
      verified: p?.verified ? 1 : null,
      good: p?.good ?? 0,
      bad: p?.bad ?? 0,
      lastDay: p ? p.placed.filter((x) => x > t - DAY).length : 0,
      riskCodes: o.behaviour?.codesAsked ?? 1,
      riskIp: (o.attemptsFromIp ?? 0) + ipRecent + 1,
      ordersFromIp: ipRecent,
      usualValues: values.length ? values.slice(-200).join(",") : null,
      ...(zip ? { postalOrders: postal.get(`=${zip}`)?.orders ?? 0, postalFailed: postal.get(`=${zip}`)?.failed ?? 0, areaOrders: postal.get(`^${area ?? ""}`)?.orders ?? 0, areaFailed: postal.get(`^${area ?? ""}`)?.failed ?? 0, shopOrders: shopTotals.orders, shopFailed: shopTotals.failed } : {}),
    };
    const hour = shopHour(o.placedAt, options.timeZone);
    const mean = p && p.values.length >= 2 ? p.values.reduce((a, b) => a + b, 0) / p.values.length : null;
    const behaviour = options.withoutBehaviour
      ? null
      : withoutReadings({ ...o.behaviour, unusualHour: unusualHour(hour, hours), cartRatio: mean && o.value != null ? o.value / mean : null }, options.withoutReasons ?? []);
    const address = o.address ?? (zip ? { zip } : null);
    const a = orderAssessment(options.shop, { phones: phone ? [phone] : [], shippingAddress: address, value: o.value ?? null, browserIp: o.ip ?? null, trafficSource: null }, o.verified, row, behaviour);
    const probability = failureProbability(calibration, a.score);
    const offer = codOffer(a.band, probability, options.pricing, o.value ?? null);
    results.push({ id: o.id ?? String(i + 1), value: o.value ?? null, score: a.score, band: a.band, probability, ...offer, failed: o.outcome ? o.outcome === "failed" : null, rule: !!a.rule, reasons: [...(a.rule ? [a.rule.code] : []), ...a.reasons.filter((r) => r.points > 0).map((r) => r.code)] });

    // What the shop knows from now on: the order itself, and later its outcome.
    if (phone) {
      const state = p ?? { good: 0, bad: 0, verified: false, placed: [], values: [] };
      if (o.verified) {
        state.verified = true;
        state.placed.push(t);
      }
      if (o.value != null) state.values.push(o.value);
      phones.set(phone, state);
    }
    if (o.ip) (ipTimes.get(o.ip) ?? ipTimes.set(o.ip, []).get(o.ip)!).push(t);
    if (o.value != null) values.push(o.value);
    hours[hour]++;
    if (o.outcome) pending.push({ at: o.outcomeAt ? o.outcomeAt.getTime() : t + learnAfter, phone, proven: o.verified, zip, failed: o.outcome === "failed", score: a.score });
  }
  pending.sort((a, b) => a.at - b.at).forEach(learn);
  return { results, calibration: calibrate(counts) };
}

/**
 * The same replay decided under other thresholds and actions: a score and its probability do not depend
 * on them (the calibration is by score), so one replay serves every policy.
 */
export function redecide(results: ReplayResult[], thresholds: { mediumThreshold: number; highThreshold: number }, pricing: PricingSettings): ReplayResult[] {
  return results.map((r) => {
    const band = r.rule ? "high" : bandOf(r.score, thresholds);
    return { ...r, band, ...codOffer(band, r.probability, pricing, r.value) };
  });
}
