import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { buildClientSchema, GraphQLInputObjectType, type GraphQLSchema, type IntrospectionQuery } from "graphql";

/**
 * Shopify's published GraphQL schemas as committed in shopify-schemas/ (`npm run shopify:schemas`
 * refreshes them; PROVENANCE.md says from where), built with the `graphql` package. No network.
 */
export const SCHEMAS_DIR = path.resolve(__dirname, "../../shopify-schemas");

export type SchemaSource = { package: string; version: string; apiVersion: string; apis: string[]; functions: { api: string; schema: string; oneOf?: string[] }[] };
export const SCHEMA_SOURCE: SchemaSource = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, "source.json"), "utf8"));

/** The schema files by API: the Admin API, the Storefront API, a function API. */
export type ShopifyApi = "admin" | "storefront-graphql" | "functions_payment_customization";

const cache = new Map<string, GraphQLSchema>();

export function shopifySchema(api: ShopifyApi, apiVersion = SCHEMA_SOURCE.apiVersion): GraphQLSchema {
  const key = `${api}_${apiVersion}`;
  let schema = cache.get(key);
  if (!schema) {
    const json = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(SCHEMAS_DIR, `${key}.json.gz`))).toString("utf8")) as { data: IntrospectionQuery };
    schema = buildClientSchema(json.data);
    // The introspection leaves `isOneOf` out; source.json names the input types Shopify's SDL declares
    // @oneOf (e.g. a function's `Operation`), so coercion refuses two variants in one, as Shopify does.
    for (const name of SCHEMA_SOURCE.functions.find((f) => f.api === api)?.oneOf ?? []) {
      const type = schema.getType(name);
      if (type instanceof GraphQLInputObjectType) (type as { isOneOf: boolean }).isOneOf = true;
    }
    cache.set(key, schema);
  }
  return schema;
}
