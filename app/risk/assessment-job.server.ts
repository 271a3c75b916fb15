import { z } from "zod";
import { defineJob, enqueueJob, orderJobKey, planJob, type PlannedJob } from "~/core/jobs/queue.server";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { ORDER_RISK_ASSESSMENT_CREATE } from "~/core/shopify/operations";
import { log } from "~/core/utils/log.server";
import type { RiskAssessment, RiskBand } from "./score";

/**
 * The order's COD risk assessment written to Shopify's risk panel (`orderRiskAssessmentCreate`) as a
 * background job (app/core/jobs): orders/create queues it, the worker writes it and retries with the
 * queue's backoff. Writing the same assessment twice only repeats it in the panel, so a run after a
 * crash does no harm. Shopify refuses it for a fulfilled or vanished order: nothing to retry then.
 */

const RISK_LEVEL: Record<RiskBand, "LOW" | "MEDIUM" | "HIGH"> = { low: "LOW", medium: "MEDIUM", high: "HIGH" };
const fact = z.object({ description: z.string().max(256), sentiment: z.enum(["NEGATIVE", "NEUTRAL", "POSITIVE"]) });
type Fact = z.infer<typeof fact>;

export const riskAssessmentJob = defineJob({
  kind: "order-risk-assessment",
  payload: z.object({ orderGid: z.string().min(1), riskLevel: z.enum(["LOW", "MEDIUM", "HIGH"]), facts: z.array(fact).max(20) }),
  run: (payload, { shop }) => writeAssessment(shop, payload),
});

/** The assessment as Shopify's panel shows it: the level from the band, the score, the rule, then each reason in words (≤ 20 facts). */
export function riskPanelInput(a: RiskAssessment): { riskLevel: "LOW" | "MEDIUM" | "HIGH"; facts: Fact[] } {
  const facts: Fact[] = [{ description: `COD Verify risk score ${a.score}/100 (${a.band}).`, sentiment: "NEUTRAL" }];
  if (a.rule) facts.push({ description: `Merchant rule: ${a.rule.text}`, sentiment: "NEGATIVE" });
  for (const r of a.reasons) facts.push({ description: r.text.slice(0, 256), sentiment: r.points > 0 ? "NEGATIVE" : "POSITIVE" });
  return { riskLevel: RISK_LEVEL[a.band], facts: facts.slice(0, 20) };
}

export async function enqueueRiskAssessment(shop: string, orderGid: string, assessment: RiskAssessment) {
  const job = riskAssessmentJobFor(shop, orderGid, assessment);
  await enqueueJob(job.kind, job.input);
}

/** The order's risk-panel job for a caller that queues it with other writes (orders/create). */
export function riskAssessmentJobFor(shop: string, orderGid: string, assessment: RiskAssessment): PlannedJob {
  return planJob(riskAssessmentJob, { shop, key: orderJobKey(shop, orderGid), payload: { orderGid, ...riskPanelInput(assessment) } });
}

const reply = z.object({
  orderRiskAssessmentCreate: z.object({
    orderRiskAssessment: z.object({ riskLevel: z.string() }).nullable(),
    userErrors: z.array(z.object({ message: z.string(), code: z.string().nullish() })),
  }),
});

/** Refusals a retry cannot change (Shopify's OrderRiskAssessmentCreateUserErrorCode). */
const FINAL_REFUSALS = new Set(["ORDER_ALREADY_FULFILLED", "NOT_FOUND"]);

async function writeAssessment(shop: string, input: { orderGid: string; riskLevel: string; facts: Fact[] }) {
  const result = await shopifyGraphql<unknown>("admin", shop, ORDER_RISK_ASSESSMENT_CREATE, {
    variables: { input: { orderId: input.orderGid, riskLevel: input.riskLevel, facts: input.facts } },
  });
  if (!result.ok) return { ok: false as const, error: `${result.cause}: ${result.detail}`.slice(0, 500) };
  const parsed = reply.safeParse(result.data);
  if (!parsed.success) return { ok: false as const, error: `invalid_response: ${parsed.error.message.slice(0, 300)}` };
  const errors = parsed.data.orderRiskAssessmentCreate.userErrors;
  if (errors.some((e) => e.code && FINAL_REFUSALS.has(e.code))) {
    log.info("risk: Shopify refused the order's assessment for good", { shop, orderGid: input.orderGid, errors: JSON.stringify(errors).slice(0, 300) });
    return { ok: false as const, error: `user_errors: ${JSON.stringify(errors).slice(0, 400)}`, retry: false };
  }
  if (errors.length) return { ok: false as const, error: `user_errors: ${JSON.stringify(errors).slice(0, 400)}` };
  return { ok: true as const };
}
