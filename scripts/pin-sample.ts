import { checkPinPlace, pinDirectory, type District, type PinDirectory } from "~/core/places/pin-directory.server";

/**
 * Real-shaped Indian addresses for measuring the PIN check (scripts/pin-measure.ts, and its test): PIN
 * codes drawn from the directory, each written the right way (its state, and as the city its district,
 * a sub-district or a post office of it, as shoppers write them) and the wrong ways a COD address goes
 * wrong (the state of another state; the city of another district of the same state, or of another
 * state; a PIN with one digit mistyped; a PIN that does not exist), plus a hand list of big cities'
 * addresses as shoppers type them (old names included). Deterministic: a seed gives the same set.
 */
export type Labelled = { zip: string; province: string; city: string; wrong: null | "state" | "district" | "typo" | "unknown"; why: string };

function lcg(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Big cities as shoppers type them: [PIN, state, city]. */
export const HAND_WRITTEN: [string, string, string][] = [
  ["560029", "KA", "Bangalore"], ["560034", "KA", "Bengaluru"], ["400001", "MH", "Mumbai"], ["400050", "MH", "Bombay"],
  ["110001", "DL", "New Delhi"], ["110092", "DL", "Delhi"], ["600001", "TN", "Chennai"], ["600040", "TN", "Madras"],
  ["700001", "WB", "Kolkata"], ["700019", "WB", "Calcutta"], ["122001", "HR", "Gurgaon"], ["122018", "HR", "Gurugram"],
  ["201301", "UP", "Noida"], ["411001", "MH", "Pune"], ["500001", "TS", "Hyderabad"], ["500003", "TS", "Secunderabad"],
  ["380001", "GJ", "Ahmedabad"], ["302001", "RJ", "Jaipur"], ["226001", "UP", "Lucknow"], ["800001", "BR", "Patna"],
  ["682001", "KL", "Kochi"], ["695001", "KL", "Trivandrum"], ["160017", "CH", "Chandigarh"], ["751001", "OR", "Bhubaneswar"],
  ["781001", "AS", "Guwahati"], ["452001", "MP", "Indore"], ["641001", "TN", "Coimbatore"], ["390001", "GJ", "Vadodara"],
  ["530001", "AP", "Visakhapatnam"], ["440001", "MH", "Nagpur"], ["570001", "KA", "Mysore"], ["400703", "MH", "Navi Mumbai"],
];

const pick = <T,>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)];

export function buildSample(count: number, seed = 48, directory: PinDirectory = pinDirectory()): Labelled[] {
  const next = lcg(seed);
  const pins = directory.pinCodes;
  const byState = new Map<string, District[]>();
  for (const d of directory.districts) byState.set(d.state, [...(byState.get(d.state) ?? []), d]);
  const states = [...byState.keys()];
  const out: Labelled[] = [];
  for (let n = 0; n < count; n++) {
    const pin = pick(next, pins);
    const entry = directory.lookup(pin)!;
    const district = pick(next, entry.districts);
    // The city as a shopper writes it: the district, a sub-district of the PIN's district, or the post office's place.
    const r = next();
    const city = r < 0.4 ? district.name : r < 0.7 && district.subdistricts.length ? pick(next, district.subdistricts) : pick(next, entry.places.length ? entry.places : [district.name]);
    out.push({ zip: pin, province: district.state, city, wrong: null, why: "right" });
    // Another state, the city kept.
    const otherState = pick(next, states.filter((s) => !entry.states.includes(s)));
    out.push({ zip: pin, province: otherState, city, wrong: "state", why: "state of another state" });
    // The city of another district: of the same state when it has others, else of another state.
    const sameState = (byState.get(district.state) ?? []).filter((d) => !entry.districts.includes(d));
    const otherDistrict = sameState.length && next() < 0.7 ? pick(next, sameState) : pick(next, directory.districts.filter((d) => !entry.districts.includes(d)));
    out.push({ zip: pin, province: sameState.includes(otherDistrict) ? district.state : "", city: otherDistrict.name, wrong: "district", why: "city of another district" });
    // One digit of the PIN mistyped: wrong when the PIN typed is not one of the city's district.
    const at = 1 + Math.floor(next() * 5);
    const typo = `${pin.slice(0, at)}${(Number(pin[at]) + 1 + Math.floor(next() * 9)) % 10}${pin.slice(at + 1)}`;
    const typoEntry = directory.lookup(typo);
    const typoWrong = !typoEntry || !typoEntry.districts.includes(district);
    out.push({ zip: typo, province: district.state, city, wrong: typoWrong ? "typo" : null, why: typoWrong ? "PIN mistyped (another place)" : "PIN mistyped (same district)" });
  }
  for (let n = 0; n < Math.ceil(count / 10); n++) {
    let zip = "";
    do zip = String(100000 + Math.floor(next() * 900000));
    while (directory.lookup(zip));
    out.push({ zip, province: pick(next, states), city: pick(next, directory.districts).name, wrong: "unknown", why: "PIN that does not exist" });
  }
  for (const [zip, province, city] of HAND_WRITTEN) out.push({ zip, province, city, wrong: null, why: "hand-written big city" });
  return out;
}

export type Measured = { rows: number; right: number; flaggedRight: number; wrong: Record<string, { total: number; caught: number }> };

/** The check over a sample: how many right addresses it flags, and how many wrong ones of each kind it catches. */
export function measure(sample: Labelled[], directory: PinDirectory = pinDirectory()): Measured {
  const m: Measured = { rows: sample.length, right: 0, flaggedRight: 0, wrong: {} };
  for (const a of sample) {
    const verdict = checkPinPlace({ countryCode: "IN", zip: a.zip, province: a.province, city: a.city }, directory);
    const flagged = verdict.kind !== "ok" && verdict.kind !== "unchecked";
    if (!a.wrong) {
      m.right++;
      if (flagged) m.flaggedRight++;
    } else {
      const w = (m.wrong[a.wrong] ??= { total: 0, caught: 0 });
      w.total++;
      if (flagged) w.caught++;
    }
  }
  return m;
}
