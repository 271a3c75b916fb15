import * as cancelled from "~/routes/webhooks.orders.cancelled";
import * as fulfilled from "~/routes/webhooks.orders.fulfilled";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as risk from "~/routes/app.risk";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { riskCalibrationJob } from "~/risk/calibration.server";
import { PRIOR_WEIGHT, priorProbability } from "~/risk/calibration";
import type { RiskFigures } from "~/risk/figures.server";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute } from "../helpers/proxy";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { installShop, SHOP } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * The shop's failure probability by score (docs/risk.md, "Probabilities"): learnt outcomes queue one
 * recount an hour through the jobs table; the recount reads every learnt COD order by the score
 * orders/create stored, and the Risk page shows predicted against observed, and what the bands' actions
 * would have done.
 */
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(shopify));
const ADDRESS = { first_name: "Asha", address1: "Flat 12, Shanti Apartments, MG Road", address2: "Near City Mall", city: "Mumbai", province: "Maharashtra", zip: "400001", country_code: "IN" };
const load = async () => callAdminRoute<{ figures: RiskFigures }>(risk, await adminRequest("/app/risk"));
const counts = async () => JSON.parse((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).riskCalibration || "null");
const recount = async () => {
  const later = new Date(Date.now() + 2 * 3_600_000);
  vi.spyOn(clock, "now").mockReturnValue(later);
  try {
    return await runDueJobs([riskCalibrationJob], 10);
  } finally {
    vi.restoreAllMocks();
  }
};

/** Ten unverified COD orders of new phones (each score 35: no code proven, first order), four cancelled, six fulfilled. */
async function tenOrders() {
  const orders = Array.from({ length: 10 }, (_, i) => orderCreatedPayload({ phone: `+9198123450${String(i).padStart(2, "0")}`, shipping_address: ADDRESS, total_price: "1000.00" }));
  for (const o of orders) expect((await callRoute(ordersCreate, signedWebhook("orders/create", o))).status).toBe(200);
  const scores = await prisma.orderRecord.findMany({ select: { riskScore: true } });
  expect(new Set(scores.map((s) => s.riskScore))).toEqual(new Set([35]));
  for (const [i, o] of orders.entries()) {
    if (i < 4) await callRoute(cancelled, signedWebhook("orders/cancelled", { ...o, cancelled_at: new Date().toISOString() }, { webhookId: `c-${i}` }));
    else await callRoute(fulfilled, signedWebhook("orders/fulfilled", { ...o, fulfillment_status: "fulfilled" }, { webhookId: `f-${i}` }));
  }
  return orders;
}

describe("the shop's calibration", () => {
  it("is recounted once an hour from the learnt outcomes, each order once however often Shopify delivers", async () => {
    await installShop();
    const orders = await tenOrders();
    // Redeliveries and a concurrent burst of one cancellation change nothing.
    await Promise.all(Array.from({ length: 10 }, (_, i) => callRoute(cancelled, signedWebhook("orders/cancelled", { ...orders[0], cancelled_at: new Date().toISOString() }, { webhookId: `again-${i}` }))));
    expect(await prisma.job.count({ where: { kind: "risk-calibration" } })).toBe(1);
    expect(await counts()).toBeNull(); // not before the hour's end
    expect(await runDueJobs([riskCalibrationJob], 10)).toMatchObject({ claimed: 0 });
    expect(await recount()).toMatchObject({ done: 1 });
    const learnt = await counts();
    expect(learnt.orders[3]).toBe(10);
    expect(learnt.failed[3]).toBe(4);
    expect(learnt.orders.reduce((a: number, b: number) => a + b, 0)).toBe(10);

    const band = (await load()).data!.figures.calibration[3];
    expect(band).toMatchObject({ from: 30, to: 39, orders: 10, failed: 4, observed: 0.4 });
    expect(band.predicted).toBeCloseTo((4 + PRIOR_WEIGHT * priorProbability(35)) / (10 + PRIOR_WEIGHT), 6);
  });

  it("shows what pricing the medium band would have done over the last 30 days", async () => {
    await installShop({ riskMediumAction: "price", codFailureCost: 200, riskDepositMin: 30 });
    await tenOrders();
    const { wouldHave } = (await load()).data!.figures;
    // P(fail) at 35 under the prior alone (no recount yet) × 200, rounded up.
    const deposit = Math.ceil(priorProbability(35) * 200);
    expect(wouldHave).toMatchObject({ orders: 10, priced: 10, refused: 0, deposits: 10 * Math.max(30, deposit), failuresCaught: 4, failuresLearnt: 4 });
    expect(wouldHave.net).not.toBeNull();
  });
});
