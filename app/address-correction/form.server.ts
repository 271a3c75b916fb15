import { z } from "zod";
import { ADDRESS_FIELDS, EMPTY_ADDRESS, FORM_COUNTRIES, provinceListFor, resolveProvince, validateAddress, type Address, type AddressField, type FieldProblem } from "~/core/places/address";
import { ALL_COUNTRIES } from "~/core/places/regions";
import { shopShipsToCountries } from "./shopify-orders.server";
import { findCorrectionByToken, formNonceIsValid, issueFormNonce, savedAddressOf, snapshotOf, stateOf, submitAddressCorrection, type Correction } from "./address-correction.server";
import { TEXTS } from "./i18n";
import type { CorrectionView } from "./page";
import type { Shop } from "~/core/settings/shop.server";
import type { PageShell, PostedForm } from "~/shared/hosted-page";
import { pickLocale } from "~/shared/locales";
import { pinAckOf, pinHintOf, readLocation } from "./location.server";

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

/**
 * The countries the form offers: every one the shop ships to (`shop.shipsToCountries`; its "rest of the
 * world" means all), and the order's own country. When Shopify does not answer, the countries with
 * postal rules of their own (address.ts) stand in, and the order's country.
 */
export async function offeredCountries(shop: Shop, correction: Correction): Promise<string[]> {
  const own = snapshotOf(correction)?.countryCode;
  const known = await shopShipsToCountries(shop.domain);
  const shipsTo = !known.ok ? FORM_COUNTRIES : known.countries.includes("ZZ") ? ALL_COUNTRIES : known.countries.filter((c) => /^[A-Z]{2}$/.test(c));
  return [...new Set([...shipsTo, ...(own && /^[A-Z]{2}$/.test(own) ? [own] : [])])];
}

/** The form as it opens: the order's address as it was when the link was sent, and a fresh nonce. */
export function openedForm(correction: Correction, countries: readonly string[]) {
  const values = { ...EMPTY_ADDRESS, ...snapshotOf(correction) };
  return { orderName: correction.orderName ?? "", values, errors: {}, nonce: issueFormNonce(correction), countries, pinHint: pinHintOf(values) };
}

/** The posted country, read at the door: one the form offered (the province is checked against its list by validateAddress). */
function postedPlace(typed: Address, countries: readonly string[]): FormErrors {
  const place = z.object({ countryCode: z.string().refine((c) => countries.includes(c.trim().toUpperCase())) });
  const read = place.safeParse(typed);
  if (!read.success || !typed.countryCode.trim()) return { countryCode: typed.countryCode.trim() ? "invalid_country" : "required" };
  return {};
}

