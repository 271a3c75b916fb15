import { LocationField, type LocationNote } from "~/shared/location-field";
import type { Locale } from "~/shared/locales";
import { LOCATION_TEXTS } from "~/shared/location-texts";

/**
 * The failed-delivery page's "where you are": a form of its own (choice `location`) that sends the
 * shopper's DIGIPIN, from the phone's location or typed, to the order for the courier. It answers
 * nothing else: the recovery's choices stay open beside it. Shown for Indian orders only (DIGIPIN covers India).
 */
export type LocationChoiceState = { digipin: string; note: LocationNote | null; sent?: boolean };

export function LocationChoice({ locale, nonce, state }: { locale: Locale; nonce: string; state: LocationChoiceState | undefined }) {
  const t = LOCATION_TEXTS[locale];
  if (!state) return null;
  return (
    <form method="post" className="choice" noValidate>
      <input type="hidden" name="nonce" value={nonce} />
      <input type="hidden" name="choice" value="location" />
      <LocationField locale={locale} digipin={state.digipin} note={state.note} sent={state.sent} autoFocus={Boolean(state.note) && !state.sent} />
      <button type="submit" className="secondary">
        {t.send}
      </button>
    </form>
  );
}
