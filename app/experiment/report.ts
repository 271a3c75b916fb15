import type { ExperimentDays } from "./period";
import type { ExperimentReading, Interval } from "./stats";

/** The tag a held-out shopper's COD order gets instead of the unverified one (the merchant filters by it). */
export const HOLDOUT_TAG = "cod-holdout";

/** One arm as the report page shows it. */
export type ArmReport = {
  /** Shoppers who reached the modal and were assigned (the denominator of orders per shopper). */
  shoppers: number;
  codOrders: number;
  delivered: number;
  failed: number;
  open: number;
  messages: number;
  /** The messages' cost in the shop's currency; null when the merchant did not price them. */
  messagesCost: number | null;
  rate: Interval;
  designEffect: number;
};

/** The experiment's report as the page and Home read it (app/experiment/report.server.ts builds it). */
export type ExperimentReport = {
  id: string;
  running: boolean;
  startedAt: string;
  /** When it stops or stopped: the period's end, the merchant's stop, or null (until stopped, still running). */
  endsAt: string | null;
  /** Its first and last days, the shop's (its time zone): what the page says the period is. */
  days: ExperimentDays;
  holdoutShare: number;
  horizon: number;
  baseline: number;
  drop: number;
  holdout: ArmReport;
  verified: ArmReport;
  /** Numbers first asked from a probing source (many numbers, few confirmed): always asked, in neither arm. */
  probed: number;
  reading: Pick<ExperimentReading, "difference" | "crossesZero" | "verdict" | "ordersToHorizon" | "daysToHorizon">;
  /** Money saved over the verified arm's COD orders, with its interval; null without the failed parcel's cost. */
  saved: Interval | null;
  currency: string | null;
  /** The locale the shop's numbers are written in (e.g. en-IN: lakh and crore). */
  locale: string;
};

/** The shop's formatting locale: its language with its country when the language has none (en + IN → en-IN). */
export function shopLocale(language: string | null | undefined, country: string | null | undefined): string {
  const lang = language?.trim() || "en";
  const tag = !lang.includes("-") && country && /^[A-Z]{2}$/.test(country) ? `${lang}-${country}` : lang;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? "en";
  } catch {
    return "en";
  }
}

/** "24 %": a rate as whole percent (one decimal below 10 % when it is not whole). */
export function percent(rate: number, locale = "en"): string {
  if (!Number.isFinite(rate)) return "–";
  const value = rate * 100;
  const digits = Math.abs(value) < 10 && Math.round(value * 10) % 10 !== 0 ? 1 : 0;
  return `${value.toLocaleString(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits })} %`;
}

/** A shop day ("2026-11-29") in the locale's words ("29 Nov 2026"): the day itself, in no other zone. */
export function dayWords(day: string, locale = "en"): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString(locale, { dateStyle: "medium", timeZone: "UTC" });
}

/** Percentage points, whole ("15"). */
export function points(d: number): string {
  return String(Math.round(d * 100));
}

/** An interval in points, as "11-19" (or "-2 to 19" when it holds a negative end). */
export function pointsRange(i: Interval): string {
  const lo = Math.round(i.lower * 100);
  const hi = Math.round(i.upper * 100);
  return lo < 0 || hi < 0 ? `${lo} to ${hi}` : `${lo}-${hi}`;
}

/** "about ₹1.9 lakh", "$190 thousand", "€850": large amounts in the locale's own words, in the shop's currency. */
export function aboutMoney(amount: number, currency: string | null, locale: string): string {
  const rounded = Math.round(amount);
  if (!currency) return rounded.toLocaleString(locale);
  let symbol = currency;
  try {
    symbol = new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay: "narrowSymbol" }).formatToParts(0).find((p) => p.type === "currency")?.value ?? currency;
  } catch {
    return `${rounded.toLocaleString(locale)} ${currency}`;
  }
  if (Math.abs(rounded) < 10_000) {
    return new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay: "narrowSymbol", maximumFractionDigits: 0 }).format(rounded);
  }
  const words = new Intl.NumberFormat(locale, { notation: "compact", compactDisplay: "long", maximumFractionDigits: 1 }).format(Math.abs(rounded));
  return `${rounded < 0 ? "-" : ""}${symbol}${words}`;
}

/**
 * Home's one sentence about the experiment: its finding once the planned orders are in, and before that
 * what it shows so far, plainly not a result, with how many more orders it needs and when at this pace.
 */
export function experimentSentence(r: ExperimentReport): string {
  const sentence = readingSentence(r);
  if (!r.probed) return sentence;
  const n = r.probed.toLocaleString(r.locale);
  return `${sentence} ${n} number${r.probed === 1 ? " was" : "s were"} asked from networks that tried many numbers and confirmed few (a probe): always asked for a code and left out of both groups.`;
}

function readingSentence(r: ExperimentReport): string {
  const { reading, holdout, verified } = r;
  const n = (x: number) => x.toLocaleString(r.locale);
  const total = holdout.codOrders + verified.codOrders;
  const rates = `${percent(holdout.rate.estimate, r.locale)} to ${percent(verified.rate.estimate, r.locale)}`;
  const ci = `95 % CI ${pointsRange(reading.difference)}`;
  const saved = r.saved && r.saved.estimate > 0 ? `: about ${aboutMoney(r.saved.estimate, r.currency, r.locale)} saved` : "";
  if (holdout.delivered + holdout.failed === 0 || verified.delivered + verified.failed === 0) {
    return `Holdout experiment ${r.running ? "running" : "stopped"}: ${n(total)} COD orders so far, no delivered or failed order in ${holdout.delivered + holdout.failed === 0 ? "the held-out group" : "the verified group"} yet, so nothing to compare.`;
  }
  switch (reading.verdict) {
    case "fewer_failures":
      return `Verification cut failed deliveries from ${rates}, a ${points(reading.difference.estimate)}-point drop, ${ci}, over ${n(total)} COD orders${saved}.`;
    case "more_failures":
      return `Verified orders failed more often than held-out ones (${percent(verified.rate.estimate, r.locale)} against ${percent(holdout.rate.estimate, r.locale)}, ${ci} points), over ${n(total)} COD orders.`;
    case "no_clear_difference":
      return `No clear difference: failed deliveries ${percent(holdout.rate.estimate, r.locale)} held out and ${percent(verified.rate.estimate, r.locale)} verified, ${ci} points, over ${n(total)} COD orders; any effect is smaller than this experiment could find.`;
    case "collecting": {
      const pace = reading.daysToHorizon ? `, about ${n(reading.daysToHorizon)} day${reading.daysToHorizon === 1 ? "" : "s"} at the current pace` : "";
      const interim = reading.crossesZero ? "the interval still includes no difference" : "not a result until then";
      return `So far failed deliveries went from ${rates} (${ci} points) over ${n(total)} COD orders; ${interim}: the experiment needs ${n(reading.ordersToHorizon)} more delivered or failed orders${pace}.`;
    }
  }
}
