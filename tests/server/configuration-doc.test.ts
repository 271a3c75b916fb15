import fs from "node:fs";
import path from "node:path";
import { SETTINGS_LIMITS } from "~/core/settings/limits";
import { SETTINGS_FIELDS } from "~/core/settings/registry";
import { REFERENCE_END, REFERENCE_START, settingsReference } from "~/core/settings/registry-doc";
import { ROOT } from "../setup/databases";

/**
 * docs/configuration.md checked against the registry it is drawn from: its settings reference is exactly
 * what the registry declares (every setting documented once, nothing extra, each with its bounds and
 * default), so the doc cannot leave out a setting or keep a limit the parser changed.
 */
const doc = fs.readFileSync(path.join(ROOT, "docs", "configuration.md"), "utf8");
const reference = doc.slice(doc.indexOf(REFERENCE_START), doc.indexOf(REFERENCE_END) + REFERENCE_END.length);

describe("docs/configuration.md", () => {
  it("holds the settings reference as the registry draws it (npm run docs:settings writes it)", () => {
    expect(reference).toBe(settingsReference());
  });

  it("documents every setting once and no name that is not one", () => {
    const rows = [...reference.matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((m) => m[1]);
    expect([...rows].sort()).toEqual([...SETTINGS_FIELDS].sort());
  });

  const bounds = Object.entries(SETTINGS_LIMITS).flatMap(([name, v]): [string, number, number][] => (typeof v === "object" && "min" in v ? [[name, v.min, v.max]] : []));
  it.each(bounds)("states %s's bounds as the parser applies them", (_, min, max) => {
    expect(reference.replace(/\s+/g, " ")).toContain(`${min.toLocaleString("en")} to ${max.toLocaleString("en")}`);
  });
});
