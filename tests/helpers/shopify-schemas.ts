/** Shopify's published schemas for tests (the loader lives beside the fake Shopify, which uses it too). */
export { SCHEMA_SOURCE, SCHEMAS_DIR, shopifySchema, type ShopifyApi, type SchemaSource } from "../mocks/shopify/schemas";
