import fs from "node:fs";
import path from "node:path";
import { CONFIG_VARIABLES } from "~/core/env.server";

/**
 * `.env.example` is the list an operator copies: it must name every variable the configuration reads,
 * and nothing that nobody reads any more.
 */
const root = path.resolve(__dirname, "../..");
const example = fs
  .readFileSync(path.join(root, ".env.example"), "utf8")
  .split("\n")
  .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
  .map((line) => line.slice(0, line.indexOf("=")));

/** Variables outside the app's configuration schema: read by the server entry, the scripts or the tests. */
const OUTSIDE_THE_APP: Record<string, string[]> = {
  SHUTDOWN_GRACE_MS: ["server.mjs"],
  APP_URL: ["scripts"],
  DEMO_SHOP: ["scripts"],
  TEST_POSTGRES_URL: ["scripts", "tests"],
  CHROMIUM_PATH: ["scripts", "tests"],
};

function sourcesUnder(rel: string): string[] {
  const full = path.join(root, rel);
  if (fs.statSync(full).isFile()) return [fs.readFileSync(full, "utf8")];
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.(m?[jt]s|tsx)$/.test(d.name))
    .map((d) => fs.readFileSync(path.join(d.parentPath, d.name), "utf8"));
}

describe(".env.example", () => {
  it("lists every variable of the configuration schema", () => {
    expect(CONFIG_VARIABLES.filter((name) => !example.includes(name))).toEqual([]);
  });

  it("lists nothing else but variables the server, scripts or tests read", () => {
    const unknown = example.filter((name) => !CONFIG_VARIABLES.includes(name) && !(name in OUTSIDE_THE_APP));
    expect(unknown).toEqual([]);
    for (const [name, places] of Object.entries(OUTSIDE_THE_APP)) {
      expect(example, `${name} is read outside the app: list it in .env.example`).toContain(name);
      const read = places.some((place) => sourcesUnder(place).some((text) => text.includes(`process.env.${name}`)));
      expect(read, `${name} is no longer read in ${places.join(" or ")}: drop it from .env.example`).toBe(true);
    }
  });
});
