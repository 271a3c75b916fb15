import { BAND_ACTIONS } from "~/core/settings/schema/risk";
import { roundMoney } from "~/shared/money";
import type { RiskBand } from "./score";

/**
 * What a band does to cash on delivery, and the deposit that prices its risk (docs/risk.md, "A deposit
 * priced from the expected loss"). Pure: the app's storefront answers, create-checkout and the replay
 * (app/risk/replay.ts) decide with these same functions.
 *
 * - `refuse`: COD is not offered (prepaid, or the shop's own partial deposit where offered);
 * - `price`: COD is offered with a deposit of the order's expected loss, P(fail) × the merchant's cost
 *   of a failed parcel, paid at checkout; the balance is cash on delivery;
 * - `confirm`: COD is offered and the order is confirmed by the shopper after purchase before it ships;
 * - `none`: COD as for a low band.
 */
export { BAND_ACTIONS };
export type BandAction = (typeof BAND_ACTIONS)[number];

export type PricingSettings = {
  mediumAction: BandAction;
  highAction: BandAction;
  /** The merchant's cost of one failed COD parcel in the shop's currency (shipping both ways, packing); null: not said. */
  failureCost: number | null;
  /** Bounds of a priced deposit in the shop's currency (null: none). */
  depositMin: number | null;
  depositMax: number | null;
};

/** The shop row's pricing columns read (an unknown action stored reads as the default's). */
export function pricingSettingsOf(shop: { riskMediumAction: string; riskHighAction: string; riskDepositMin: number | null; riskDepositMax: number | null; codFailureCost: number | null }): PricingSettings {
  const action = (a: string, d: BandAction): BandAction => ((BAND_ACTIONS as readonly string[]).includes(a) ? (a as BandAction) : d);
  return { mediumAction: action(shop.riskMediumAction, "none"), highAction: action(shop.riskHighAction, "refuse"), failureCost: shop.codFailureCost, depositMin: shop.riskDepositMin, depositMax: shop.riskDepositMax };
}

export function bandAction(band: RiskBand, settings: Pick<PricingSettings, "mediumAction" | "highAction">): BandAction {
  if (band === "high") return settings.highAction;
  return band === "medium" ? settings.mediumAction : "none";
}

/**
 * The deposit that prices an order's risk: P(fail) × the failed-parcel cost, rounded up to a whole unit
 * of the shop's currency (a shopper reads ₹38, not ₹37.42; a currency without minor units the same),
 * then held within the merchant's bounds. Null when it cannot be priced: no cost said, or the deposit
 * would leave nothing to pay on delivery (it must stay below the order's value, when known).
 */
export function pricedDeposit(probability: number, settings: Pick<PricingSettings, "failureCost" | "depositMin" | "depositMax">, orderValue: number | null = null): number | null {
  if (settings.failureCost == null || !(settings.failureCost > 0) || !(probability > 0)) return null;
  let amount = roundMoney(probability * settings.failureCost, 0, true);
  if (settings.depositMin != null) amount = Math.max(amount, settings.depositMin);
  if (settings.depositMax != null) amount = Math.min(amount, settings.depositMax);
  if (!(amount > 0)) return null;
  if (orderValue != null && amount >= orderValue) return null;
  return amount;
}

/**
 * What the shopper is offered: the band's action, and the deposit when it prices. A band set to price
 * whose deposit cannot be computed refuses COD instead (it never falls back to plain COD).
 */
export function codOffer(band: RiskBand, probability: number, settings: PricingSettings, orderValue: number | null = null): { action: BandAction; deposit: number | null } {
  const action = bandAction(band, settings);
  if (action !== "price") return { action, deposit: null };
  const deposit = pricedDeposit(probability, settings, orderValue);
  return deposit == null ? { action: "refuse", deposit: null } : { action, deposit };
}

/**
 * The modes a shopper may choose among the shop's, by the band's offer: refused, COD is taken away;
 * priced, COD is taken away and the partial checkout (the deposit now, the rest in cash) is offered,
 * whether or not the shop offers partial otherwise; anything else leaves the shop's modes.
 */
export function modesForOffer(action: BandAction, offered: readonly string[]): string[] {
  const withoutCod = offered.filter((m) => m !== "cod");
  if (action === "refuse") return withoutCod;
  if (action === "price") return withoutCod.includes("partial") ? withoutCod : [...withoutCod, "partial"];
  return [...offered];
}
