/**
 * DIGIPIN, India Post's 10-character code for a cell of about 4 × 4 m (technical document, final version,
 * March 2025): the box 2.5–38.5 °N × 63.5–99.5 °E cut into 4 × 4 cells ten times over, each cell named by
 * its place in the labelling grid below, written XXX-XXX-XXXX. A point on a grid line belongs to the cell
 * east of it (a vertical line) or north of it (a horizontal one); the box's own top and right edges belong
 * to the cells inside. Decoding gives the cell's centre. The arithmetic is India Post's reference
 * implementation's, step for step, so a point on a cell's edge gets the code that implementation gives it.
 * Pure: the hosted pages and the server share it.
 */
export const DIGIPIN_GRID = [
  ["F", "C", "9", "8"],
  ["J", "3", "2", "7"],
  ["K", "4", "5", "6"],
  ["L", "M", "P", "T"],
] as const;

export const DIGIPIN_BOUNDS = { minLat: 2.5, maxLat: 38.5, minLon: 63.5, maxLon: 99.5 } as const;

const SYMBOLS = new Map<string, [number, number]>(DIGIPIN_GRID.flatMap((row, r) => row.map((s, c) => [s, [r, c]] as [string, [number, number]])));

/** Whether a point lies in DIGIPIN's box (its edges included); NaN is not. */
export function inDigipinBox(lat: number, lon: number): boolean {
  const b = DIGIPIN_BOUNDS;
  return lat >= b.minLat && lat <= b.maxLat && lon >= b.minLon && lon <= b.maxLon;
}

/** The point's DIGIPIN ("39J-49L-L8T4"), or null outside the box. */
export function encodeDigipin(lat: number, lon: number): string | null {
  if (!inDigipinBox(lat, lon)) return null;
  let { minLat, maxLat, minLon, maxLon } = DIGIPIN_BOUNDS as { minLat: number; maxLat: number; minLon: number; maxLon: number };
  let code = "";
  for (let level = 1; level <= 10; level++) {
    const latDiv = (maxLat - minLat) / 4;
    const lonDiv = (maxLon - minLon) / 4;
    const row = Math.max(0, Math.min(3 - Math.floor((lat - minLat) / latDiv), 3));
    const col = Math.max(0, Math.min(Math.floor((lon - minLon) / lonDiv), 3));
    code += DIGIPIN_GRID[row][col];
    if (level === 3 || level === 6) code += "-";
    maxLat = minLat + latDiv * (4 - row);
    minLat = minLat + latDiv * (3 - row);
    minLon = minLon + lonDiv * col;
    maxLon = minLon + lonDiv;
  }
  return code;
}

/**
 * A DIGIPIN as typed, in its written form (upper case, hyphens after the 3rd and 6th symbols): spaces
 * and hyphens may stand anywhere; null unless it is 10 of the 16 symbols.
 */
export function normalizeDigipin(typed: string): string | null {
  const bare = typed.toUpperCase().replace(/[\s\-‐-―]/g, "");
  if (bare.length !== 10 || [...bare].some((s) => !SYMBOLS.has(s))) return null;
  return `${bare.slice(0, 3)}-${bare.slice(3, 6)}-${bare.slice(6)}`;
}

export type DigipinCell = { lat: number; lon: number; south: number; north: number; west: number; east: number };

/** The cell a DIGIPIN names: its centre and edges; null for a string that is not one. */
export function decodeDigipin(typed: string): DigipinCell | null {
  const code = normalizeDigipin(typed);
  if (!code) return null;
  let { minLat, maxLat, minLon, maxLon } = DIGIPIN_BOUNDS as { minLat: number; maxLat: number; minLon: number; maxLon: number };
  for (const symbol of code.replace(/-/g, "")) {
    const [r, c] = SYMBOLS.get(symbol)!;
    const latDiv = (maxLat - minLat) / 4;
    const lonDiv = (maxLon - minLon) / 4;
    const south = maxLat - latDiv * (r + 1);
    const north = maxLat - latDiv * r;
    const west = minLon + lonDiv * c;
    const east = minLon + lonDiv * (c + 1);
    minLat = south;
    maxLat = north;
    minLon = west;
    maxLon = east;
  }
  return { lat: (minLat + maxLat) / 2, lon: (minLon + maxLon) / 2, south: minLat, north: maxLat, west: minLon, east: maxLon };
}

/** A map link a courier's phone opens at the cell's centre (six decimals: about 10 cm). */
export function digipinMapLink(code: string): string | null {
  const cell = decodeDigipin(code);
  return cell ? `https://www.google.com/maps/search/?api=1&query=${cell.lat.toFixed(6)},${cell.lon.toFixed(6)}` : null;
}
