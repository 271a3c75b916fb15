import crypto from "node:crypto";
import { env } from "~/core/env.server";
import { clock } from "~/core/utils/clock.server";
import type { RiskBand } from "~/risk/score";
import type { BandAction } from "~/risk/pricing";
import {
  parseProof,
  proofBody,
  proofRefusesCod,
  PROOF_ATTRIBUTE,
  type ProofFields,
} from "../../extensions/cod-payment-customization/src/proof-format";

export { PROOF_ATTRIBUTE, proofRefusesCod };

/**
 * Verification proofs (short-lived, ride on carts: checkout reads them) and remembered-device tokens
 * (long-lived, kept by the shopper's browser: the returning-customer skip needs one). Both are
 * stateless: an HMAC under OTP_HASH_SECRET, with a purpose label, over the shop and the fields, so a
 * token made for one shop, phone or purpose never passes for another. Neither is trusted alone: the
 * server re-checks what it stands for (docs/decisions/checkout-enforcement.md).
 */

/** How long a proof stays valid after the code was confirmed (docs/contract.md, "Proofs and holds"). */
export const PROOF_TTL_SECONDS = 2 * 3600;

function mac(purpose: string, shopDomain: string, body: string): string {
  return crypto.createHmac("sha256", env.OTP_HASH_SECRET).update(`${purpose}\0${shopDomain}\0${body}`).digest("hex").slice(0, 32);
}

function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export type Proof = ProofFields & { phone: string };

/**
 * What the shopper's band does to cash on delivery (app/risk/pricing.ts: `codOffer`), as a proof carries it:
 * refused, priced with its deposit, confirmed after purchase, or nothing.
 */
export type ProofOffer = { action: BandAction; deposit: number | null };

/**
 * `band`: the shopper's risk band (app/risk); without `offer`, a high band rides on the proof (format v2) so
 * checkout hides COD for it. `offer`, when given, decides instead: refuse and price hide COD, price carries
 * its deposit, confirm opens the confirmation after purchase (docs/risk.md, "What each band does").
 */
type ProofInput = { phone: string; mode: string; selectionId: string; band?: RiskBand | null; offer?: ProofOffer | null; holdout?: boolean; unverified?: boolean };

/**
 * A proof that `phone` was proven (by a code confirmed at `verifiedAt`) for `mode` in `selectionId`,
 * valid PROOF_TTL_SECONDS from that verification: the expiry is the verification's, not the issuing's.
 */
export function issueProof(shopDomain: string, input: ProofInput, verifiedAt: Date = clock.now()) {
  return signProof(shopDomain, input, Math.floor(verifiedAt.getTime() / 1000) + PROOF_TTL_SECONDS);
}

/**
 * A proof for a shopper the holdout experiment held out (app/experiment): cash on delivery without a code,
 * for PROOF_TTL_SECONDS from now. Never evidence of verification: the app reads it as "held out" only.
 */
export function issueHoldoutProof(shopDomain: string, input: { phone: string; selectionId: string }, now: Date = clock.now()) {
  return signProof(shopDomain, { ...input, mode: "cod", holdout: true }, Math.floor(now.getTime() / 1000) + PROOF_TTL_SECONDS);
}

/**
 * A proof for a shopper the shop's daily cap left without a code, where the merchant's fallback is cash on
 * delivery confirmed after purchase (app/otp/send-limits.server.ts): checkout offers COD, the order is
 * confirmed like any unverified one. Never evidence of verification.
 */
export function issueUnverifiedProof(shopDomain: string, input: { phone: string; selectionId: string }, now: Date = clock.now()) {
  return signProof(shopDomain, { ...input, mode: "cod", unverified: true }, Math.floor(now.getTime() / 1000) + PROOF_TTL_SECONDS);
}

/**
 * A proof for another selection or mode, derived from one the caller showed (create-checkout): it keeps
 * that proof's expiry, so handing a proof back for a new one never extends the verification.
 */
export function deriveProof(shopDomain: string, from: Proof, input: ProofInput) {
  // A restriction the caller's proof carried is never dropped by deriving a new one.
  return signProof(shopDomain, { ...input, band: from.band === "h" ? "high" : input.band, offer: stricterOffer(proofOffer(from), input.offer ?? null) }, from.expiresAt);
}

/**
 * The same proof with what the shopper's band does to cash on delivery (verify-otp, once the offer is
 * known): the same phone, mode, selection and expiry. The offer replaces the band's default reading, so a
 * high band whose merchant only asks for a confirmation keeps COD.
 */
