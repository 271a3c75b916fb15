import { RISK_BANDS, type RiskAssessment, type RiskBand } from "./score";

/** An assessment as the order's record stores it (`riskScore`, `riskBand`, `riskReasons` JSON), or null when it holds none. */
export function readStoredRisk(row: { riskScore: unknown; riskBand: string | null; riskReasons: string | null }): RiskAssessment | null {
  if (row.riskScore == null || !row.riskBand || !(RISK_BANDS as readonly string[]).includes(row.riskBand)) return null;
  let parsed: Partial<Pick<RiskAssessment, "rule" | "reasons">> = {};
  try {
    parsed = JSON.parse(row.riskReasons ?? "{}") as typeof parsed;
  } catch {
    // A record written by hand or by another version: the score and band still stand.
  }
  return { score: Number(row.riskScore), band: row.riskBand as RiskBand, rule: parsed.rule ?? null, reasons: Array.isArray(parsed.reasons) ? parsed.reasons : [] };
}

/** What the Orders page shows: the score, the band and the reasons in words (the rule first), no points. */
export function riskForDisplay(a: RiskAssessment | null) {
  if (!a) return null;
  return { score: a.score, band: a.band, reasons: [...(a.rule ? [a.rule.text] : []), ...a.reasons.filter((r) => r.points > 0).map((r) => r.text)] };
}
