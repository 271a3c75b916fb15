import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { apiVersion } from "~/core/shopify/app.server";
import { SCHEMA_SOURCE, SCHEMAS_DIR } from "../helpers/shopify-schemas";

/**
 * One Shopify API version for everything the app talks to, and the schemas in shopify-schemas/ are
 * that version's, untouched since `npm run shopify:schemas` wrote them (docs/decisions/shopify-api-upgrades.md).
 */
const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

describe("the Shopify API version", () => {
  it("the app's clients, its webhooks and its function use the version whose schemas are committed", () => {
    expect(apiVersion).toBe(SCHEMA_SOURCE.apiVersion);
    expect(read("shopify.app.toml")).toMatch(new RegExp(`\\[webhooks\\]\\napi_version = "${SCHEMA_SOURCE.apiVersion}"`));
    for (const f of SCHEMA_SOURCE.functions) {
      const toml = read(path.join(path.dirname(f.schema), "shopify.extension.toml"));
      expect(/^api_version = "([^"]+)"$/m.exec(toml)?.[1], f.schema).toBe(SCHEMA_SOURCE.apiVersion);
    }
  });

  it("is one Shopify supports, by the list published with the schemas", () => {
    const supported = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, "supported-versions-schema.json"), "utf8")) as Record<string, { name: string }[]>;
    for (const api of [...SCHEMA_SOURCE.apis, ...SCHEMA_SOURCE.functions.map((f) => f.api)]) {
      expect(supported[api]?.map((v) => v.name), api).toContain(SCHEMA_SOURCE.apiVersion);
    }
  });

  it("every schema file is the one PROVENANCE.md records (no hand edits)", () => {
    const provenance = fs.readFileSync(path.join(SCHEMAS_DIR, "PROVENANCE.md"), "utf8");
    const rows = [...provenance.matchAll(/^\| `([^`]+)` \| `([0-9a-f]{64})` \|/gm)];
    const expected = [
      ...SCHEMA_SOURCE.apis.map((a) => `shopify-schemas/${a}_${SCHEMA_SOURCE.apiVersion}.json.gz`),
      ...SCHEMA_SOURCE.functions.flatMap((f) => [`shopify-schemas/${f.api}_${SCHEMA_SOURCE.apiVersion}.json.gz`, f.schema]),
      "shopify-schemas/supported-versions-schema.json",
    ];
    expect(rows.map((r) => r[1]).sort()).toEqual([...new Set(expected)].sort());
    expect(provenance).toContain(`\`${SCHEMA_SOURCE.package}@${SCHEMA_SOURCE.version}\``);
    for (const [, file, sha] of rows) {
      expect(crypto.createHash("sha256").update(fs.readFileSync(path.join(ROOT, file))).digest("hex"), file).toBe(sha);
    }
  });
});
