import fs from "node:fs";
import path from "node:path";
import { Kind, parse, type OperationDefinitionNode } from "graphql";
import * as checkoutOperations from "~/core/shopify/checkout-operations";
import * as operationsTable from "~/core/shopify/operations";

/**
 * The app's GraphQL documents (app/core/shopify/operations.ts and checkout-operations.ts: each written
 * once), with the operation name each declares and the API it goes to, read from the code that sends it
 * (`shopifyGraphql("storefront", shop, CART_CREATE, ...)`; a document passed through a variable goes to
 * the Admin API, the only one with such wrappers).
 */
export const APP_DIR = path.resolve(__dirname, "../../app");

export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

export const operations = { ...operationsTable, ...checkoutOperations };
export const DOCUMENTS = Object.entries(operations).filter((e): e is [string, string] => typeof e[1] === "string" && e[1].startsWith("#graphql"));

export function apisByDocument(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const file of sourceFiles(APP_DIR)) {
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(/shopifyGraphql(?:<[^>]*>)?\(\s*"(admin|storefront)",\s*[^,]+,\s*([A-Za-z_$][\w$]*)/g)) {
      const set = out.get(m[2]) ?? new Set<string>();
      set.add(m[1]);
      out.set(m[2], set);
    }
  }
  return out;
}

export type AppDocument = { constant: string; operationName: string; api: "admin" | "storefront"; document: string };

/** Every document with its operation name and API. */
export function appDocuments(): AppDocument[] {
  const apis = apisByDocument();
  return DOCUMENTS.map(([constant, document]) => {
    const op = parse(document).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    return { constant, operationName: op.name!.value, api: apis.get(constant)?.has("storefront") ? "storefront" : "admin", document };
  });
}
