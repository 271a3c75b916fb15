import { parseBlocklistImport } from "./blocklist-import";
import { BLOCKLIST_IMPORT_MAX_LINES } from "./blocklist-limits";

describe("reading a pasted or uploaded blocklist", () => {
  it("keeps the good numbers in normalised form with their reasons, reports the bad lines by number, counts repeats once", () => {
    const text = ["phone,reason", "+91 98123 45678, refused delivery", "", "not a number", "00971501234567;abuse", "+919812345678", "12345\t"].join("\r\n");
    expect(parseBlocklistImport(text, "imported")).toEqual({
      ok: true,
      entries: [
        { line: 2, phone: "+919812345678", reason: "refused delivery" },
        { line: 5, phone: "+971501234567", reason: "abuse" },
      ],
      invalid: [
        { line: 4, text: "not a number" },
        { line: 7, text: "12345" },
      ],
      duplicates: 1,
    });
  });

  it("gives a line without a reason the import's reason", () => {
    expect(parseBlocklistImport("+14155550199", "chargebacks")).toMatchObject({ entries: [{ line: 1, phone: "+14155550199", reason: "chargebacks" }] });
  });

  it(`refuses more than ${BLOCKLIST_IMPORT_MAX_LINES} lines whole, and an empty list`, () => {
    const lines = Array.from({ length: BLOCKLIST_IMPORT_MAX_LINES + 1 }, (_, i) => `+1415555${String(i).padStart(4, "0")}`);
    expect(parseBlocklistImport(lines.join("\n"))).toEqual({ ok: false, code: "too_many_lines", lines: BLOCKLIST_IMPORT_MAX_LINES + 1 });
    expect(parseBlocklistImport(lines.slice(1).join("\n") + "\n\n\n")).toMatchObject({ ok: true });
    expect(parseBlocklistImport(" \n\n")).toEqual({ ok: false, code: "empty" });
  });
});
