/**
 * The verification proof as it rides on a cart (attribute `_cod_proof`), shared by the function
 * (which reads it without checking the signature: docs/decisions/checkout-enforcement.md) and the app (which signs it
 * and re-checks it on the order). Kept free of Node APIs so it compiles into the function.
 *
 *   v1.<phone digits>.<mode>.<expiry, epoch seconds>.<selection id>.<signature>
 *   v2.<phone digits>.<mode>.<expiry, epoch seconds>.<selection id>.<risk band>.<signature>
 *   v3.<phone digits>.<mode>.<expiry, epoch seconds>.<selection id>.<signature>
 *   v4.<phone digits>.<mode>.<expiry, epoch seconds>.<selection id>.<signature>
 *
 * v2 carries what the shopper's risk band does to cash on delivery (app/risk/pricing.ts): `h` COD is
 * not offered (the band refuses), `p<deposit in hundredths>` COD only with that deposit paid first (the
 * band prices: plain COD is not offered either), `c` COD confirmed after purchase (the band confirms);
 * `l` and `m` are read as restricting nothing. The function hides cash on delivery for `h` and `p`
 * whatever the proof's mode; the app re-checks the deposit and opens the confirmation on the order. A
 * v1 proof restricts nothing (every proof before risk bands, and every shopper whose band does nothing).
 *
 * The signature is a truncated HMAC-SHA256 made by the app under its secret over the shop and the
 * other fields; only the app can make or check it.
 */
export const PROOF_ATTRIBUTE = "_cod_proof";
export const PROOF_VERSION = "v1";
export const PROOF_VERSION_WITH_BAND = "v2";
/**
 * v3: the shopper was held out of verification by the merchant's holdout experiment (app/experiment):
 * checkout lets them pay cash on delivery as if the app were off, and the order side knows not to ask.
 */
export const PROOF_VERSION_HOLDOUT = "v3";
/**
 * v4: the shop's daily cap of codes was spent and its fallback is cash on delivery confirmed after
 * purchase: checkout offers cash on delivery without a code, and the order side confirms it like any
 * unverified order (it proves nothing).
 */
export const PROOF_VERSION_UNVERIFIED = "v4";
/** The band letters a v2 proof may carry: `h` COD not offered, `p` priced (with `deposit`), `c` confirmed after purchase. */
export type ProofBand = "l" | "m" | "h" | "p" | "c";
/** The customer tag the app maintains on customers whose COD order was verified. */
export const VERIFIED_CUSTOMER_TAG = "cod-verified-customer";

export type ProofFields = { phoneDigits: string; mode: string; expiresAt: number; selectionId: string; band?: ProofBand | null; deposit?: number | null; holdout?: boolean; unverified?: boolean };
export type ParsedProof = ProofFields & { signature: string; signed: string };

/** The fields the signature covers, in the order they appear. */
export function proofBody(p: ProofFields): string {
  const base = `${p.phoneDigits}.${p.mode}.${p.expiresAt}.${p.selectionId}`;
  if (p.holdout) return `${PROOF_VERSION_HOLDOUT}.${base}`;
  if (p.unverified) return `${PROOF_VERSION_UNVERIFIED}.${base}`;
  if (!p.band) return `${PROOF_VERSION}.${base}`;
  return `${PROOF_VERSION_WITH_BAND}.${base}.${p.band === "p" ? `p${Math.round((p.deposit ?? 0) * 100)}` : p.band}`;
}

/** Splits a proof without checking its signature; null when it is not one. */
export function parseProof(value: string | null | undefined): ParsedProof | null {
  if (!value || value.length > 200) return null;
  const parts = value.split(".");
  const banded = parts.length === 7 && parts[0] === PROOF_VERSION_WITH_BAND;
  const holdout = parts.length === 6 && parts[0] === PROOF_VERSION_HOLDOUT;
  const unverified = parts.length === 6 && parts[0] === PROOF_VERSION_UNVERIFIED;
  if (!banded && !holdout && !unverified && (parts.length !== 6 || parts[0] !== PROOF_VERSION)) return null;
  const [, phoneDigits, mode, exp, selectionId] = parts;
  const signature = parts[parts.length - 1];
  const field = banded ? parts[5] : null;
  if (!/^\d{10,15}$/.test(phoneDigits) || !/^[a-z]{3,10}$/.test(mode) || !/^\d{9,11}$/.test(exp)) return null;
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(selectionId) || !/^[0-9a-f]{32}$/.test(signature)) return null;
  if (field !== null && field !== "l" && field !== "m" && field !== "h" && field !== "c" && !/^p[1-9]\d{0,11}$/.test(field)) return null;
  const band = field === null ? null : (field[0] as ProofBand);
  const deposit = band === "p" ? Number(field!.slice(1)) / 100 : null;
  return { phoneDigits, mode, expiresAt: Number(exp), selectionId, band, deposit, holdout, unverified, signature, signed: parts.slice(0, -1).join(".") };
}

/** Whether a proof takes plain cash on delivery away: its band refuses it (`h`) or prices it (`p`: a deposit first). */
export function proofRefusesCod(proof: Pick<ProofFields, "band">): boolean {
  return proof.band === "h" || proof.band === "p";
}

/**
 * Whether a phone typed at checkout is the proof's number. Checkout phones come as typed: "+212 600-000002",
 * "00212600000002", or national ("0600000002") with the country implied by the address. International
 * forms must match exactly; a national form must be the end of the proof's number (its trunk 0 dropped)
 * with at least 7 digits. The app re-checks the order's phones exactly (E.164) on orders/create.
 */
export function phoneMatchesProof(phoneDigits: string, typed: string | null | undefined): boolean {
  if (!typed) return false;
  const trimmed = typed.trim();
  let digits = "";
  for (const c of trimmed) if (c >= "0" && c <= "9") digits += c;
  if (!digits) return false;
  if (trimmed.startsWith("+")) return digits === phoneDigits;
  if (digits.startsWith("00")) return digits.slice(2) === phoneDigits;
  if (digits === phoneDigits) return true;
  const national = digits.replace(/^0+/, "");
  return national.length >= 7 && phoneDigits.endsWith(national);
}
