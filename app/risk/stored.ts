import { z } from "zod";
import { behaviourReadings, RISK_BANDS, type BehaviourFacts, type RiskAssessment, type RiskBand } from "./score";

const storedBehaviour = z.object({
  numbersTried: z.number().nullish(),
  msToRequest: z.number().nullish(),
  msToType: z.number().nullish(),
  codesAbandoned: z.number().nullish(),
  unusualHour: z.boolean().nullish(),
  cartRatio: z.number().nullish(),
});

/** Behaviour readings as a row keeps them (JSON: Selection.riskBehaviour), or null for none or anything unreadable. */
export function readStoredBehaviour(text: string | null | undefined): BehaviourFacts | null {
  if (!text) return null;
  try {
    const parsed = storedBehaviour.safeParse(JSON.parse(text));
    return parsed.success ? behaviourReadings(parsed.data) : null;
  } catch {
    return null;
  }
}

/** An assessment as the order's record stores it (`riskScore`, `riskBand`, `riskReasons` JSON), or null when it holds none. */
export function readStoredRisk(row: { riskScore: unknown; riskBand: string | null; riskReasons: string | null }): RiskAssessment | null {
  if (row.riskScore == null || !row.riskBand || !(RISK_BANDS as readonly string[]).includes(row.riskBand)) return null;
  let parsed: Partial<Pick<RiskAssessment, "rule" | "reasons" | "behaviour">> = {};
  try {
    parsed = JSON.parse(row.riskReasons ?? "{}") as typeof parsed;
  } catch {
    // A record written by hand or by another version: the score and band still stand.
  }
  return { score: Number(row.riskScore), band: row.riskBand as RiskBand, rule: parsed.rule ?? null, reasons: Array.isArray(parsed.reasons) ? parsed.reasons : [], ...(parsed.behaviour && typeof parsed.behaviour === "object" ? { behaviour: parsed.behaviour } : {}) };
}

/** What the Orders page shows: the score, the band and the reasons in words (the rule first), no points. */
export function riskForDisplay(a: RiskAssessment | null) {
  if (!a) return null;
  return { score: a.score, band: a.band, reasons: [...(a.rule ? [a.rule.text] : []), ...a.reasons.filter((r) => r.points > 0).map((r) => r.text)] };
}
