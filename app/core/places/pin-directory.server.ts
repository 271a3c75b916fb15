import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { fromOrderAddress, provinceListFor, resolveProvince } from "./address";

/**
 * India's PIN codes against their places: the directory of India Post's post offices the app ships
 * (app/core/places/directory/in-pin.json.gz, built and refreshed by scripts/pin-directory.mjs,
 * which records its source and date in it). Read once, on first use (about 2 MB of JSON).
 *
 * A PIN code is checked against the state and the city the shopper typed: a PIN the directory does not
 * know, a PIN of another state, a city that is a district or sub-district elsewhere and none of the
 * PIN's. A city the directory does not name at all (a locality, a colony) is not held against the
 * address. Other countries have no directory here: the check answers `unchecked` for them, and a
 * country's directory can be added beside this one with the same answers.
 */

export type District = { index: number; state: string; name: string; lat: number; lon: number; radiusKm: number; subdistricts: string[] };
export type PinEntry = { pin: string; states: string[]; districts: District[]; places: string[] };

type RawDirectory = {
  source: string;
  dataDate: string | null;
  builtAt: string;
  rows: number;
  districts: [string, string, number, number, number, string][];
  pins: Record<string, [number[], string]>;
};

export type PinDirectory = {
  source: string;
  dataDate: string | null;
  pinCount: number;
  /** Every PIN code the directory has, in order. */
  pinCodes: string[];
  districts: District[];
  lookup(pin: string): PinEntry | null;
  /** The districts a city's name is the name of (its own, or one of its sub-districts'), by folded name. */
  districtsNamed(city: string): District[];
  /** The PIN's districts', sub-districts' and post offices' names, ready to compare (kept once made: orders/create asks per order). */
  foldedNamesOf(entry: PinEntry): ComparableName[];
};

let loaded: PinDirectory | null = null;

