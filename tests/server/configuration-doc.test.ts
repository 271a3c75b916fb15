import fs from "node:fs";
import path from "node:path";
import { SETTINGS_LIMITS } from "~/core/settings/limits";
import { SETTINGS_SECTIONS } from "~/admin/settings/sections";
import { ROOT } from "../setup/databases";

/**
 * docs/configuration.md checked against the code it describes: every section of the Settings page (its
 * index) has its bullet, in the page's order, and every bound the settings schema applies is the one
 * the doc states ("1 to 20"), so the doc cannot leave out a card or keep a limit the server changed.
 */
const doc = fs.readFileSync(path.join(ROOT, "docs", "configuration.md"), "utf8");
const settingsPart = doc.slice(doc.indexOf("## Settings"));

describe("docs/configuration.md", () => {
  it("has a bullet for each section of the Settings page, in the page's order", () => {
    const bullets = [...settingsPart.matchAll(/^- \*\*([^*]+)\*\*/gm)].map((m) => m[1]);
    expect(bullets).toEqual(expect.arrayContaining(SETTINGS_SECTIONS.map((s) => s.title)));
    const order = SETTINGS_SECTIONS.map((s) => bullets.indexOf(s.title));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  const bounds = Object.entries(SETTINGS_LIMITS).flatMap(([name, v]): [string, number, number][] => (typeof v === "object" && "min" in v ? [[name, v.min, v.max]] : []));
  it.each(bounds)(
    "states %s's bounds as the schema applies them",
    (_, min, max) => {
      const words = `${min.toLocaleString("en")} to ${max.toLocaleString("en")}`;
      expect(settingsPart.replace(/\s+/g, " ")).toContain(words);
    },
  );
});
