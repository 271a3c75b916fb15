import type { ReactNode } from "react";
import { Alert, Filled, renderHostedPage, renderMessagePage, type PageShell } from "~/shared/hosted-page";
import { fill, type Locale } from "~/shared/locales";
import { getExampleNumber, type CountryCode } from "libphonenumber-js/max";
import mobileExamples from "libphonenumber-js/mobile/examples";
import {
  ADDRESS_FIELDS,
  COUNTRY_RULES,
  provinceListFor,
  townLine,
  type Address,
  type AddressField,
  type FieldProblem,
} from "~/core/places/address";
import { fieldLabel, TEXTS } from "./i18n";
import { localizedProvinces, provinceName } from "~/core/places/province-names";
import { LOCATION_CSS, LocationField, type LocationNote } from "~/shared/location-field";
import { LOCATION_TEXTS } from "~/shared/location-texts";
import type { PinHint } from "./location.server";

/** The hosted correction pages, in the shell every hosted page shares (app/shared/hosted-page.tsx). */

/** The form's own rules, beside the shell's. */
const CSS = `.opt{font-weight:400;color:#666}.err{display:block;color:#a21c00;font-weight:600;margin:.25rem 0 0}
.row{display:flex;gap:.75rem}.row>.field{flex:1;min-width:0}
.summary ul{margin:.25rem 0 0;padding-inline-start:1.25rem}.summary a{color:#a21c00}
.addr{white-space:pre-line;unicode-bidi:plaintext;background:#f6f6f7;border-radius:8px;padding:.75rem 1rem;margin:0}
.secondary{background:#fff;color:#1a1a1a;border:1px solid #8a8a8a;margin-top:.5rem}
@media (max-width:360px){.row{display:block}}
${LOCATION_CSS}`;

export type { PageShell };

function render(shell: PageShell, title: string, body: ReactNode): string {
  return renderHostedPage(shell, title, body, CSS);
}

export type FormState = {
  orderName: string;
  values: Address;
  errors: Partial<Record<AddressField, FieldProblem>>;
  zipExample?: string;
  nonce: string;
  /** The countries offered: those the shop ships to (and the order's own). */
  countries: readonly string[];
  /** The field to focus when none is invalid (after another country was chosen: its provinces). */
  focus?: AddressField;
  /** A sentence shown above the form (e.g. Shopify did not answer; the typed values are kept). */
  alert?: string;
  /** India: the DIGIPIN as typed or found from the phone's location, and what was found about it. */
  digipin?: string;
  locationNote?: LocationNote | null;
  /** India: the PIN code's places, or that it does not match the address; `pinAck` confirms the address as it is. */
  pinHint?: PinHint | null;
  pinAck?: string;
};

const OPTIONAL: ReadonlySet<AddressField> = new Set(["address2"]);
const AUTOCOMPLETE: Record<AddressField, string> = {
  firstName: "given-name",
  lastName: "family-name",
  phone: "tel",
  address1: "address-line1",
  address2: "address-line2",
  city: "address-level2",
  province: "address-level1",
  zip: "postal-code",
  countryCode: "country",
};

/** Country codes and names sorted in a language, computed once per language (Intl is costly per request). */
const countryNames = new Map<string, [string, string][]>();

function sortedCountries(locale: Locale, offered: readonly string[], extra: string | null): [string, string][] {
  const key = `${locale}:${extra ?? ""}:${offered.join(",")}`;
  let entries = countryNames.get(key);
  if (!entries) {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([locale, "en"], { type: "region" });
    } catch {
      names = null;
    }
    const codes = new Set(offered);
    if (extra) codes.add(extra);
    const collator = new Intl.Collator(locale);
    entries = [...codes].map((code): [string, string] => [code, names?.of(code) ?? code]);
    entries.sort((a, b) => collator.compare(a[1], b[1]));
    if (countryNames.size < 500) countryNames.set(key, entries);
  }
  return entries;
}