function directoryFile(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("pin directory: no package.json above " + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return path.join(dir, "app", "core", "places", "directory", "in-pin.json.gz");
}

/** Names as compared: lower case, accents and punctuation dropped, words kept ("Bangalore South" → "bangalore south"). */
export function foldName(name: string): string {
  const lower = name.toLowerCase();
  // Accents dropped (the directory's names are plain ASCII: most names skip the normalisation).
  const plain = /^[ -~]*$/.test(lower) ? lower : lower.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  return plain
    .replace(/\b(s\.?o|b\.?o|h\.?o|g\.?p\.?o)\b\.?/g, " ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Names the same city goes by (the old and the new, the English and the local), folded. */
const ALIASES: Record<string, string> = {
  bangalore: "bengaluru",
  bombay: "mumbai",
  calcutta: "kolkata",
  madras: "chennai",
  gurgaon: "gurugram",
  poona: "pune",
  baroda: "vadodara",
  trivandrum: "thiruvananthapuram",
  cochin: "ernakulam",
  kochi: "ernakulam",
  mysore: "mysuru",
  mangalore: "dakshina kannada",
  mangaluru: "dakshina kannada",
  vizag: "visakhapatnam",
  pondicherry: "puducherry",
  allahabad: "prayagraj",
  prayagraj: "allahabad",
  benares: "varanasi",
  banaras: "varanasi",
  noida: "gautam buddha nagar",
  "greater noida": "gautam buddha nagar",
  "navi mumbai": "thane",
  secunderabad: "hyderabad",
  "new delhi": "delhi",
};

function load(): PinDirectory {
  const raw = JSON.parse(gunzipSync(fs.readFileSync(directoryFile())).toString("utf8")) as RawDirectory;
  const districts: District[] = raw.districts.map(([state, name, lat, lon, radiusKm, subs], index) => ({
    index,
    state,
    name,
    lat,
    lon,
    radiusKm,
    subdistricts: subs ? subs.split("|") : [],
  }));
  const byName = new Map<string, District[]>();
  const addName = (name: string, d: District) => {
    const key = foldName(name);
    if (key.length < 3) return;
    const list = byName.get(key) ?? [];
    if (!list.includes(d)) list.push(d);
    byName.set(key, list);
  };
  for (const d of districts) {
    addName(d.name, d);
    for (const s of d.subdistricts) addName(s, d);
  }
  const folded = new Map<string, ComparableName[]>();
  const byDistrict = new Map<number, ComparableName[]>();
  const comparables = (list: string[]) => [...new Set(list.map(foldName))].filter((n) => n.length >= 3).map(comparable);
  const districtNames = (d: District) => {
    let names = byDistrict.get(d.index);
    if (!names) byDistrict.set(d.index, (names = comparables([d.name, ...d.subdistricts])));
    return names;
  };
  return {
    source: raw.source,
    dataDate: raw.dataDate,
    pinCount: Object.keys(raw.pins).length,
    pinCodes: Object.keys(raw.pins).sort(),
    districts,
    lookup(pin) {
      const row = raw.pins[pin];
      if (!row) return null;
      const ds = row[0].map((i) => districts[i]);
      return { pin, states: [...new Set(ds.map((d) => d.state))], districts: ds, places: row[1] ? row[1].split("|") : [] };
    },
    foldedNamesOf(entry) {
      let names = folded.get(entry.pin);
      if (!names) {
        // A district's own names are shared by all its PIN codes: made once per district.
        names = [...entry.districts.flatMap(districtNames), ...comparables(entry.places)];
        folded.set(entry.pin, names);
      }
      return names;
    },
    districtsNamed(city) {
      const key = foldName(city);
      return [...(byName.get(key) ?? []), ...(ALIASES[key] ? (byName.get(ALIASES[key]) ?? []) : [])];
    },
  };
}

export function pinDirectory(): PinDirectory {
  loaded ??= load();
  return loaded;
}

/** A folded name ready to compare: itself and the name it also goes by, each padded and cut into its words of 3 letters or more. */
export type ComparableName = { forms: string[]; padded: string[]; words: string[][] };

export function comparable(folded: string): ComparableName {
  const forms = ALIASES[folded] && ALIASES[folded] !== folded ? [folded, ALIASES[folded]] : [folded];
  return { forms, padded: forms.map((f) => ` ${f} `), words: forms.map((f) => f.split(" ").filter((w) => w.length >= 3)) };
}

const containsAll = (a: ComparableName, b: ComparableName) =>
  a.padded.some((outer) => b.words.some((w) => w.length > 0 && w.every((x) => outer.includes(` ${x} `))));

/** Whether two names name the same place: equal, an alias of each other, or one's words all in the other's ("delhi" in "central delhi"). */
function sameName(a: ComparableName, b: ComparableName): boolean {
  if (a.forms.some((f) => b.forms.includes(f))) return true;
  return containsAll(a, b) || containsAll(b, a);
}

export type PinVerdict =
  | { kind: "unchecked" }
  | { kind: "ok"; entry: PinEntry }
  | { kind: "unknown_pin"; pin: string; dataDate: string | null }
  | { kind: "other_state"; entry: PinEntry; typedState: string }
  | { kind: "other_district"; entry: PinEntry; typedCity: string; cityDistricts: District[] };

export const PIN_VERDICTS = ["unknown_pin", "other_state", "other_district"] as const;
export type PinProblem = (typeof PIN_VERDICTS)[number];

/**
 * The PIN code against the state (Shopify's zone code, or a state's name) and the city typed with it.
 * `unchecked` outside India, for a PIN of the wrong shape (the format check says so) or none.
 */
export function checkPinPlace(
  a: { countryCode: string; zip: string; province: string; city: string },
  directory: PinDirectory = pinDirectory(),
): PinVerdict {
  if (a.countryCode.trim().toUpperCase() !== "IN") return { kind: "unchecked" };
  const pin = a.zip.replace(/\s+/g, "");
  if (!/^[1-9]\d{5}$/.test(pin)) return { kind: "unchecked" };
  const entry = directory.lookup(pin);
  if (!entry) return { kind: "unknown_pin", pin, dataDate: directory.dataDate };
  // A state typed as Shopify's code or by its name; one the list does not know is not judged here.
  const typedState = a.province.trim() ? resolveProvince("IN", a.province) : null;
  if (typedState && !entry.states.includes(typedState)) return { kind: "other_state", entry, typedState };
  const city = foldName(a.city);
  if (!city) return { kind: "ok", entry };
  const typed = comparable(city);
  if (directory.foldedNamesOf(entry).some((n) => sameName(typed, n))) return { kind: "ok", entry };
  const cityDistricts = directory.districtsNamed(a.city);
  if (cityDistricts.length && !cityDistricts.some((d) => entry.districts.includes(d))) return { kind: "other_district", entry, typedCity: a.city.trim(), cityDistricts };
  return { kind: "ok", entry };
}

/** Kilometres between two points (equirectangular: exact enough within a district). */
export function distanceKm(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const r = Math.PI / 180;
  const x = (bLon - aLon) * r * Math.cos(((aLat + bLat) / 2) * r);
  const y = (bLat - aLat) * r;
  return Math.sqrt(x * x + y * y) * 6371;
}

/** Beyond its district's radius (95% of its offices) plus this, a point is not "near" the district. */
export const NEAR_DISTRICT_MARGIN_KM = 15;

/**
 * Whether a point (a DIGIPIN's centre) lies in or near one of the PIN code's districts: within the
 * district's radius around the centre of its post offices, plus a margin. Null for a PIN the directory
 * does not know.
 */
export function pointNearPin(pin: string, lat: number, lon: number, directory: PinDirectory = pinDirectory()): { near: boolean; district: District; km: number } | null {
  const entry = directory.lookup(pin.replace(/\s+/g, ""));
  if (!entry) return null;
  const scored = entry.districts
    .map((district) => ({ district, km: distanceKm(lat, lon, district.lat, district.lon) }))
    .map((s) => ({ ...s, beyond: s.km - s.district.radiusKm }))
    .sort((x, y) => x.beyond - y.beyond)[0];
  return { near: scored.beyond <= NEAR_DISTRICT_MARGIN_KM, district: scored.district, km: Math.round(scored.km) };
}

/** The risk score's reason codes for a PIN that does not match its place (app/risk/score.ts). */
export const PIN_REASON_CODES = { unknown_pin: "pin_unknown", other_state: "pin_other_state", other_district: "pin_other_district" } as const;
export type PinReasonCode = (typeof PIN_REASON_CODES)[PinProblem];

const STATE_NAMES: Record<string, string> = provinceListFor("IN") ?? {};
const stateName = (code: string) => STATE_NAMES[code] ?? code;
const list = (names: string[]) => [...new Set(names)].join(", ");

/** A verdict in the merchant's words, with its reason code; null when the PIN matches its place or was not checked. */
export function pinProblemReason(v: PinVerdict): { code: PinReasonCode; text: string } | null {
  switch (v.kind) {
    case "unknown_pin":
      return { code: "pin_unknown", text: `The PIN code ${v.pin} is not in India Post's directory${v.dataDate ? ` (as of ${v.dataDate.slice(0, 7)})` : ""}.` };
    case "other_state":
      return { code: "pin_other_state", text: `The PIN code ${v.entry.pin} belongs to ${list(v.entry.states.map(stateName))}, not to ${stateName(v.typedState)} as typed.` };
    case "other_district":
      return {
        code: "pin_other_district",
        text: `The PIN code ${v.entry.pin} belongs to ${list(v.entry.districts.map((d) => `${d.name} (${stateName(d.state)})`))}, not to ${v.typedCity} as typed.`,
      };
    default:
      return null;
  }
}

/** An order's shipping address (the orders/create payload's) checked against the directory: the risk score's fact. */
export function pinReasonOfOrderAddress(a: Parameters<typeof fromOrderAddress>[0] | null | undefined): { code: PinReasonCode; text: string } | null {
  if (!a || (a.country_code ?? "").toUpperCase() !== "IN") return null;
  return pinProblemReason(checkPinPlace(fromOrderAddress(a)));
}
