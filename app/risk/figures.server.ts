import { query, sql } from "~/core/db/sql.server";
import { lastShopDaysStart, shopDay, type ShopZone } from "~/shared/shop-day";
import { clock } from "~/core/utils/clock.server";
import { reasonLabel } from "./reason-labels";
import { RISK_BANDS, type RiskBand } from "./score";
import { readStoredRisk } from "./stored";
import type { Shop } from "~/core/settings/shop.server";
import { failureProbability, type CalibrationBand } from "./calibration";
import { shopCalibration } from "./calibration.server";
import { codOffer, pricingSettingsOf } from "./pricing";
import type { ReplayResult } from "./replay";
import { DEFAULT_ASSUMPTIONS, replayReport } from "./replay-report";

/**
 * The Risk page's last 30 days (docs/risk.md): per band the COD orders scored, and what the band did —
 * low: codes saved (a verified returning customer skipped the code on its remembered device); high:
 * cash on delivery refused (not offered, or refused by create-checkout: the daily rollup's
 * `cod_refused`) and orders held (COD orders that still came in high: tagged `cod-risk:high` and
 * HIGH in Shopify's risk panel for the merchant to hold). Top reasons: the rules and reasons with
 * points of those orders and refusals.
 */
export const FIGURES_DAYS = 30;
/** Enough orders for the reasons of a busy COD shop's month; more are not read on a page load. */
const ORDERS_READ = 5000;

export type BandFigures = { band: RiskBand; orders: number; codesSaved: number | null; codRefused: number | null; ordersHeld: number | null };
export type RiskFigures = {
  days: number;
  bands: BandFigures[];
  topReasons: { code: string; label: string; count: number }[];
  /** Predicted against observed failure rate by score band (the shop's calibration). */
  calibration: CalibrationBand[];
  /** What each band's action, as set now, would have done to the period's COD orders. */
  wouldHave: WouldHave;
};

export type WouldHave = { orders: number; refused: number; priced: number; confirmed: number; deposits: number; failuresCaught: number; failuresLearnt: number; net: number | null };

export type FiguresShop = ShopZone & Pick<Shop, "riskCalibration" | "riskMediumAction" | "riskHighAction" | "riskDepositMin" | "riskDepositMax" | "codFailureCost">;

export async function riskFigures(shop: FiguresShop, now: Date = clock.now()): Promise<RiskFigures> {
  const shopId = shop.id;
  // Both windows are the same whole shop days: today and the 29 before, from the first one's midnight.
  const since = lastShopDaysStart(now, FIGURES_DAYS, shop.timezone);
  const sinceDay = shopDay(since, shop.timezone);
  const [orders, stats] = await Promise.all([
    query<{ riskScore: unknown; riskBand: string | null; riskReasons: string | null; value: unknown; outcome: string | null }>(sql`
      SELECT r."riskScore", r."riskBand", r."riskReasons", r."value",
        (SELECT o."outcome" FROM "OrderOutcome" o WHERE o."shopId" = r."shopId" AND o."orderGid" = r."orderGid") AS "outcome"
      FROM "OrderRecord" r
      WHERE r."shopId" = ${shopId} AND r."cod" = ${true} AND r."placedAt" >= ${since} AND r."riskBand" IS NOT NULL
      ORDER BY r."placedAt" DESC LIMIT ${ORDERS_READ}`),
    query<{ metric: string; dimension: string; n: unknown }>(sql`
      SELECT "metric", "dimension", SUM("count") AS "n" FROM "DailyStat"
      WHERE "shopId" = ${shopId} AND "day" >= ${sinceDay} AND ("metric" = 'cod_refused' OR ("metric" = 'otp_skipped' AND "dimension" = 'returning'))
      GROUP BY "metric", "dimension"`),
  ]);
  const calibration = shopCalibration(shop.riskCalibration);
  const pricing = pricingSettingsOf(shop);
  const decided: ReplayResult[] = [];
  const perBand: Record<RiskBand, number> = { low: 0, medium: 0, high: 0 };
  const reasons = new Map<string, number>();
  const count = (code: string, n = 1) => code && reasons.set(code, (reasons.get(code) ?? 0) + n);
  for (const row of orders) {
    const a = readStoredRisk(row);
    if (!a) continue;
    perBand[a.band] += 1;
    const probability = failureProbability(calibration, a.score);
    const value = row.value == null ? null : Number(row.value);
    const failed = row.outcome === "failed" ? true : row.outcome === "delivered" ? false : null;
    decided.push({ id: "", value, score: a.score, band: a.band, probability, failed, rule: !!a.rule, reasons: [], ...codOffer(a.band, probability, pricing, value) });
    if (a.rule) count(a.rule.code);
    for (const r of a.reasons) if (r.points > 0) count(r.code);
  }
  let codesSaved = 0;
  let codRefused = 0;
  for (const s of stats) {
    const n = Number(s.n);
    if (s.metric === "otp_skipped") codesSaved += n;
    else {
      codRefused += n;
      count(s.dimension, n);
    }
  }
  return {
    days: FIGURES_DAYS,
    bands: RISK_BANDS.map((band) => ({
      band,
      orders: perBand[band],
      codesSaved: band === "low" ? codesSaved : null,
      codRefused: band === "high" ? codRefused : null,
      ordersHeld: band === "high" ? perBand.high : null,
    })),
    topReasons: [...reasons.entries()]
      .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
      .slice(0, 5)
      .map(([code, n]) => ({ code, label: reasonLabel(code), count: n })),
    calibration,
    wouldHave: wouldHave(decided, shop.codFailureCost),
  };
}

/**
 * The actions' effect on the period's orders: how many each would have refused, priced (and the deposits
 * asked) or sent to confirmation, the learnt failures among those acted on, and the net money by the
 * replay's assumptions (app/risk/replay-report.ts; none without a failed-parcel cost).
 */
function wouldHave(decided: ReplayResult[], failureCost: number | null): WouldHave {
  const acted = decided.filter((r) => r.action === "refuse" || r.action === "price");
  const report = failureCost ? replayReport(decided, { ...DEFAULT_ASSUMPTIONS, failureCost }) : null;
  return {
    orders: decided.length,
    refused: decided.filter((r) => r.action === "refuse").length,
    priced: decided.filter((r) => r.action === "price").length,
    confirmed: decided.filter((r) => r.action === "confirm").length,
    deposits: decided.reduce((sum, r) => sum + (r.deposit ?? 0), 0),
    failuresCaught: acted.filter((r) => r.failed).length,
    failuresLearnt: decided.filter((r) => r.failed).length,
    net: report ? Math.round(report.money.net.estimate) : null,
  };
}
