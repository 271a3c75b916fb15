import { lastVerifiedAt, verifiedWithin } from "~/otp/verified-phones.server";
import { SELECTION_REUSE_MS } from "~/otp/selection.server";
import type { Shop } from "~/settings/shop.server";
import { checkProof, PROOF_ATTRIBUTE } from "~/otp/proof.server";
import { VERIFIED_CUSTOMER_TAG } from "../../extensions/cod-payment-customization/src/proof-format";
import { attributeOf, customerTags, orderPhones, type OrderPayload } from "./order-payload";

export type OrderVerification =
  | { verified: true; by: "proof" | "selection" | "returning_customer"; phone: string }
  | { verified: false; reason: string };

/**
 * The order's re-check: is one of its phones (order, shipping, billing, customer; normalised) a phone
 * proven through us, for this shop, still valid when the order was placed? Evidence, in order:
 * - the proof on the order's attributes: signature, shop, expiry at the order's time, its phone;
 * - the linked selection: verified within SELECTION_REUSE_MS before the order, for one of its phones;
 * - a returning customer: a customer we tagged as verified whose phone on this order is still within
 *   the shop's returning-customer window.
 * A selection or proof for another number proves nothing about this order, however it got linked.
 */
export async function checkOrderVerification(
  shop: Pick<Shop, "id" | "domain" | "returningSkipDays">,
  order: OrderPayload,
  selection: { phone: string; verified: boolean; verifiedAt: Date | null } | null,
  placedAt: Date,
): Promise<OrderVerification> {
  const phones = orderPhones(order);
  if (!phones.length) return { verified: false, reason: "no_phone" };

  const proof = checkProof(shop.domain, attributeOf(order, PROOF_ATTRIBUTE), placedAt);
  if (proof.ok && phones.includes(proof.proof.phone)) return { verified: true, by: "proof", phone: proof.proof.phone };

  if (selection?.verified && selection.verifiedAt && phones.includes(selection.phone)) {
    const age = placedAt.getTime() - selection.verifiedAt.getTime();
    if (age <= SELECTION_REUSE_MS) return { verified: true, by: "selection", phone: selection.phone };
  }

  if (customerTags(order).includes(VERIFIED_CUSTOMER_TAG)) {
    for (const phone of phones) {
      if (verifiedWithin(await lastVerifiedAt(shop.id, phone), shop.returningSkipDays, placedAt)) {
        return { verified: true, by: "returning_customer", phone };
      }
    }
  }
  return { verified: false, reason: proof.ok ? "proof_for_another_phone" : selection?.verified ? "selection_for_another_phone" : "no_evidence" };
}
