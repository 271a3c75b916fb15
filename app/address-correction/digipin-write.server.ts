import { z } from "zod";
import { prisma } from "~/core/db.server";
import { defineJob, enqueueJob, orderJobKey, type JobResult } from "~/core/jobs/queue.server";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { METAFIELDS_SET } from "~/core/shopify/operations";
import { appendOrderNote } from "~/core/shopify/orders.server";
import { digipinMapLink, normalizeDigipin } from "~/shared/digipin";

/**
 * A shopper's DIGIPIN on the order, where the courier sees it, as the merchant chose
 * (`Shop.digipinTarget`): the order's `cod_verify.digipin` and `cod_verify.digipin_map` metafields
 * (a shipping app reads them), a line of the order's note, or the shipping address's second line.
 * The second line goes with the corrected address itself (the correction's orderUpdate); the
 * metafields and the note through this job, retried with the queue's backoff until written, and
 * safe to repeat (metafieldsSet replaces, the note line is added once). Only the DIGIPIN is kept: the
 * job names the row that holds it, not the code or any position.
 */
export const DIGIPIN_TARGETS = ["metafield", "note", "address2"] as const;
export type DigipinTarget = (typeof DIGIPIN_TARGETS)[number];

export function digipinTargetOf(value: string | null | undefined): DigipinTarget {
  return (DIGIPIN_TARGETS as readonly string[]).includes(value ?? "") ? (value as DigipinTarget) : "metafield";
}

/** The shipping address's second line with the DIGIPIN added (once), within Shopify's 255 characters. */
export function address2WithDigipin(address2: string, digipin: string): string {
  const line = `DIGIPIN ${digipin}`;
  if (address2.includes(digipin)) return address2;
  return (address2 ? `${address2}, ${line}` : line).slice(-255);
}

/** The note's line for a DIGIPIN, in the merchant's words. */
export function digipinNote(digipin: string): string {
  return `COD Verify: the shopper's DIGIPIN is ${digipin} (map: ${digipinMapLink(digipin)}).`;
}

const userErrors = z.array(z.object({ field: z.array(z.string()).nullish(), message: z.string() }));

async function writeMetafields(shop: string, orderGid: string, digipin: string): Promise<JobResult> {
  const metafields = [
    { ownerId: orderGid, namespace: "cod_verify", key: "digipin", type: "single_line_text_field", value: digipin },
    { ownerId: orderGid, namespace: "cod_verify", key: "digipin_map", type: "url", value: digipinMapLink(digipin)! },
  ];
  const result = await shopifyGraphql<unknown>("admin", shop, METAFIELDS_SET, { variables: { metafields } });
  if (!result.ok) return { ok: false, error: `${result.cause}: ${result.detail}`.slice(0, 300), retry: true };
  const parsed = z.object({ metafieldsSet: z.object({ userErrors }) }).safeParse(result.data);
  if (!parsed.success) return { ok: false, error: "invalid_response", retry: true };
  const errors = parsed.data.metafieldsSet.userErrors;
  return errors.length ? { ok: false, error: `user_errors: ${JSON.stringify(errors).slice(0, 300)}`, retry: false } : { ok: true };
}

/** The row that holds the DIGIPIN: a correction the shopper sent, or a failed delivery's page. */
const payload = z.object({ correctionId: z.string().min(1).max(64).optional(), recoveryId: z.string().min(1).max(64).optional() });

async function placeOf(p: z.infer<typeof payload>) {
  if (p.correctionId) {
    const c = await prisma.addressCorrection.findUnique({ where: { id: p.correctionId }, include: { shop: true } });
    // A correction applied with the address's second line already carries it, unless it could not be applied.
    return c && { shop: c.shop, orderGid: c.orderGid, digipin: c.digipin, onAddress: c.status === "completed" };
  }
  const r = p.recoveryId ? await prisma.deliveryRecovery.findUnique({ where: { id: p.recoveryId }, include: { shop: true } }) : null;
  return r && { shop: r.shop, orderGid: r.orderGid, digipin: r.digipin, onAddress: false };
}

export const digipinWriteJob = defineJob({
  kind: "digipin.write",
  payload,
  maxAttempts: 8,
  // A DIGIPIN given again (the page, then the form) writes the latest one: the job runs again for it.
  merge: (_queued, incoming) => incoming,
  run: async (p): Promise<JobResult> => {
    const place = await placeOf(p);
    const digipin = place?.digipin ? normalizeDigipin(place.digipin) : null;
    if (!place || !digipin || place.shop.uninstalledAt) return { ok: true };
    const target = digipinTargetOf(place.shop.digipinTarget);
    if (target === "metafield") return writeMetafields(place.shop.domain, place.orderGid, digipin);
    if (target === "address2" && place.onAddress) return { ok: true };
    // The note, or for the second line once the address can no longer be changed (not applied, or after dispatch).
    const noted = await appendOrderNote(place.shop.domain, place.orderGid, digipinNote(digipin));
    return noted.ok ? { ok: true } : { ok: false, error: noted.error, retry: noted.retry };
  },
});

export function enqueueDigipinWrite(shop: string, orderGid: string, row: { correctionId: string } | { recoveryId: string }) {
  return enqueueJob(digipinWriteJob, { shop, key: `${orderJobKey(shop, orderGid)}|digipin`, payload: row });
}

/** The DIGIPIN each order's shopper gave (the latest correction's, else the failed-delivery page's), with its map link: the Orders page's. */
export async function digipinsOf(shopId: string, orderGids: string[]): Promise<Map<string, { digipin: string; map: string }>> {
  const out = new Map<string, { digipin: string; map: string }>();
  if (!orderGids.length) return out;
  const where = { shopId, orderGid: { in: orderGids }, digipin: { not: null } };
  const [recoveries, corrections] = await Promise.all([
    prisma.deliveryRecovery.findMany({ where, select: { orderGid: true, digipin: true } }),
    prisma.addressCorrection.findMany({ where, select: { orderGid: true, digipin: true }, orderBy: { createdAt: "asc" } }),
  ]);
  for (const row of [...recoveries, ...corrections]) {
    const map = row.digipin ? digipinMapLink(row.digipin) : null;
    if (map) out.set(row.orderGid, { digipin: row.digipin!, map });
  }
  return out;
}
