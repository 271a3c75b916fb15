import { query, sql, type Sql } from "~/core/db/sql.server";
import type { OrderFacts } from "~/core/shopify/order-facts";
import { orderAssessment, orderRiskColumns, type HourShop, type OrderRiskRow, type RiskShop } from "./assess.server";
import type { BehaviourFacts, RiskAssessment, RiskBand } from "./score";
import { readStoredRisk } from "./stored";

export { enqueueRiskAssessment, riskAssessmentJobFor } from "./assessment-job.server";
export { orderIpHash } from "./assess.server";

/** The order tag of a COD order's band, so merchants filter on it (docs/risk.md). */
export const riskTag = (band: RiskBand) => `cod-risk:${band}`;

/**
 * orders/create's assessment of a COD order: the one its record already holds (a redelivery must tag
 * and report what the first delivery stored, even when the counters moved since), else a fresh one,
 * which the order's record stores with its first write (app/orders/order-record.server.ts).
 */
export async function assessCodOrder(shop: RiskShop & HourShop, facts: OrderFacts, verified: boolean): Promise<RiskAssessment | null> {
  if (!facts.isCod) return null;
  const [row] = await query<CodOrderRiskRow>(sql`SELECT ${codOrderRiskColumns(shop.id, facts)}`);
  return codOrderAssessment(shop, facts, verified, row);
}

/** What `codOrderRiskColumns` reads. */
export type CodOrderRiskRow = OrderRiskRow & { storedScore?: unknown; storedBand?: string | null; storedReasons?: string | null };

/**
 * `assessCodOrder`'s facts as columns of a caller's own SELECT (none for an order that is not COD): the
 * assessment the order's record holds, and the facts of a fresh one.
 */
export function codOrderRiskColumns(shopId: string, facts: OrderFacts): Sql {
  if (!facts.isCod) return sql`NULL AS "storedScore"`;
  return sql`
    (SELECT "riskScore" FROM "OrderRecord" WHERE "shopId" = ${shopId} AND "orderGid" = ${facts.gid}) AS "storedScore",
    (SELECT "riskBand" FROM "OrderRecord" WHERE "shopId" = ${shopId} AND "orderGid" = ${facts.gid}) AS "storedBand",
    (SELECT "riskReasons" FROM "OrderRecord" WHERE "shopId" = ${shopId} AND "orderGid" = ${facts.gid}) AS "storedReasons",
    ${orderRiskColumns(shopId, facts)}`;
}

/** `assessCodOrder` from `codOrderRiskColumns`' row; `modal`: the behaviour readings verify-otp kept on the selection the order names. */
export function codOrderAssessment(shop: RiskShop & HourShop, facts: OrderFacts, verified: boolean, row: CodOrderRiskRow | undefined, modal: BehaviourFacts | null = null): RiskAssessment | null {
  if (!facts.isCod) return null;
  const stored = row ? readStoredRisk({ riskScore: row.storedScore, riskBand: row.storedBand ?? null, riskReasons: row.storedReasons ?? null }) : null;
  return stored ?? orderAssessment(shop, facts, verified, row, modal);
}

/** The assessment as the order's record stores it: the behaviour readings it used with its reasons. */
export function riskColumns(a: RiskAssessment) {
  return { score: a.score, band: a.band, reasons: JSON.stringify({ rule: a.rule, reasons: a.reasons, ...(a.behaviour ? { behaviour: a.behaviour } : {}) }) };
}

/** The assessment an order's record holds, or null (not COD, not recorded yet, or recorded before risk scores). */
export async function storedAssessment(shopId: string, orderGid: string): Promise<RiskAssessment | null> {
  const rows = await query<{ riskScore: unknown; riskBand: string | null; riskReasons: string | null }>(sql`
    SELECT "riskScore", "riskBand", "riskReasons" FROM "OrderRecord" WHERE "shopId" = ${shopId} AND "orderGid" = ${orderGid}`);
  return rows[0] ? readStoredRisk(rows[0]) : null;
}
