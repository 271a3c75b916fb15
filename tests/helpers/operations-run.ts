import { Kind, parse, type OperationDefinitionNode } from "graphql";
import * as checkoutOperations from "~/core/shopify/checkout-operations";
import * as operationsTable from "~/core/shopify/operations";

/** The operation names of the app's GraphQL documents (app/core/shopify/operations.ts and checkout-operations.ts). */
export function documentOperationNames(): string[] {
  return Object.values({ ...operationsTable, ...checkoutOperations })
    .filter((v): v is string => typeof v === "string" && v.startsWith("#graphql"))
    .map((d) => parse(d).definitions.find((x): x is OperationDefinitionNode => x.kind === Kind.OPERATION_DEFINITION)!.name!.value);
}

/** The app's documents whose operation never ran: what a run that exercised `ran` left untested. */
export function documentsNeverRun(ran: Set<string>): string[] {
  return documentOperationNames()
    .filter((name) => !ran.has(name))
    .sort();
}
