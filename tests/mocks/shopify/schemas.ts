import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { buildClientSchema, GraphQLInputObjectType, type GraphQLSchema, type IntrospectionQuery } from "graphql";

/**
 * Shopify's published GraphQL schemas as committed in shopify-schemas/ (`npm run shopify:schemas`
 * refreshes them; PROVENANCE.md says from where), built with the `graphql` package, and the access
 * scopes the app requests (shopify.app.toml). No network. Found from the working directory upwards,
 * so the same code serves vitest, local mode and the benchmark (both bundle this file).
 */
function findRoot(): string {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "shopify-schemas", "source.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error("shopify-schemas/source.json not found above the working directory");
  }
}

export const REPO_ROOT = findRoot();
export const SCHEMAS_DIR = path.join(REPO_ROOT, "shopify-schemas");

export type SchemaSource = {
  package: string;
  version: string;
  apiVersion: string;
  apis: string[];
  functions: { api: string; schema: string; oneOf?: string[] }[];
};
export const SCHEMA_SOURCE: SchemaSource = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, "source.json"), "utf8"));

/** The schema files by API: the Admin API, the Storefront API, a function API. */
export type ShopifyApi = "admin" | "storefront-graphql" | "functions_payment_customization";

const cache = new Map<string, GraphQLSchema | null>();

/** The schema of an API at a version, or null when shopify-schemas/ does not hold that version. */
export function findShopifySchema(api: ShopifyApi, apiVersion = SCHEMA_SOURCE.apiVersion): GraphQLSchema | null {
  const key = `${api}_${apiVersion}`;
  if (cache.has(key)) return cache.get(key)!;
  const file = path.join(SCHEMAS_DIR, `${key}.json.gz`);
  let schema: GraphQLSchema | null = null;
  if (/^[a-z_-]+_(\d{4}-\d{2}|unstable)$/.test(key) && fs.existsSync(file)) {
    const json = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString("utf8")) as { data: IntrospectionQuery };
    schema = buildClientSchema(json.data);
    // The introspection leaves `isOneOf` out; source.json names the input types Shopify's SDL declares
    // @oneOf (e.g. a function's `Operation`), so coercion refuses two variants in one, as Shopify does.
    for (const name of SCHEMA_SOURCE.functions.find((f) => f.api === api)?.oneOf ?? []) {
      const type = schema.getType(name);
      if (type instanceof GraphQLInputObjectType) (type as { isOneOf: boolean }).isOneOf = true;
    }
  }
  cache.set(key, schema);
  return schema;
}

export function shopifySchema(api: ShopifyApi, apiVersion = SCHEMA_SOURCE.apiVersion): GraphQLSchema {
  const schema = findShopifySchema(api, apiVersion);
  if (!schema) throw new Error(`shopify-schemas/ holds no ${api} schema for ${apiVersion}`);
  return schema;
}

/** The access scopes the app requests (shopify.app.toml, `[access_scopes] scopes`), as a merchant grants them at install. */
export function requestedScopes(): string[] {
  const toml = fs.readFileSync(path.join(REPO_ROOT, "shopify.app.toml"), "utf8");
  const section = toml.slice(toml.indexOf("[access_scopes]"));
  const line = /^scopes\s*=\s*"([^"]*)"/m.exec(section);
  if (!line) throw new Error("shopify.app.toml: no [access_scopes] scopes");
  return line[1].split(",").map((s) => s.trim()).filter(Boolean);
}
