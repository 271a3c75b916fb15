import { verifiedWithin } from "~/otp/verified-phones.server";
import { SELECTION_REUSE_MS } from "~/otp/selection.server";
import { joinSql, sql, toDate, type Sql } from "~/core/db/sql.server";
import type { Shop } from "~/core/settings/shop.server";
import { checkProof, proofOffer, type Proof, type ProofOffer } from "~/otp/proof.server";
import { VERIFIED_CUSTOMER_TAG } from "../../extensions/cod-payment-customization/src/proof-format";
import type { OrderFacts } from "~/core/shopify/order-facts";

export type OrderVerification =
  | { verified: true; by: "proof" | "selection" | "returning_customer"; phone: string }
  | { verified: false; reason: string; heldOut?: undefined }
  /** A COD order placed with a proof whose band priced COD (a deposit first), and the deposit was not paid: nothing on it vouches. */
  | { verified: false; reason: "deposit_unpaid"; heldOut?: undefined; deposit: number; paid: number }
  /** The order carries a holdout proof (app/experiment) for one of its phones, not blocked: the shopper was not asked, on purpose. */
  | { verified: false; reason: "held_out"; heldOut: true; phone: string };

/** The linked selection as the re-check weighs it; `carried`: the order itself names it (our attribute or its cart token). */
export type SelectionEvidence = { phone: string; verified: boolean; verifiedAt: Date | null; carried: boolean };

/**
 * The order's re-check: is one of its phones a phone proven through us, for this shop, still valid
 * when the order was placed? Evidence is only what the order itself carries (docs/contract.md, "orders/create"):
 * - our proof attribute: signature, shop, expiry at the order's time, its phone among the order's;
 * - a selection the order names (our attribute or its cart token), verified within SELECTION_REUSE_MS
 *   before the order for one of its phones. A selection found by the phone alone proves nothing:
 *   anyone can type the number of a shopper who verified and left;
 * - a returning customer: a customer we tagged as verified whose phone on this order is still within
 *   the shop's returning-customer window.
 * A blocked phone is never evidence, whatever vouches for it.
 */
export function decideOrderVerification(
  shop: Pick<Shop, "domain" | "returningSkipDays">,
  facts: Pick<OrderFacts, "phones" | "proof" | "placedAt" | "customer" | "isCod" | "paid">,
  selection: SelectionEvidence | null,
  known: PhoneStanding,
): OrderVerification {
  const { phones, placedAt } = facts;
  if (!phones.length) return { verified: false, reason: "no_phone" };
  const checked = checkProof(shop.domain, facts.proof, placedAt);
  // The shopper's band priced cash on delivery (docs/risk.md): a COD order that did not pay the deposit the
  // proof names took plain COD around the checkout's refusal. Neither that proof nor the journey's selection
  // vouches for it; it goes to the confirmation after purchase, tagged for the merchant.
  const unpaid = checked.ok ? unpaidDeposit(checked.proof, facts) : null;
  if (unpaid) return { verified: false, reason: "deposit_unpaid", ...unpaid };
  // A holdout proof vouches for nothing; it only says the experiment held this shopper out.
  const holdout = checked.ok && checked.proof.holdout ? checked.proof : null;
  // Nor does the daily cap's fallback proof: that order is confirmed after purchase like any unverified one.
  const proof = holdout || (checked.ok && checked.proof.unverified) ? ({ ok: false, reason: "malformed" } as const) : checked;
  const hasCandidate = !!holdout || proof.ok || !!selection?.verified || facts.customer.tags.includes(VERIFIED_CUSTOMER_TAG);
  // Only an order with something that could vouch for it weighs the blocklist.
  const blocked = hasCandidate ? known.blocked : new Set<string>();
  const usable = phones.filter((p) => !blocked.has(p));

  if (proof.ok && usable.includes(proof.proof.phone)) return { verified: true, by: "proof", phone: proof.proof.phone };

  if (selection?.carried && selection.verified && selection.verifiedAt && usable.includes(selection.phone)) {
    const age = placedAt.getTime() - selection.verifiedAt.getTime();
    if (age <= SELECTION_REUSE_MS) return { verified: true, by: "selection", phone: selection.phone };
  }

  if (facts.customer.tags.includes(VERIFIED_CUSTOMER_TAG)) {
    for (const phone of usable) {
      if (verifiedWithin(known.verifiedAt.get(phone) ?? null, shop.returningSkipDays, placedAt)) {
        return { verified: true, by: "returning_customer", phone };
      }
    }
  }
  if (holdout && usable.includes(holdout.phone)) return { verified: false, reason: "held_out", heldOut: true, phone: holdout.phone };
  return { verified: false, reason: notVerifiedBecause(proof.ok ? proof.proof.phone : null, selection, phones, blocked) };
}