/** The form shown again for another country: the typed values kept, a province that is not of it dropped. */
function forCountry(typed: Address): Address {
  const country = typed.countryCode.trim().toUpperCase();
  const province = resolveProvince(country, typed.province);
  return { ...typed, countryCode: country, province: province ?? "" };
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
export async function submitCorrectionForm(shop: Shop, correction: Correction, typed: Address, countries: readonly string[], digipin: string | null = null): Promise<FormOutcome> {
  const refused = postedPlace(typed, countries);
  const valid = validateAddress(typed);
  if (!valid.ok || refused.countryCode) {
    return { kind: "invalid", errors: { ...(valid.ok ? {} : valid.errors), ...refused }, zipExample: valid.ok ? undefined : valid.zipExample };
  }
  const outcome = await submitAddressCorrection(shop, correction, valid.address, valid.address.countryCode === "IN" ? digipin : null);
  if (outcome.kind !== "field_errors") return outcome;
  const errors: FormErrors = {};
  for (const e of outcome.errors) {
    const f = SHOPIFY_FIELD[e.field?.[e.field.length - 1] ?? ""] ?? "address1";
    errors[f] ??= "rejected";
  }
  return { kind: "invalid", errors };
}

/**
 * GET and POST /ac/:token as the shopper meets them: the page to show, in the shopper's language, and
 * the outcome it stands for (app/http/outcomes.server.ts gives each its status).
 */
export type CorrectionPage = {
  outcome: "page" | "invalid" | "unavailable" | "not_editable" | "gone" | "not_found" | "forged" | "bad_form" | "form_too_large";
  shell: PageShell;
  view: CorrectionView;
};

type Opened = { ok: true; shell: PageShell; correction: Correction } | { ok: false; page: CorrectionPage };

async function openCorrection(shop: Shop, token: string | undefined, queryLocale: string | null): Promise<Opened> {
  const correction = token ? await findCorrectionByToken(shop, token) : null;
  const shell: PageShell = { locale: pickLocale(queryLocale, correction?.locale, shop.locale), shopName: shop.name ?? shop.domain };
  if (!correction) return { ok: false, page: { outcome: "not_found", shell, view: { kind: "message", message: "notFound" } } };
  const state = stateOf(correction);
  if (state === "expired") return { ok: false, page: { outcome: "gone", shell, view: { kind: "message", message: "expired" } } };
  if (state !== "pending") {
    // The link's own holder comes back: the address it saved, not only "already used".
    const used = { kind: "message" as const, message: "used" as const, orderName: correction.orderName ?? undefined, address: savedAddressOf(correction) ?? undefined };
    return { ok: false, page: { outcome: "gone", shell, view: used } };
  }
  return { ok: true, shell, correction };
}

/** GET: the form, prefilled with the order's address as it was when the link was sent. */
export async function showCorrectionPage(shop: Shop, token: string | undefined, queryLocale: string | null): Promise<CorrectionPage> {
  const opened = await openCorrection(shop, token, queryLocale);
  if (!opened.ok) return opened.page;
  const countries = await offeredCountries(shop, opened.correction);
  return { outcome: "page", shell: opened.shell, view: { kind: "form", state: openedForm(opened.correction, countries) } };
}

/** POST: the page's nonce checked, then the typed address applied (or the form again with what was wrong). */
export async function submitCorrectionPage(shop: Shop, token: string | undefined, queryLocale: string | null, posted: PostedForm): Promise<CorrectionPage> {
  const opened = await openCorrection(shop, token, queryLocale);
  if (!opened.ok) return opened.page;
  const { shell, correction } = opened;
  const message = (outcome: CorrectionPage["outcome"], view: Omit<Extract<CorrectionView, { kind: "message" }>, "kind">): CorrectionPage => ({
    outcome,
    shell,
    view: { kind: "message", ...view },
  });
  if (!posted.ok) return message(posted.refused, { message: "forbidden" });
  if (!formNonceIsValid(correction, posted.fields.get("nonce"))) return message("forged", { message: "forbidden" });

  const typed = typedAddress(posted.fields);
  const countries = await offeredCountries(shop, correction);
  const orderName = correction.orderName ?? "";
  const again = (outcome: CorrectionPage["outcome"], errors: FormErrors, zipExample?: string, alert?: string, values = typed, focus?: AddressField): CorrectionPage => ({
    outcome,
    shell,
    view: { kind: "form", state: { orderName, values, errors, zipExample, nonce: issueFormNonce(correction), alert, countries, focus } },
  });
  // India: where the shopper stands, as a DIGIPIN (the position itself goes no further), and the PIN code's places.
  const india = typed.countryCode.trim().toUpperCase() === "IN";
  const location = india ? readLocation(posted.fields, typed.zip.trim()) : { digipin: null, typed: "", note: null };
  const pinHint = india ? pinHintOf({ ...typed, countryCode: "IN" }) : null;
  const withPlace = (page: CorrectionPage, pinAck?: string): CorrectionPage =>
    page.view.kind === "form" ? { ...page, view: { kind: "form", state: { ...page.view.state, digipin: location.typed, locationNote: location.note, pinHint, pinAck } } } : page;
  // "Show this country's provinces": the form again for the chosen country, focus where the shopper goes on, nothing sent to
  // Shopify. (Enter in a field is this button too, the form's first: a DIGIPIN typed is kept.)
  if (posted.fields.get("intent") === "country") {
    const refused = postedPlace(typed, countries);
    const values = forCountry(typed);
    return withPlace(again(refused.countryCode ? "invalid" : "page", refused, undefined, undefined, values, provinceListFor(values.countryCode) ? "province" : "address1"));
  }
  if (posted.fields.get("intent") === "locate") return withPlace(again(location.note?.kind === "outside" ? "invalid" : "page", {}));
  if (location.note?.kind === "invalid" || location.note?.kind === "outside") return withPlace(again("invalid", {}));
  // A PIN code that does not match the state or city typed (or that India Post does not list) is shown
  // once; the shopper who saves the same values again is taken at their word.
  const ack = pinAckOf(typed);
  if (pinHint && pinHint.kind !== "places" && posted.fields.get("pinAck") !== ack) return withPlace(again("invalid", {}, undefined, undefined, typed, "zip"), ack);
  const outcome = await submitCorrectionForm(shop, correction, typed, countries, location.digipin);
  switch (outcome.kind) {
    case "invalid":
      return withPlace(again("invalid", outcome.errors, outcome.zipExample));
    case "done":
      return message("page", { message: "done", orderName, address: outcome.address });
    case "not_editable":
      return message("not_editable", { message: "notEditable", orderName, address: outcome.address });
    case "gone":
      return message("gone", { message: outcome.state === "expired" ? "expired" : "used" });
    case "unavailable": {
      const t = TEXTS[shell.locale];
      return withPlace(again("unavailable", {}, undefined, `${t.unavailableTitle}. ${t.unavailableBody}`));
    }
  }
}
