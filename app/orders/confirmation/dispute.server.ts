import { prisma } from "~/core/db.server";
import { enqueueOrderTags } from "~/orders/tag-jobs.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import type { Confirmation } from "./confirmation.server";

/** The order tag that tells the merchant the shopper says the order is not theirs. */
export const DISPUTED_TAG = "cod-disputed";

/**
 * The shopper answers "I did not place this order" on the /vc page: the answer is recorded once
 * (`disputedAt`, one conditional update), and the order is tagged for the merchant through the
 * order-tags job (durable, retried, merged with the order's other tags). Nothing is cancelled or
 * released here: the merchant decides. Answering again queues the same tag again, which is harmless,
 * so a crash between the two steps is repaired by the shopper's retry.
 */
export async function reportNotMine(shop: { id: string; domain: string }, c: Pick<Confirmation, "id" | "orderGid" | "orderName">): Promise<void> {
  const recorded = await prisma.orderConfirmation.updateMany({ where: { id: c.id, shopId: shop.id, disputedAt: null }, data: { disputedAt: clock.now() } });
  await enqueueOrderTags(shop.domain, c.orderGid, [DISPUTED_TAG]);
  if (recorded.count) log.warn("confirmation: the shopper says they did not place this order", { shop: shop.domain, order: c.orderName ?? c.orderGid });
}
