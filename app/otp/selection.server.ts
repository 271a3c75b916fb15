import { prisma } from "~/db.server";
import { clock } from "~/utils/clock.server";

import type { PaymentMode } from "~/shared/payment-modes";

export type SelectionInput = {
  shopId: string;
  phone: string;
  mode: PaymentMode;
  source: "verify-otp" | "create-checkout";
  verified?: boolean;
  verifiedAt?: Date | null;
  cartToken?: string | null;
  items?: { variantId: string; quantity: number }[] | null;
  checkoutUrl?: string | null;
  draftOrderGid?: string | null;
};

/** How long an unlinked selection is taken as the same shopping session and updated rather than duplicated. */
export const SELECTION_REUSE_MS = 24 * 60 * 60 * 1000;

/**
 * Records the shopper's choice: the latest unlinked selection of this shop and phone from the last
 * 24 hours is updated (verify-otp, then create-checkout, are one journey); otherwise a new one is made.
 * A verified selection never becomes unverified by a later update.
 */
export async function recordSelection(input: SelectionInput) {
  const now = clock.now();
  const data = {
    mode: input.mode,
    source: input.source,
    ...(input.verified ? { verified: true, verifiedAt: input.verifiedAt ?? now } : {}),
    ...(input.cartToken ? { cartToken: input.cartToken } : {}),
    ...(input.items ? { items: JSON.stringify(input.items) } : {}),
    ...(input.checkoutUrl ? { checkoutUrl: input.checkoutUrl } : {}),
    ...(input.draftOrderGid ? { draftOrderGid: input.draftOrderGid } : {}),
  };
  const open = await prisma.selection.findFirst({
    where: {
      shopId: input.shopId,
      phone: input.phone,
      orderGid: null,
      createdAt: { gte: new Date(now.getTime() - SELECTION_REUSE_MS) },
    },
    orderBy: { createdAt: "desc" },
  });
  if (open) return prisma.selection.update({ where: { id: open.id }, data });
  return prisma.selection.create({
    data: { shopId: input.shopId, phone: input.phone, verified: false, ...data, createdAt: now },
  });
}
