#!/usr/bin/env node
/**
 * `npm run shopify:schemas`: refreshes Shopify's published GraphQL schemas in shopify-schemas/ from the
 * npm package that Shopify ships them in, at the version pinned in shopify-schemas/source.json.
 *
 *   1. `npm pack @shopify/dev-mcp@<version>` into a temporary folder (npm checks the tarball against the
 *      registry's integrity hash);
 *   2. copies the files source.json names (`dist/data/<name>_<apiVersion>.json.gz`, byte for byte) and
 *      `supported-versions-schema.json` into shopify-schemas/;
 *   3. prints each function schema source.json names as SDL beside its extension (the `schema.graphql`
 *      Shopify's CLI keeps there);
 *   4. writes shopify-schemas/PROVENANCE.md: package, version, tarball integrity, each file's SHA-256.
 *
 * Tests read only the committed files: they never need the network. To move to another API version or
 * package version: edit source.json, run this, then run the tests (docs/decisions/shopify-api-upgrades.md).
 * `--check` verifies the committed files against PROVENANCE.md without the network.
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { buildClientSchema, GraphQLInputObjectType, printSchema } from "graphql";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIR = path.join(ROOT, "shopify-schemas");
const source = JSON.parse(fs.readFileSync(path.join(DIR, "source.json"), "utf8"));
const { package: pkg, version, apiVersion } = source;
const fileName = (api) => `${api}_${apiVersion}.json.gz`;
const sha256 = (buf) => crypto.createHash("sha256").update(buf).digest("hex");

/** The SDL Shopify's CLI keeps beside a function: printed from the introspection, with where it came from. */
export function printFunctionSchema(gz, api, oneOf = []) {
  const schema = buildClientSchema(JSON.parse(zlib.gunzipSync(gz).toString("utf8")).data);
  for (const name of oneOf) {
    const type = schema.getType(name);
    if (!(type instanceof GraphQLInputObjectType)) throw new Error(`${api}: no input type ${name} to mark @oneOf`);
    type.isOneOf = true;
  }
  return (
    `# Shopify's ${api.replace(/^functions_/, "").replace(/_/g, " ")} function API ${apiVersion}, printed by \`npm run shopify:schemas\`\n` +
    `# from the introspection schema in ${pkg} ${version} (dist/data/${fileName(api)}); do not edit.\n` +
    `# The introspection does not carry @oneOf; the input types Shopify's own SDL declares @oneOf are marked so\n` +
    `# (shopify-schemas/source.json names them).\n\n` +
    printSchema(schema) +
    "\n"
  );
}

function check() {
  const provenance = fs.readFileSync(path.join(DIR, "PROVENANCE.md"), "utf8");
  let bad = 0;
  for (const m of provenance.matchAll(/^\| `([^`]+)` \| `([0-9a-f]{64})` \|/gm)) {
    const file = path.join(ROOT, m[1]);
    const actual = fs.existsSync(file) ? sha256(fs.readFileSync(file)) : "missing";
    if (actual !== m[2]) {
      bad++;
      console.error(`${m[1]}: ${actual} (PROVENANCE.md says ${m[2]})`);
    }
  }
  if (bad) process.exit(1);
  console.log("shopify-schemas: every file matches PROVENANCE.md");
}

function refresh() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shopify-schemas-"));
  try {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const [packed] = JSON.parse(execFileSync(npm, ["pack", `${pkg}@${version}`, "--json", "--pack-destination", tmp], { cwd: tmp, encoding: "utf8" }));
    const tarball = path.join(tmp, packed.filename);
    const wanted = [...source.apis.map(fileName), ...source.functions.map((f) => fileName(f.api)), "supported-versions-schema.json"];
    execFileSync("tar", ["xzf", tarball, "-C", tmp, ...wanted.map((f) => `package/dist/data/${f}`)]);
    const rows = [];
    for (const f of wanted) {
      const buf = fs.readFileSync(path.join(tmp, "package/dist/data", f));
      fs.writeFileSync(path.join(DIR, f), buf);
      rows.push([`shopify-schemas/${f}`, sha256(buf), `dist/data/${f}`]);
    }
    for (const f of source.functions) {
      const sdl = printFunctionSchema(fs.readFileSync(path.join(DIR, fileName(f.api))), f.api, f.oneOf);
      fs.writeFileSync(path.join(ROOT, f.schema), sdl);
      rows.push([f.schema, sha256(Buffer.from(sdl)), `printed from dist/data/${fileName(f.api)}`]);
    }
    const supported = JSON.parse(fs.readFileSync(path.join(DIR, "supported-versions-schema.json"), "utf8"));
    const status = (api) => {
      const v = (supported[api] ?? []).find((x) => x.name === apiVersion);
      return v ? (v.releaseCandidate ? "release candidate" : v.latestVersion ? "latest" : "supported") : "NOT LISTED";
    };
    const md = [
      "# Provenance of Shopify's schemas",
      "",
      `Written by \`npm run shopify:schemas\` (scripts/shopify-schemas.mjs); do not edit. \`npm run shopify:schemas -- --check\``,
      "checks the files against this table.",
      "",
      `- Package: \`${packed.id}\` (npm registry), tarball \`${packed.filename}\``,
      `- Tarball integrity: \`${packed.integrity}\` (shasum \`${packed.shasum}\`)`,
      `- License: ISC, Shopify Inc. (the package's LICENSE)`,
      `- API version: \`${apiVersion}\`; in the package's supported-versions-schema.json: ` +
        [...source.apis, ...source.functions.map((f) => f.api)].map((a) => `${a} ${status(a)}`).join(", "),
      `- Refreshed: ${new Date().toISOString().slice(0, 10)}`,
      "",
      "| file | SHA-256 | from the package |",
      "|---|---|---|",
      ...rows.map(([f, h, from]) => `| \`${f}\` | \`${h}\` | ${from} |`),
      "",
    ].join("\n");
    fs.writeFileSync(path.join(DIR, "PROVENANCE.md"), md);
    console.log(md);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--check")) check();
  else refresh();
}
