import { query, sql } from "~/core/db/sql.server";
import { shopDay, type ShopZone } from "~/shared/shop-day";
import { clock } from "~/core/utils/clock.server";
import { reasonLabel } from "./reason-labels";
import { RISK_BANDS, type RiskBand } from "./score";
import { readStoredRisk } from "./stored";

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
export type RiskFigures = { days: number; bands: BandFigures[]; topReasons: { code: string; label: string; count: number }[] };

export async function riskFigures(shop: ShopZone, now: Date = clock.now()): Promise<RiskFigures> {
  const shopId = shop.id;
  const since = new Date(now.getTime() - FIGURES_DAYS * 86_400_000);
  const sinceDay = shopDay(since, shop.timezone);
  const [orders, stats] = await Promise.all([
    query<{ riskScore: unknown; riskBand: string | null; riskReasons: string | null }>(sql`
      SELECT "riskScore", "riskBand", "riskReasons" FROM "OrderRecord"
      WHERE "shopId" = ${shopId} AND "cod" = ${true} AND "placedAt" >= ${since} AND "riskBand" IS NOT NULL
      ORDER BY "placedAt" DESC LIMIT ${ORDERS_READ}`),
    query<{ metric: string; dimension: string; n: unknown }>(sql`
      SELECT "metric", "dimension", SUM("count") AS "n" FROM "DailyStat"
      WHERE "shopId" = ${shopId} AND "day" >= ${sinceDay} AND ("metric" = 'cod_refused' OR ("metric" = 'otp_skipped' AND "dimension" = 'returning'))
      GROUP BY "metric", "dimension"`),
  ]);
  const perBand: Record<RiskBand, number> = { low: 0, medium: 0, high: 0 };
  const reasons = new Map<string, number>();
  const count = (code: string, n = 1) => code && reasons.set(code, (reasons.get(code) ?? 0) + n);
  for (const row of orders) {
    const a = readStoredRisk(row);
    if (!a) continue;
    perBand[a.band] += 1;
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
  };
}
