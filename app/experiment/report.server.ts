import { prisma } from "~/core/db.server";
import { query, sql } from "~/core/db/sql.server";
import type { Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { shopLocale, type ArmReport, type ExperimentReport } from "./report";
import { PROBE_ARM } from "./experiment.server";
import { experimentDays, shopDaysRun } from "./period";
import { moneySaved, readExperiment, type ShopperCounts } from "./stats";

/**
 * The shop's latest experiment, read from what the app already learns: each assigned shopper's COD
 * orders placed while the experiment ran (after their assignment), what became of them (OrderOutcome:
 * delivered, failed, or still open) and the messages sent to them. Every order of a shopper counts in
 * the shopper's arm, whatever happened at checkout (intention to treat).
 */
export async function loadExperimentReport(shop: Pick<Shop, "id" | "timezone" | "currency" | "locale" | "country" | "codFailureCost" | "messageCost">, now: Date = clock.now()): Promise<ExperimentReport | null> {
  const experiment = await prisma.experiment.findFirst({ where: { shopId: shop.id }, orderBy: { startedAt: "desc" } });
  if (!experiment) return null;
  const ends = [experiment.endsAt, experiment.stoppedAt].filter((d): d is Date => d !== null);
  // The earlier of its period's end and the merchant's stop (a stop pressed after the period ended changes nothing).
  const end = ends.length ? new Date(Math.min(...ends.map((d) => d.getTime()))) : null;
  const until = new Date(Math.min(now.getTime(), end?.getTime() ?? Infinity));
  const running = experiment.runningShopId !== null && until.getTime() === now.getTime();

  const rows = await query<{ arm: string; phone: string; orders: unknown; delivered: unknown; failed: unknown }>(sql`
    SELECT "a"."arm", "a"."phone", COUNT("r"."orderGid") AS "orders",
      SUM(CASE WHEN "o"."outcome" = 'delivered' THEN 1 ELSE 0 END) AS "delivered",
      SUM(CASE WHEN "o"."outcome" = 'failed' THEN 1 ELSE 0 END) AS "failed"
    FROM "ExperimentAssignment" "a"
    LEFT JOIN "OrderRecord" "r" ON "r"."shopId" = "a"."shopId" AND "r"."phone" = "a"."phone" AND "r"."cod" = ${true}
      AND "r"."placedAt" >= "a"."assignedAt" AND "r"."placedAt" < ${until}
    LEFT JOIN "OrderOutcome" "o" ON "o"."shopId" = "r"."shopId" AND "o"."orderGid" = "r"."orderGid"
    WHERE "a"."experimentId" = ${experiment.id}
    GROUP BY "a"."arm", "a"."phone"`);
  const messages = await query<{ arm: string; messages: unknown }>(sql`
    SELECT "a"."arm", COUNT("m"."id") AS "messages"
    FROM "ExperimentAssignment" "a"
    JOIN "MessageDelivery" "m" ON "m"."shopId" = "a"."shopId" AND "m"."phone" = "a"."phone"
      AND "m"."createdAt" >= "a"."assignedAt" AND "m"."createdAt" < ${until}
    WHERE "a"."experimentId" = ${experiment.id}
    GROUP BY "a"."arm"`);

  // Numbers first asked from a probing source are in neither arm: counted apart (app/experiment/experiment.server.ts).
  const arms = { holdout: [] as typeof rows, verify: [] as typeof rows, probe: [] as typeof rows };
  for (const row of rows) (row.arm === "holdout" ? arms.holdout : row.arm === PROBE_ARM ? arms.probe : arms.verify).push(row);
  const resolved = (list: typeof rows): ShopperCounts[] =>
    list.map((r) => ({ orders: Number(r.delivered ?? 0) + Number(r.failed ?? 0), failed: Number(r.failed ?? 0) }));
  // The pace: resolved orders per shop day run so far (the start day and today each counted whole).
  const days = shopDaysRun(experiment.startedAt, until, shop.timezone);
  const resolvedSoFar = [...arms.holdout, ...arms.verify].reduce((sum, r) => sum + Number(r.delivered ?? 0) + Number(r.failed ?? 0), 0);
  const reading = readExperiment({
    holdout: resolved(arms.holdout),
    verified: resolved(arms.verify),
    horizon: experiment.horizon,
    resolvedPerDay: resolvedSoFar / days,
  });

  const sentBy = (arm: string) => Number(messages.find((m) => m.arm === arm)?.messages ?? 0);
  const armReport = (list: typeof rows, arm: string, read: typeof reading.holdout): ArmReport => {
    const codOrders = list.reduce((sum, r) => sum + Number(r.orders), 0);
    const delivered = list.reduce((sum, r) => sum + Number(r.delivered ?? 0), 0);
    const failed = list.reduce((sum, r) => sum + Number(r.failed ?? 0), 0);
    const sent = sentBy(arm);
    return {
      shoppers: list.length,
      codOrders,
      delivered,
      failed,
      open: codOrders - delivered - failed,
      messages: sent,
      messagesCost: shop.messageCost == null ? null : sent * shop.messageCost,
      rate: read.rate,
      designEffect: read.designEffect,
    };
  };
  const holdout = armReport(arms.holdout, "holdout", reading.holdout);
  const verified = armReport(arms.verify, "verify", reading.verified);
  return {
    id: experiment.id,
    running,
    startedAt: experiment.startedAt.toISOString(),
    endsAt: end?.toISOString() ?? null,
    days: experimentDays(experiment.startedAt, end, shop.timezone),
    holdoutShare: experiment.holdoutShare,
    horizon: experiment.horizon,
    baseline: experiment.baseline,
    drop: experiment.drop,
    holdout,
    verified,
    probed: arms.probe.length,
    reading: { difference: reading.difference, crossesZero: reading.crossesZero, verdict: reading.verdict, ordersToHorizon: reading.ordersToHorizon, daysToHorizon: reading.daysToHorizon },
    saved: moneySaved({ verifiedOrders: verified.codOrders, difference: reading.difference, failedParcelCost: shop.codFailureCost, messagesCost: verified.messagesCost ?? 0 }),
    currency: shop.currency,
    locale: shopLocale(shop.locale, shop.country),
  };
}
