import { query, sql } from "~/core/db/sql.server";
import type { OrderFacts } from "~/core/shopify/order-facts";
import { assessOrder, type RiskShop } from "./assess.server";

export { orderIpHash } from "./assess.server";
import type { RiskAssessment, RiskBand } from "./score";
import { readStoredRisk } from "./stored";

export { enqueueRiskAssessment } from "./assessment-job.server";

/** The order tag of a COD order's band, so merchants filter on it (docs/risk.md). */
export const riskTag = (band: RiskBand) => `cod-risk:${band}`;

/**
 * orders/create's assessment of a COD order: the one its record already holds (a redelivery must tag
 * and report what the first delivery stored, even when the counters moved since), else a fresh one,
 * which the order's record stores with its first write (app/orders/order-record.server.ts).
 */
export async function assessCodOrder(shop: RiskShop, facts: OrderFacts, verified: boolean): Promise<RiskAssessment | null> {
  if (!facts.isCod) return null;
  return (await storedAssessment(shop.id, facts.gid)) ?? (await assessOrder(shop, facts, verified));
}

/** The assessment as the order's record stores it. */
export function riskColumns(a: RiskAssessment) {
  return { score: a.score, band: a.band, reasons: JSON.stringify({ rule: a.rule, reasons: a.reasons }) };
}

/** The assessment an order's record holds, or null (not COD, not recorded yet, or recorded before risk scores). */
export async function storedAssessment(shopId: string, orderGid: string): Promise<RiskAssessment | null> {
  const rows = await query<{ riskScore: unknown; riskBand: string | null; riskReasons: string | null }>(sql`
    SELECT "riskScore", "riskBand", "riskReasons" FROM "OrderRecord" WHERE "shopId" = ${shopId} AND "orderGid" = ${orderGid}`);
  return rows[0] ? readStoredRisk(rows[0]) : null;
}