export function withOffer(shopDomain: string, from: Proof, offer: ProofOffer) {
  return signProof(shopDomain, { phone: from.phone, mode: from.mode, selectionId: from.selectionId, offer }, from.expiresAt);
}

/** What a proof says the band does to cash on delivery (null: nothing; a v1 proof, or `l`/`m`). */
export function proofOffer(proof: Pick<Proof, "band" | "deposit">): ProofOffer | null {
  if (proof.band === "h") return { action: "refuse", deposit: null };
  if (proof.band === "p" && proof.deposit != null && proof.deposit > 0) return { action: "price", deposit: proof.deposit };
  if (proof.band === "c") return { action: "confirm", deposit: null };
  return null;
}

const STRICTNESS: Record<BandAction, number> = { none: 0, confirm: 1, price: 2, refuse: 3 };

/** The stricter of two offers (refuse over price over confirm); of two prices, the larger deposit. */
export function stricterOffer(a: ProofOffer | null, b: ProofOffer | null): ProofOffer | null {
  if (!a || !b) return a ?? b;
  if (a.action === "price" && b.action === "price") return { action: "price", deposit: Math.max(a.deposit ?? 0, b.deposit ?? 0) };
  return STRICTNESS[a.action] >= STRICTNESS[b.action] ? a : b;
}

/** The v2 letter of an offer (or of a high band without one). */
function bandLetter(input: ProofInput): { band: ProofFields["band"]; deposit: number | null } {
  const offer = input.offer;
  if (!offer) return { band: input.band === "high" ? "h" : null, deposit: null };
  if (offer.action === "refuse") return { band: "h", deposit: null };
  if (offer.action === "price") return offer.deposit != null && offer.deposit > 0 ? { band: "p", deposit: offer.deposit } : { band: "h", deposit: null };
  return { band: offer.action === "confirm" ? "c" : null, deposit: null };
}

/** When the code behind a proof was confirmed: its expiry less the fixed lifetime. */
export function proofVerifiedAt(proof: Proof): Date {
  return new Date((proof.expiresAt - PROOF_TTL_SECONDS) * 1000);
}

function signProof(shopDomain: string, input: ProofInput, expiresAt: number) {
  const fields: ProofFields = {
    phoneDigits: input.phone.replace(/^\+/, ""),
    mode: input.mode,
    expiresAt,
    selectionId: input.selectionId,
    ...bandLetter(input),
    holdout: input.holdout === true,
    unverified: input.unverified === true,
  };
  const body = proofBody(fields);
  return { token: `${body}.${mac("proof", shopDomain, body)}`, expiresAt: new Date(fields.expiresAt * 1000) };
}

export type ProofCheck = { ok: true; proof: Proof } | { ok: false; reason: "malformed" | "bad_signature" | "expired" };

/** Checks a proof's signature and expiry at `at` (e.g. when the order was placed). */
export function checkProof(shopDomain: string, token: string | null | undefined, at: Date = clock.now()): ProofCheck {
  const parsed = parseProof(token);
  if (!parsed) return { ok: false, reason: "malformed" };
  if (!sameMac(parsed.signature, mac("proof", shopDomain, parsed.signed))) return { ok: false, reason: "bad_signature" };
  if (parsed.expiresAt * 1000 < at.getTime()) return { ok: false, reason: "expired" };
  const { signature: _s, signed: _b, ...fields } = parsed;
  return { ok: true, proof: { ...fields, phone: `+${fields.phoneDigits}` } };
}

/**
 * A remembered device: the browser that proved `phone` keeps this token for the shop's
 * returning-customer window, and only a request carrying it may skip the code.
 */
export function issueDeviceToken(shopDomain: string, phone: string, days: number, now: Date = clock.now()): string | null {
  if (days <= 0) return null;
  const exp = Math.floor(now.getTime() / 1000) + days * 86_400;
  const body = `d1.${exp}`;
  return `${body}.${mac("device", shopDomain, `${phone}\0${body}`)}`;
}

export function deviceTokenValid(shopDomain: string, phone: string, token: string | null | undefined, now: Date = clock.now()): boolean {
  if (!token || token.length > 100) return false;
  const m = /^(d1\.(\d{9,11}))\.([0-9a-f]{32})$/.exec(token);
  if (!m) return false;
  if (!sameMac(m[3], mac("device", shopDomain, `${phone}\0${m[1]}`))) return false;
  return Number(m[2]) * 1000 >= now.getTime();
}
