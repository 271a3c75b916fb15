import { ADDRESS_FIELDS, EMPTY_ADDRESS, validateAddress, type Address, type AddressField, type FieldProblem } from "./address";
import { issueFormNonce, snapshotOf, submitAddressCorrection, type Correction } from "./address-correction.server";
import type { Shop } from "~/settings/shop.server";

/** What the hosted form shows (app/address-correction/page.tsx renders it). */
export type FormErrors = Partial<Record<AddressField, FieldProblem>>;

export type FormOutcome =
  | { kind: "invalid"; errors: FormErrors; zipExample?: string }
  | { kind: "done"; address: Address }
  | { kind: "not_editable"; address: Address }
  | { kind: "gone"; state: "completed" | "expired" }
  | { kind: "unavailable" };

/** Shopify's field names in orderUpdate's user errors, as the form's fields. */
const SHOPIFY_FIELD: Record<string, AddressField> = {
  firstName: "firstName",
  lastName: "lastName",
  phone: "phone",
  address1: "address1",
  address2: "address2",
  city: "city",
  provinceCode: "province",
  province: "province",
  zip: "zip",
  countryCode: "countryCode",
  country: "countryCode",
};

/** The form as it opens: the order's address as it was when the link was sent, and a fresh nonce. */
export function openedForm(correction: Correction) {
  return { orderName: correction.orderName ?? "", values: { ...EMPTY_ADDRESS, ...snapshotOf(correction) }, errors: {}, nonce: issueFormNonce(correction) };
}

/** The posted fields as typed, each cut at 200 characters (the form is shown again with them). */
export function typedAddress(form: URLSearchParams): Address {
  const typed = { ...EMPTY_ADDRESS };
  for (const f of ADDRESS_FIELDS) typed[f] = (form.get(f) ?? "").slice(0, 200);
  return typed;
}

/**
 * POST /ac/:token's work: the typed address is checked (required fields, lengths, the country's postal
 * code), then applied to the order; a field Shopify refuses comes back as that field's error.
 */
export async function submitCorrectionForm(shop: Shop, correction: Correction, typed: Address): Promise<FormOutcome> {
  const valid = validateAddress(typed);
  if (!valid.ok) return { kind: "invalid", errors: valid.errors, zipExample: valid.zipExample };
  const outcome = await submitAddressCorrection(shop, correction, valid.address);
  if (outcome.kind !== "field_errors") return outcome;
  const errors: FormErrors = {};
  for (const e of outcome.errors) {
    const f = SHOPIFY_FIELD[e.field?.[e.field.length - 1] ?? ""] ?? "address1";
    errors[f] ??= "rejected";
  }
  return { kind: "invalid", errors };
}
