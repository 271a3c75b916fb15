import { z } from "zod";
import { prisma } from "~/core/db.server";
import { defineJob, enqueueJob } from "~/core/jobs/queue.server";
import { enqueueOrderTags } from "~/orders/tag-jobs.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import type { Confirmation } from "./confirmation.server";

/** The order tag that tells the merchant the shopper says the order is not theirs. */
export const DISPUTED_TAG = "cod-disputed";

/** How long the shopper can take "I did not place this order" back; the merchant is told when it ends. */
export const DISPUTE_UNDO_MS = 5 * 60_000;

/** Until when a dispute recorded at `disputedAt` can be undone; null when there is none. */
export function undoUntil(c: Pick<Confirmation, "disputedAt">): Date | null {
  return c.disputedAt ? new Date(c.disputedAt.getTime() + DISPUTE_UNDO_MS) : null;
}

/**
 * The merchant is told of a dispute once its undo window is over: the order is tagged cod-disputed
 * through the order-tags job. The job is queued for that one dispute (its time is in the key and the
 * payload), so a dispute undone and made again is told once, by the job of the standing one; the
 * undone one's job finds nothing to tell.
 */
export const disputeTagJob = defineJob({
  kind: "order-confirmation.dispute-tag",
  payload: z.object({ confirmationId: z.string().min(1), disputedAt: z.number().int() }),
  run: async ({ confirmationId, disputedAt }, { shop }) => {
    const c = await prisma.orderConfirmation.findFirst({ where: { id: confirmationId, disputedAt: new Date(disputedAt) } });
    if (!c) return { ok: true }; // undone (or the order's data erased): nothing to tell
    await enqueueOrderTags(shop, c.orderGid, [DISPUTED_TAG]);
    log.warn("confirmation: the shopper says they did not place this order", { shop, order: c.orderName ?? c.orderGid });
    return { ok: true };
  },
});

async function queueTag(shop: { domain: string }, id: string, disputedAt: Date) {
  await enqueueJob(disputeTagJob, {
    shop: shop.domain,
    key: `${id}:${disputedAt.getTime()}`,
    payload: { confirmationId: id, disputedAt: disputedAt.getTime() },
    runAt: new Date(disputedAt.getTime() + DISPUTE_UNDO_MS),
  });
}

/**
 * The shopper confirms "I did not place this order" on the /vc page: recorded once (`disputedAt`, one
 * conditional update), and the merchant's tag queued for when the undo window ends. Nothing is cancelled
 * or released here: the merchant decides. Answering again while the dispute stands queues the same job
 * (its key), which is harmless, so a crash between the two steps is repaired by the shopper's retry.
 * Returns the dispute's time.
 */
export async function reportNotMine(shop: { id: string; domain: string }, c: Pick<Confirmation, "id">): Promise<Date | null> {
  await prisma.orderConfirmation.updateMany({ where: { id: c.id, shopId: shop.id, disputedAt: null }, data: { disputedAt: clock.now() } });
  const standing = await prisma.orderConfirmation.findFirst({ where: { id: c.id, shopId: shop.id }, select: { disputedAt: true } });
  if (standing?.disputedAt) await queueTag(shop, c.id, standing.disputedAt);
  return standing?.disputedAt ?? null;
}

/**
 * Undo within the window: one conditional update clears the dispute only while its window is open, so
 * an undo and the tag's job never both win (the job reads the dispute it was queued for; once the
 * window is over nothing clears it). Returns whether it was undone.
 */
export async function undoNotMine(shop: { id: string; domain: string }, c: Pick<Confirmation, "id" | "orderGid" | "orderName">): Promise<boolean> {
  const openSince = new Date(clock.now().getTime() - DISPUTE_UNDO_MS);
  const undone = await prisma.orderConfirmation.updateMany({ where: { id: c.id, shopId: shop.id, disputedAt: { gt: openSince } }, data: { disputedAt: null } });
  if (undone.count) log.info("confirmation: the shopper took back that they did not place this order", { shop: shop.domain, order: c.orderName ?? c.orderGid });
  return undone.count === 1;
}
