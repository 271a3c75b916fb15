import { decodeDigipin, encodeDigipin, inDigipinBox, normalizeDigipin } from "~/shared/digipin";
import type { LocationNote } from "~/shared/location-field";
import { provinceListFor } from "~/core/places/address";
import { checkPinPlace, pointNearPin } from "~/core/places/pin-directory.server";

/**
 * "Where you are" as a hosted page's form sends it: the browser's position (`lat`, `lon`, posted by the
 * location script on the shopper's tap) or a DIGIPIN typed. The position is turned into its DIGIPIN
 * here and goes no further: nothing stores or logs it. With a PIN code, the DIGIPIN's cell is checked
 * to lie in or near one of the PIN code's districts.
 */
export type ReadLocation = { digipin: string | null; typed: string; note: LocationNote | null };

const COORDINATE = /^-?\d{1,3}(\.\d{1,17})?$/;

export function readLocation(fields: URLSearchParams, pin: string | null): ReadLocation {
  const lat = fields.get("lat") ?? "";
  const lon = fields.get("lon") ?? "";
  let digipin: string | null = null;
  let typed = (fields.get("digipin") ?? "").trim().slice(0, 20);
  if (lat || lon) {
    if (!COORDINATE.test(lat) || !COORDINATE.test(lon) || !inDigipinBox(Number(lat), Number(lon))) return { digipin: null, typed, note: { kind: "outside" } };
    digipin = encodeDigipin(Number(lat), Number(lon));
    typed = digipin ?? typed;
  } else if (typed) {
    digipin = normalizeDigipin(typed);
    if (!digipin) return { digipin: null, typed, note: { kind: "invalid" } };
    typed = digipin;
  }
  if (!digipin) return { digipin: null, typed, note: null };
  const cell = decodeDigipin(digipin)!;
  const near = pin ? pointNearPin(pin, cell.lat, cell.lon) : null;
  if (!near) return { digipin, typed, note: { kind: "foundNoPin", digipin } };
  return { digipin, typed, note: { kind: near.near ? "found" : "far", digipin, district: near.district.name, km: near.km } };
}

/** What the form says under the PIN code: the places it belongs to, or that it does not match the address (or is unknown). */
export type PinHint = { kind: "places" | "mismatch" | "unknown"; pin: string; places: string; cities: string[] };

/** The PIN code's places for the form (India only): its districts and states, and the towns and offices the city field offers. */
export function pinHintOf(a: { countryCode: string; zip: string; province: string; city: string }): PinHint | null {
  const verdict = checkPinPlace(a);
  if (verdict.kind === "unchecked") return null;
  if (verdict.kind === "unknown_pin") return { kind: "unknown", pin: verdict.pin, places: "", cities: [] };
  const { entry } = verdict;
  const states = provinceListFor("IN") ?? {};
  const places = [...new Set(entry.districts.map((d) => `${d.name}, ${states[d.state] ?? d.state}`))].join("; ");
  const cities = [...new Set([...entry.districts.flatMap((d) => [d.name, ...d.subdistricts]), ...entry.places])].filter((c) => c.length >= 3).slice(0, 60);
  return { kind: verdict.kind === "ok" ? "places" : "mismatch", pin: entry.pin, places, cities };
}

/** The values a shopper confirmed despite the PIN hint (posted back as `pinAck`): saving them again as they are goes through. */
export function pinAckOf(a: { zip: string; province: string; city: string }): string {
  return [a.zip, a.province, a.city].map((v) => v.trim().toUpperCase()).join("|").slice(0, 200);
}
