import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { coerceInputValue, execute, parse, type DocumentNode, type GraphQLInputObjectType, type GraphQLSchema } from "graphql";
import {
  cartPaymentMethodsTransformRun,
  type CartPaymentMethodsTransformRunInput as RunInput,
  type CartPaymentMethodsTransformRunResult,
} from "../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";
import { shopifySchema } from "./shopify-schemas";

/**
 * The payment customization function run as Shopify would: its input must be what the input query
 * (src/cart_payment_methods_transform_run.graphql) returns under Shopify's published schema, and its output
 * must coerce to the schema's `CartPaymentMethodsTransformRunResult` (`Operation` one-of, as Shopify declares it).
 */
export const FUNCTION_DIR = path.resolve(__dirname, "../../extensions/cod-payment-customization");
export const QUERY_FILE = "src/cart_payment_methods_transform_run.graphql";

let loaded: { schema: GraphQLSchema; document: DocumentNode } | null = null;
export function functionSchema(): GraphQLSchema {
  loaded ??= { schema: shopifySchema("functions_payment_customization"), document: parse(fs.readFileSync(path.join(FUNCTION_DIR, QUERY_FILE), "utf8")) };
  return loaded.schema;
}

/** Coerces `value` to the schema's output type; returns the errors (none when it is valid output). */
export function outputErrors(value: unknown): string[] {
  const type = functionSchema().getType("CartPaymentMethodsTransformRunResult") as GraphQLInputObjectType;
  const errors: string[] = [];
  coerceInputValue(value, type, (p, _v, error) => errors.push(`${p.join(".")}: ${error.message}`));
  return errors;
}

/** The errors of `value` as the function's input: not what the query returns under the schema. */
export function inputErrors(value: RunInput): string[] {
  const schema = functionSchema();
  const executed = execute({
    schema,
    document: loaded!.document,
    rootValue: value,
    fieldResolver: (source, _args, _ctx, info) => (source as Record<string, unknown>)[info.path.key as string],
  }) as { data?: unknown; errors?: readonly Error[] };
  const errors = executed.errors?.map((e) => e.message) ?? [];
  const plain = (v: unknown) => JSON.parse(JSON.stringify(v ?? null)) as unknown;
  if (!isDeepStrictEqual(plain(executed.data), plain(value))) errors.push("the query does not return this input");
  return errors;
}

/** Runs the function on a checked input and checks its output. */
export function runChecked(value: RunInput): CartPaymentMethodsTransformRunResult {
  expect(inputErrors(value)).toEqual([]);
  const out = cartPaymentMethodsTransformRun(value);
  expect(outputErrors(out)).toEqual([]);
  return out;
}
