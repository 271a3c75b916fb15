import { Filled } from "./hosted-page";
import type { Locale } from "./locales";
import { LOCATION_SCRIPT } from "./location-script";
import { LOCATION_TEXTS } from "./location-texts";

/**
 * "Where you are" on a hosted page: why the page asks, a "use my location" button (shown only where
 * the browser can tell; it asks on the tap), a status line, and the DIGIPIN as typed or as found.
 * Rendered inside the page's own form, so the DIGIPIN goes with what the form sends.
 */
export type LocationNote =
  | { kind: "found" | "far" | "foundNoPin"; digipin: string; district?: string; km?: number }
  | { kind: "invalid" | "outside" };

export const LOCATION_CSS = `.loc{border:1px solid #8a8a8a;border-radius:8px;padding:.75rem;margin:0 0 1rem}.loc legend{font-weight:600;padding:0 .25rem}
.loc .status{font-weight:600;margin:.5rem 0}.loc bdi{white-space:nowrap}.loc .warn{color:#8a4b00}.loc .err{display:block;color:#a21c00;font-weight:600;margin:.25rem 0 0}`;

export function LocationField({ locale, digipin, note, autoFocus, sent }: { locale: Locale; digipin: string; note: LocationNote | null; autoFocus?: boolean; sent?: boolean }) {
  const t = LOCATION_TEXTS[locale];
  const problem = note?.kind === "invalid" ? t.invalidDigipin : note?.kind === "outside" ? t.outsideIndia : null;
  const found = note && "digipin" in note ? note : null;
  const values: Record<string, string> = found ? { digipin: found.digipin, district: found.district ?? "", km: String(found.km ?? "") } : {};
  const describedBy = ["loc-why", "digipin-hint", problem ? "digipin-error" : ""].filter(Boolean).join(" ");
  return (
    <fieldset className="loc">
      <legend>{t.legend}</legend>
      <p className="hint" id="loc-why">
        {t.why}
      </p>
      <button type="button" id="loc-btn" className="secondary" hidden data-wait={t.waiting} data-denied={t.denied} data-failed={t.failed} aria-describedby="loc-why">
        {t.useLocation}
      </button>
      <p id="loc-status" className={found?.kind === "far" ? "status warn" : "status"} role="status">
        {found ? <Filled template={sent ? t.sent : t[found.kind]} values={values} /> : null}
      </p>
      <div className="field">
        <label htmlFor="digipin">{t.digipinLabel}</label>
        <span className="hint" id="digipin-hint">
          {t.digipinHint}
        </span>
        <input id="digipin" name="digipin" type="text" dir="ltr" autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={20} defaultValue={digipin} aria-invalid={problem ? true : undefined} aria-describedby={describedBy} autoFocus={autoFocus} />
        {problem ? (
          <span className="err" id="digipin-error">
            {problem}
          </span>
        ) : null}
      </div>
      <script dangerouslySetInnerHTML={{ __html: LOCATION_SCRIPT }} />
    </fieldset>
  );
}