function CountryOptions({ locale, selected, offered }: { locale: Locale; selected: string; offered: readonly string[] }) {
  const known = offered.includes(selected);
  const entries = sortedCountries(locale, offered, !known && /^[A-Z]{2}$/.test(selected) ? selected : null);
  return (
    <>
      {known || /^[A-Z]{2}$/.test(selected) ? null : <option value="" />}
      {entries.map(([code, name]) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </>
  );
}

/**
 * A mobile number of the address's country as it is written internationally ("+91 81234 56789" for India),
 * for the phone field's hint: an Indian order's form never shows a UAE number. India's where the country has none.
 */
export function phoneExample(countryCode: string): string {
  const of = (code: string) => {
    try {
      return getExampleNumber(code as CountryCode, mobileExamples)?.formatInternational() ?? null;
    } catch {
      return null;
    }
  };
  return (/^[A-Z]{2}$/.test(countryCode) ? of(countryCode) : null) ?? of("IN")!;
}

/** A problem's sentence, its example (a phone number) in the address's country. */
function problemText(shell: PageShell, problem: FieldProblem, countryCode: string): string {
  return fill(TEXTS[shell.locale].problems[problem], { example: phoneExample(countryCode) });
}

function Field({ f, shell, state, first, zipExample }: { f: AddressField; shell: PageShell; state: FormState; first: AddressField | undefined; zipExample: string | undefined }) {
  const t = TEXTS[shell.locale];
  const problem = state.errors[f];
  const describedBy: string[] = [];
  let hint: ReactNode = null;
  if (f === "phone") {
    hint = <span className="hint" id={`${f}-hint`}>{fill(t.hintPhone, { example: phoneExample(state.values.countryCode) })}</span>;
    describedBy.push(`${f}-hint`);
  }
  if (f === "zip" && zipExample) {
    hint = <span className="hint" id={`${f}-hint`}>{fill(t.hintZip, { example: zipExample })}</span>;
    describedBy.push(`${f}-hint`);
  }
  const pin = f === "zip" ? state.pinHint : null;
  if (pin) describedBy.push("pin-hint");
  if (problem) describedBy.push(`${f}-error`);
  const attrs = {
    id: f,
    name: f,
    autoComplete: AUTOCOMPLETE[f],
    required: !OPTIONAL.has(f),
    "aria-invalid": problem ? true : undefined,
    "aria-describedby": describedBy.length ? describedBy.join(" ") : undefined,
    autoFocus: f === first,
  };
  return (
    <div className="field">
      <label htmlFor={f}>
        {fieldLabel(t, f, state.values.countryCode)}
        {OPTIONAL.has(f) ? (
          <>
            {" "}
            <span className="opt">({t.optional})</span>
          </>
        ) : null}
      </label>
      {hint}
      {f === "countryCode" ? (
        <select {...attrs} defaultValue={state.values.countryCode}>
          <CountryOptions locale={shell.locale} selected={state.values.countryCode} offered={state.countries} />
        </select>
      ) : f === "province" ? (
        <ProvinceSelect attrs={attrs} state={state} choose={t.choose} locale={shell.locale} />
      ) : (
        <input
          {...attrs}
          type={f === "phone" ? "tel" : "text"}
          dir={f === "phone" || f === "zip" ? "ltr" : undefined}
          inputMode={f === "phone" ? "tel" : undefined}
          defaultValue={state.values[f]}
          list={f === "city" && state.pinHint?.cities.length ? "pin-cities" : undefined}
        />
      )}
      {problem ? <span className="err" id={`${f}-error`}>{problemText(shell, problem, state.values.countryCode)}</span> : null}
      {pin ? <PinHintLine locale={shell.locale} hint={pin} /> : null}
      {f === "city" && state.pinHint?.cities.length ? (
        <datalist id="pin-cities">
          {state.pinHint.cities.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
      ) : null}
      {f === "countryCode" ? (
        // No script runs on the page: this shows the chosen country's provinces without sending the address.
        <button type="submit" name="intent" value="country" formNoValidate className="secondary">
          {t.updateCountry}
        </button>
      ) : null}
    </div>
  );
}

/** Under the PIN code: the places it belongs to, or (a warning) that it does not match the address. */
function PinHintLine({ locale, hint }: { locale: Locale; hint: PinHint }) {
  const t = LOCATION_TEXTS[locale];
  const template = hint.kind === "places" ? t.pinPlaces : hint.kind === "mismatch" ? t.pinMismatch : t.pinUnknown;
  return (
    <span className={hint.kind === "places" ? "hint" : "err"} id="pin-hint">
      <Filled template={template} values={{ pin: hint.pin, places: hint.places }} />
    </span>
  );
}

/**
 * The country's provinces by name in the page's language where the app has it (India's in Hindi and Arabic),
 * sorted in that language, the current one chosen (a typed name is matched to its code, in English or the page's language).
 */
function ProvinceSelect({ attrs, state, choose, locale }: { attrs: Record<string, unknown>; state: FormState; choose: string; locale: Locale }) {
  const english = provinceListFor(state.values.countryCode) ?? {};
  const list = localizedProvinces(state.values.countryCode, locale) ?? {};
  const typed = state.values.province.trim();
  const fold = (v: string) => v.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]/g, "");
  const named = (names: Record<string, string>) => Object.entries(names).find(([, name]) => name === typed || (fold(name) !== "" && fold(name) === fold(typed)))?.[0];
  const selected = list[typed.toUpperCase()] ? typed.toUpperCase() : (named(english) ?? named(list) ?? "");
  const collator = new Intl.Collator(locale);
  return (
    <select {...attrs} defaultValue={selected}>
      <option value="">{choose}</option>
      {Object.entries(list)
        .sort((a, b) => collator.compare(a[1], b[1]))
        .map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
    </select>
  );
}

/** The correction form, prefilled with `values`; with `errors`, each message is tied to its field and the first invalid field takes focus. */
export function renderForm(shell: PageShell, state: FormState): string {
  const t = TEXTS[shell.locale];
  const invalid = ADDRESS_FIELDS.filter((f) => state.errors[f]);
  const props = { shell, state, first: invalid[0] ?? state.focus, zipExample: state.zipExample ?? COUNTRY_RULES[state.values.countryCode]?.zipExample };
  return render(
    shell,
    t.title,
    <>
      <h1>{t.title}</h1>
      <p>
        <Filled template={t.intro} values={{ order: state.orderName }} />
      </p>
      <Alert text={state.alert} />
      {invalid.length ? (
        <div className="summary" role="alert">
          <strong>{t.errorSummary}</strong>
          <ul>
            {invalid.map((f) => (
              <li key={f}>
                <a href={`#${f}`}>{`${fieldLabel(t, f, state.values.countryCode)}: ${problemText(shell, state.errors[f]!, state.values.countryCode)}`}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <form method="post" className="card" noValidate>
        <input type="hidden" name="nonce" value={state.nonce} />
        <div className="row">
          <Field f="firstName" {...props} />
          <Field f="lastName" {...props} />
        </div>
        <Field f="phone" {...props} />
        <Field f="countryCode" {...props} />
        <Field f="address1" {...props} />
        <Field f="address2" {...props} />
        <Field f="city" {...props} />
        {provinceListFor(state.values.countryCode) ? (
          <div className="row">
            <Field f="province" {...props} />
            <Field f="zip" {...props} />
          </div>
        ) : (
          <Field f="zip" {...props} />
        )}
        {state.values.countryCode === "IN" ? (
          <LocationField locale={shell.locale} digipin={state.digipin ?? ""} note={state.locationNote ?? null} autoFocus={!invalid.length && state.focus === undefined && Boolean(state.locationNote)} />
        ) : null}
        {state.pinAck ? <input type="hidden" name="pinAck" value={state.pinAck} /> : null}
        <button type="submit" name="intent" value="save">
          {t.submit}
        </button>
      </form>
    </>,
  );
}

/** The address as the shopper reads it: the town line in its country's order, state and country by name in the page's language where known. */
function displayAddress(a: Address, locale: Locale): string {
  let country = a.countryCode;
  try {
    country = new Intl.DisplayNames([locale, "en"], { type: "region" }).of(a.countryCode) ?? a.countryCode;
  } catch {
    /* an unknown code stays as it is */
  }
  const province = a.province ? provinceName(a.countryCode, a.province, locale) : "";
  return [
    `${a.firstName} ${a.lastName}`.trim(),
    a.address1,
    a.address2,
    townLine(a),
    // Arabic separates with its own comma.
    [province, country].filter(Boolean).join(locale === "ar" ? "، " : ", "),
    a.phone,
  ]
    .filter(Boolean)
    .join("\n");
}

export type MessageKind = "done" | "used" | "expired" | "notFound" | "notEditable" | "forbidden" | "unavailable";

/** A page with a heading and a sentence (and the address, on the confirmation and not-editable pages). */
export function renderMessage(shell: PageShell, kind: MessageKind, extra: { orderName?: string; address?: Address } = {}): string {
  const t = TEXTS[shell.locale];
  const after = extra.address ? <p className="addr">{displayAddress(extra.address, shell.locale)}</p> : null;
  const backToStore = fill(t.backToStore, { shop: shell.shopName });
  return renderMessagePage(shell, { title: t[`${kind}Title`], body: t[`${kind}Body`], orderName: extra.orderName ?? "", success: kind === "done", after, backToStore }, CSS);
}

/** What the hosted correction page shows: the form, or a message (app/address-correction/form.server.ts decides which). */
export type CorrectionView =
  | { kind: "form"; state: FormState }
  | { kind: "message"; message: MessageKind; orderName?: string; address?: Address };

export function renderCorrectionPage(shell: PageShell, view: CorrectionView): string {
  return view.kind === "form" ? renderForm(shell, view.state) : renderMessage(shell, view.message, view);
}
