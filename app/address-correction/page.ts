import {
  ADDRESS_FIELDS,
  COUNTRY_RULES,
  FORM_COUNTRIES,
  provinceListFor,
  type Address,
  type AddressField,
  type FieldProblem,
} from "./address";
import { directionOf, type Locale } from "~/shared/locales";
import { fill, TEXTS } from "./i18n";

/**
 * The hosted correction pages as plain, self-contained HTML: inline CSS, no script, no external
 * font or image, so the page is small (a few KiB) and works on any phone. Every value is escaped.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** Fills a template as HTML: the text escaped, each value escaped and isolated (`<bdi>`), so "#1001" stays whole in right-to-left text. */
function fillHtml(template: string, values: Record<string, string>): string {
  return template
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      return m && m[1] in values ? `<bdi>${escapeHtml(values[m[1]])}</bdi>` : escapeHtml(part);
    })
    .join("");
}

const CSS = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1a1a1a;background:#f6f6f7}
main{max-width:34rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem;line-height:1.25;margin:.5rem 0 .75rem}
p{margin:.5rem 0 1rem}.shop{color:#555;font-size:.9rem;margin:0}
.card{background:#fff;border-radius:12px;padding:1rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.field{margin:0 0 1rem}label{display:block;font-weight:600;margin:0 0 .25rem}
.opt{font-weight:400;color:#666}.hint{display:block;color:#555;font-size:.875rem;margin:0 0 .25rem}
input,select{width:100%;font:inherit;padding:.7rem .75rem;border:1px solid #8a8a8a;border-radius:8px;background:#fff;color:inherit;min-height:48px}
input:focus,select:focus{outline:3px solid #005bd3;outline-offset:1px}
[aria-invalid=true]{border:2px solid #c5280c}.err{display:block;color:#a21c00;font-weight:600;margin:.25rem 0 0}
.row{display:flex;gap:.75rem}.row>.field{flex:1;min-width:0}
.summary{border:2px solid #c5280c;border-radius:8px;padding:.75rem 1rem;background:#fff4f2;margin:0 0 1rem}
.summary ul{margin:.25rem 0 0;padding-inline-start:1.25rem}.summary a{color:#a21c00}
button{width:100%;font:inherit;font-weight:600;padding:.85rem;border:0;border-radius:8px;background:#1a1a1a;color:#fff;min-height:48px;cursor:pointer}
button:focus{outline:3px solid #005bd3;outline-offset:2px}
.addr{white-space:pre-line;unicode-bidi:plaintext;background:#f6f6f7;border-radius:8px;padding:.75rem 1rem;margin:0}
@media (max-width:360px){.row{display:block}}`;

export type PageShell = { locale: Locale; shopName: string };

function layout(shell: PageShell, title: string, body: string): string {
  const dir = directionOf(shell.locale);
  return `<!doctype html>
<html lang="${shell.locale}" dir="${dir}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow">
<title>${escapeHtml(title)} · ${escapeHtml(shell.shopName)}</title>
<style>${CSS}</style></head>
<body><main>
<p class="shop">${escapeHtml(shell.shopName)}</p>
${body}
</main></body></html>`;
}

export type FormState = {
  orderName: string;
  values: Address;
  errors: Partial<Record<AddressField, FieldProblem>>;
  zipExample?: string;
  nonce: string;
  /** A sentence shown above the form (e.g. Shopify did not answer; the typed values are kept). */
  alert?: string;
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

function sortedCountries(locale: Locale, extra: string | null): [string, string][] {
  const key = `${locale}:${extra ?? ""}`;
  let entries = countryNames.get(key);
  if (!entries) {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([locale, "en"], { type: "region" });
    } catch {
      names = null;
    }
    const codes = new Set(FORM_COUNTRIES);
    if (extra) codes.add(extra);
    const collator = new Intl.Collator(locale);
    entries = [...codes].map((code): [string, string] => [code, names?.of(code) ?? code]);
    entries.sort((a, b) => collator.compare(a[1], b[1]));
    if (countryNames.size < 500) countryNames.set(key, entries);
  }
  return entries;
}

function countryOptions(locale: Locale, selected: string): string {
  const known = FORM_COUNTRIES.includes(selected);
  const entries = sortedCountries(locale, !known && /^[A-Z]{2}$/.test(selected) ? selected : null);
  const none = known || /^[A-Z]{2}$/.test(selected) ? "" : `<option value=""></option>`;
  return (
    none +
    entries
      .map(([code, name]) => `<option value="${code}"${code === selected ? " selected" : ""}>${escapeHtml(name)}</option>`)
      .join("")
  );
}

/** The correction form, prefilled with `values`; with `errors`, each message is tied to its field and the first invalid field takes focus. */
export function renderForm(shell: PageShell, state: FormState): string {
  const t = TEXTS[shell.locale];
  const invalid = ADDRESS_FIELDS.filter((f) => state.errors[f]);
  const first = invalid[0];
  const zipExample = state.zipExample ?? COUNTRY_RULES[state.values.countryCode]?.zipExample;

  const field = (f: AddressField) => {
    const problem = state.errors[f];
    const describedBy: string[] = [];
    let hint = "";
    if (f === "phone") {
      hint = `<span class="hint" id="${f}-hint">${escapeHtml(t.hintPhone)}</span>`;
      describedBy.push(`${f}-hint`);
    }
    if (f === "zip" && zipExample) {
      hint = `<span class="hint" id="${f}-hint">${escapeHtml(fill(t.hintZip, { example: zipExample }))}</span>`;
      describedBy.push(`${f}-hint`);
    }
    const error = problem ? `<span class="err" id="${f}-error">${escapeHtml(t.problems[problem])}</span>` : "";
    if (problem) describedBy.push(`${f}-error`);
    const attrs = [
      `id="${f}"`,
      `name="${f}"`,
      `autocomplete="${AUTOCOMPLETE[f]}"`,
      OPTIONAL.has(f) ? "" : "required",
      problem ? `aria-invalid="true"` : "",
      describedBy.length ? `aria-describedby="${describedBy.join(" ")}"` : "",
      f === first ? "autofocus" : "",
    ]
      .filter(Boolean)
      .join(" ");
    const label = `<label for="${f}">${escapeHtml(t.labels[f])}${OPTIONAL.has(f) ? ` <span class="opt">(${escapeHtml(t.optional)})</span>` : ""}</label>`;
    const control =
      f === "countryCode"
        ? `<select ${attrs}>${countryOptions(shell.locale, state.values.countryCode)}</select>`
        : `<input ${attrs} type="${f === "phone" ? "tel" : "text"}"${f === "phone" ? ` dir="ltr" inputmode="tel"` : ""}${f === "zip" ? ` dir="ltr"` : ""} value="${escapeHtml(state.values[f])}">`;
    return `<div class="field">${label}${hint}${control}${error}</div>`;
  };

  const summary = invalid.length
    ? `<div class="summary" role="alert"><strong>${escapeHtml(t.errorSummary)}</strong><ul>${invalid
        .map((f) => `<li><a href="#${f}">${escapeHtml(t.labels[f])}: ${escapeHtml(t.problems[state.errors[f]!])}</a></li>`)
        .join("")}</ul></div>`
    : "";

  const alert = state.alert ? `<div class="summary" role="alert"><strong>${escapeHtml(state.alert)}</strong></div>` : "";
  const body = `<h1>${escapeHtml(t.title)}</h1>
<p>${fillHtml(t.intro, { order: state.orderName })}</p>
${alert}${summary}<form method="post" class="card" novalidate>
<input type="hidden" name="nonce" value="${escapeHtml(state.nonce)}">
<div class="row">${field("firstName")}${field("lastName")}</div>
${field("phone")}${field("address1")}${field("address2")}${field("city")}
<div class="row">${field("province")}${field("zip")}</div>
${field("countryCode")}
<button type="submit">${escapeHtml(t.submit)}</button>
</form>`;
  return layout(shell, t.title, body);
}

/** The address as the shopper reads it: state and country by name, in the page's language where known. */
function displayAddress(a: Address, locale: Locale): string {
  let country = a.countryCode;
  try {
    country = new Intl.DisplayNames([locale, "en"], { type: "region" }).of(a.countryCode) ?? a.countryCode;
  } catch {
    /* an unknown code stays as it is */
  }
  const province = provinceListFor(a.countryCode)?.[a.province] ?? a.province;
  return [
    `${a.firstName} ${a.lastName}`.trim(),
    a.address1,
    a.address2,
    [a.zip, a.city].filter(Boolean).join(" "),
    [province, country].filter(Boolean).join(", "),
    a.phone,
  ]
    .filter(Boolean)
    .join("\n");
}

export type MessageKind = "done" | "used" | "expired" | "notFound" | "notEditable" | "forbidden" | "unavailable";

/** A page with a heading and a sentence (and the address, on the confirmation and not-editable pages). */
export function renderMessage(shell: PageShell, kind: MessageKind, extra: { orderName?: string; address?: Address } = {}): string {
  const t = TEXTS[shell.locale];
  const title = t[`${kind}Title`];
  const text = fillHtml(t[`${kind}Body`], { order: extra.orderName ?? "" });
  const address = extra.address ? `<p class="addr">${escapeHtml(displayAddress(extra.address, shell.locale))}</p>` : "";
  const role = kind === "done" ? "status" : "alert";
  return layout(shell, title, `<div class="card" role="${role}"><h1>${escapeHtml(title)}</h1><p>${text}</p>${address}</div>`);
}
