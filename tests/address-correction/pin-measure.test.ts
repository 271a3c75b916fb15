import { checkPinPlace } from "~/core/places/pin-directory.server";
import { buildSample, HAND_WRITTEN, measure } from "../../scripts/pin-sample";

/**
 * The PIN check on real-shaped Indian addresses (npm run pin:measure prints the same figures): wrong
 * state and district combinations caught, right ones let through. The floors are below today's figures
 * (docs/address-correction.md) so a change that loses catches or flags right addresses fails here.
 */
describe("the PIN check, measured", () => {
  it("catches at least 95% of wrong combinations of each kind and flags at most 1% of right addresses", () => {
    const m = measure(buildSample(1000, 7));
    expect(m.right).toBeGreaterThan(1000);
    expect(m.flaggedRight / m.right).toBeLessThanOrEqual(0.01);
    for (const kind of ["state", "district", "typo", "unknown"]) {
      const w = m.wrong[kind];
      expect(w.total, kind).toBeGreaterThan(50);
      expect(w.caught / w.total, kind).toBeGreaterThanOrEqual(0.95);
    }
  });

  it("lets every hand-written big-city address through, and catches each one's PIN swapped with the next city's", () => {
    for (const [zip, province, city] of HAND_WRITTEN) {
      expect(checkPinPlace({ countryCode: "IN", zip, province, city }).kind, `${zip} ${city}`).toBe("ok");
    }
    let caught = 0;
    HAND_WRITTEN.forEach(([, province, city], i) => {
      const [zip, otherProvince, otherCity] = HAND_WRITTEN[(i + 2) % HAND_WRITTEN.length];
      if (otherCity === city || otherProvince === province) return;
      if (checkPinPlace({ countryCode: "IN", zip, province, city }).kind !== "ok") caught++;
    });
    expect(caught).toBeGreaterThanOrEqual(25);
  });
});
