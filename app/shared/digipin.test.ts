import { createRequire } from "node:module";
import { decodeDigipin, digipinMapLink, encodeDigipin, inDigipinBox, normalizeDigipin } from "./digipin";

const reference = createRequire(import.meta.url)("../../tests/fixtures/digipin-reference.cjs") as {
  getDigiPin: (lat: number, lon: number) => string;
  getLatLngFromDigiPin: (code: string) => { latitude: string; longitude: string };
};

/** A small deterministic generator, so a failure names the same points every run. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe("DIGIPIN", () => {
  it("gives Dak Bhawan the code the technical document gives it", () => {
    expect(encodeDigipin(28.622788, 77.213033)).toBe("39J-49L-L8T4");
    const cell = decodeDigipin("39J-49L-L8T4")!;
    expect(Math.abs(cell.lat - 28.622788)).toBeLessThan(cell.north - cell.south);
    expect(Math.abs(cell.lon - 77.213033)).toBeLessThan(cell.east - cell.west);
  });

  it("agrees with India Post's reference implementation on a grid of 73 × 73 points over the whole box", () => {
    let compared = 0;
    for (let i = 0; i <= 72; i++) {
      for (let j = 0; j <= 72; j++) {
        const lat = 2.5 + i * 0.5;
        const lon = 63.5 + j * 0.5;
        expect(encodeDigipin(lat, lon), `${lat},${lon}`).toBe(reference.getDigiPin(lat, lon));
        compared++;
      }
    }
    expect(compared).toBe(73 * 73);
  });

  it("agrees with it on 20,000 random points, and decodes every code to the reference's centre", () => {
    const next = lcg(48);
    for (let n = 0; n < 20_000; n++) {
      const lat = 2.5 + next() * 36;
      const lon = 63.5 + next() * 36;
      const code = encodeDigipin(lat, lon)!;
      expect(code).toBe(reference.getDigiPin(lat, lon));
      const centre = reference.getLatLngFromDigiPin(code);
      const cell = decodeDigipin(code)!;
      expect(cell.lat.toFixed(6)).toBe(centre.latitude);
      expect(cell.lon.toFixed(6)).toBe(centre.longitude);
    }
  });

  it("puts points on cell edges where the document says (east of a vertical line, north of a horizontal one) and agrees with the reference there", () => {
    const next = lcg(7);
    for (let level = 1; level <= 10; level++) {
      const step = 36 / 4 ** level;
      for (let n = 0; n < 200; n++) {
        const lat = 2.5 + Math.floor(next() * 4 ** level) * step;
        const lon = 63.5 + Math.floor(next() * 4 ** level) * step;
        expect(encodeDigipin(lat, lon), `${lat},${lon}`).toBe(reference.getDigiPin(lat, lon));
      }
    }
    // The level-1 line at 20.5 °N: a point on it is in the cell above (row 1, "J"... at 63.5 °E: the cell from 20.5 to 29.5).
    expect(encodeDigipin(20.5, 63.5)![0]).toBe("J");
    expect(encodeDigipin(20.499999, 63.5)![0]).toBe("K");
    // The line at 72.5 °E: a point on it is in the cell east of it.
    expect(encodeDigipin(3, 72.5)![0]).toBe("M");
    expect(encodeDigipin(3, 72.499999)![0]).toBe("L");
    // The box's top and right edges belong to the cells inside it.
    expect(encodeDigipin(38.5, 99.5)).toBe(reference.getDigiPin(38.5, 99.5));
    expect(encodeDigipin(38.5, 99.5)!.startsWith("8")).toBe(true);
    expect(encodeDigipin(2.5, 63.5)).toBe("LLL-LLL-LLLL");
  });

  it("round-trips: the centre of a code's cell encodes to the same code, and the point lies in its cell", () => {
    const next = lcg(99);
    for (let n = 0; n < 5_000; n++) {
      const lat = 2.5 + next() * 36;
      const lon = 63.5 + next() * 36;
      const code = encodeDigipin(lat, lon)!;
      const cell = decodeDigipin(code)!;
      expect(encodeDigipin(cell.lat, cell.lon)).toBe(code);
      expect(lat).toBeGreaterThanOrEqual(cell.south);
      expect(lat).toBeLessThanOrEqual(cell.north);
      expect(lon).toBeGreaterThanOrEqual(cell.west);
      expect(lon).toBeLessThanOrEqual(cell.east);
      // A level-10 cell is 36° / 4^10 on a side: about 3.9 m of latitude.
      expect((cell.north - cell.south) * 111_195).toBeCloseTo(3.82, 1);
    }
  });

  it("says when a point is outside India's box, and refuses what is not a DIGIPIN", () => {
    for (const [lat, lon] of [[2.4999, 80], [38.5001, 80], [20, 63.4999], [20, 99.5001], [51.5, -0.12], [Number.NaN, 80], [-20, 80]]) {
      expect(inDigipinBox(lat, lon)).toBe(false);
      expect(encodeDigipin(lat, lon)).toBeNull();
    }
    expect(normalizeDigipin("39j 49l l8t4")).toBe("39J-49L-L8T4");
    expect(normalizeDigipin("39J49LL8T4")).toBe("39J-49L-L8T4");
    for (const bad of ["39J-49L-L8T", "39J-49L-L8T44", "39A-49L-L8T4", "OOO-OOO-OOOO", "", "39J-49L-L8T1"]) {
      expect(normalizeDigipin(bad), bad).toBeNull();
      expect(decodeDigipin(bad)).toBeNull();
    }
    expect(digipinMapLink("39J-49L-L8T4")).toMatch(/query=28\.6227\d\d,77\.2130\d\d$/);
  });
});