/** The deposit a priced proof names and what a COD order paid of it, when it paid less (null: nothing owed). */
function unpaidDeposit(proof: Proof, facts: Pick<OrderFacts, "isCod" | "paid">): { deposit: number; paid: number } | null {
  const offer = proofOffer(proof);
  if (!facts.isCod || offer?.action !== "price" || offer.deposit == null) return null;
  const paid = facts.paid ?? 0;
  return paid + 0.005 < offer.deposit ? { deposit: offer.deposit, paid } : null;
}

/**
 * What the order's own proof says the shopper's band does (verify-otp's or create-checkout's: refused, priced,
 * confirmed), when the order carries a valid one of this shop; null otherwise.
 */
export function offerOnOrder(shop: Pick<Shop, "domain">, facts: Pick<OrderFacts, "proof" | "placedAt">): ProofOffer | null {
  const checked = checkProof(shop.domain, facts.proof, facts.placedAt);
  return checked.ok ? proofOffer(checked.proof) : null;
}

/** What the re-check needs to know of the order's phones (up to four: order, shipping, billing, customer). */
export type PhoneStanding = { blocked: Set<string>; verifiedAt: Map<string, Date | null> };

const PHONES_ASKED = 4;

/**
 * `PhoneStanding`'s columns for a caller's own SELECT: for each of the order's first four phones, whether
 * the shop blocked it ("blocked0".."blocked3") and when it last verified ("verifiedAt0".."verifiedAt3").
 */
export function phoneStandingColumns(shopId: string, phones: string[]): Sql {
  const asked = phones.slice(0, PHONES_ASKED);
  if (!asked.length) return sql`NULL AS "blocked0"`;
  const columns = asked.map((phone, i) =>
    sql(
      [
        `(SELECT 1 FROM "BlockedPhone" WHERE "shopId" = `,
        ` AND "phone" = `,
        `) AS "blocked${i}", (SELECT "verifiedAt" FROM "VerifiedCustomer" WHERE "shopId" = `,
        ` AND "phone" = `,
        `) AS "verifiedAt${i}"`,
      ],
      shopId,
      phone,
      shopId,
      phone,
    ),
  );
  return joinSql(columns, ", ");
}

export function phoneStandingOf(phones: string[], row: Record<string, unknown>): PhoneStanding {
  const standing: PhoneStanding = { blocked: new Set(), verifiedAt: new Map() };
  phones.slice(0, PHONES_ASKED).forEach((phone, i) => {
    if (row[`blocked${i}`] != null) standing.blocked.add(phone);
    const at = row[`verifiedAt${i}`];
    standing.verifiedAt.set(phone, at == null ? null : toDate(at));
  });
  return standing;
}

function notVerifiedBecause(proofPhone: string | null, selection: SelectionEvidence | null, phones: string[], blocked: Set<string>): string {
  if (proofPhone && blocked.has(proofPhone)) return "proof_phone_blocked";
  if (proofPhone) return "proof_for_another_phone";
  if (selection?.verified && blocked.has(selection.phone)) return "selection_phone_blocked";
  if (selection?.verified && !selection.carried && phones.includes(selection.phone)) return "selection_found_by_phone_only";
  if (selection?.verified) return "selection_for_another_phone";
  return "no_evidence";
}
