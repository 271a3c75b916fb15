import {
  execute,
  getArgumentValues,
  getVariableValues,
  getOperationAST,
  getNamedType,
  isAbstractType,
  isNonNullType,
  isObjectType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  GraphQLError,
  Kind,
  parse,
  print,
  validate,
  type DocumentNode,
  type FieldNode,
  type GraphQLObjectType,
  type OperationDefinitionNode,
} from "graphql";
import { shopifyParseError, shopifyValidationError, shopifyVariableError } from "./errors";
import { findShopifySchema, requestedScopes } from "./schemas";
import { describeAccess, DOCUMENT_RESOURCES, effectiveScopes, requiredAccess, TYPE_SCOPES } from "./scopes";

/**
 * Shopify's rules for one GraphQL request, as its Admin and Storefront APIs apply them before running
 * anything: the document must parse and validate against the published schema of the version in the
 * URL; the variables are coerced by the operation's definitions (graphql's `getVariableValues`, what
 * Shopify's executor does); every root field needs the access scope its reference page names, checked
 * against the scopes the app requests (shopify.app.toml). A refusal is answered with Shopify's shapes:
 * validation and variable errors as `{ errors }` with no data; a missing scope as `ACCESS_DENIED` on the
 * field, the field null, HTTP 200.
 */
export type Refusal = { api: "admin" | "storefront"; operationName: string | null; reason: string; query: string; variables: unknown };

export type Checked =
  | { ok: true; document: DocumentNode; operation: OperationDefinitionNode }
  | { ok: false; body: { data?: unknown; errors: unknown[] }; reason: string };

const DOCS = "https://shopify.dev/api/usage/access-scopes";
let granted: Set<string> | null = null;

/** The scopes the fake grants (the app's requested ones); tests of a refusal may narrow them. */
export function grantedScopes(): Set<string> {
  granted ??= effectiveScopes(requestedScopes());
  return granted;
}

export function setGrantedScopes(scopes: string[] | null): void {
  granted = scopes ? effectiveScopes(scopes) : null;
}

/**
 * Builds the Admin and Storefront schemas and warms graphql's lazy maps (about 2 s on a loaded machine),
 * so the first request a test sends is not slowed past the app's call bound. FakeShopify.start() calls it.
 */
export function warmUpSchemas(apiVersion: string): void {
  for (const api of ["admin", "storefront-graphql"] as const) {
    const schema = findShopifySchema(api, apiVersion);
    if (schema) validate(schema, parse("{ __typename }"));
  }
}

export function checkRequest(
  api: "admin" | "storefront",
  apiVersion: string,
  query: string,
  variables: Record<string, unknown> | null | undefined,
  operationName: string | null,
): Checked {
  const schema = findShopifySchema(api === "admin" ? "admin" : "storefront-graphql", apiVersion);
  if (!schema) {
    // Shopify answers an unknown or retired version by falling back; the fake holds only the committed one.
    return { ok: false, reason: `no ${api} schema for API version ${apiVersion} in shopify-schemas/`, body: { errors: [{ message: `API version ${apiVersion} is not the one whose schema the fake holds` }] } };
  }
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    const e = error as GraphQLError;
    const refused = shopifyParseError(e);
    return { ok: false, reason: `syntax: ${refused.message}`, body: { errors: [refused] } };
  }
  const invalid = validate(schema, document);
  if (invalid.length) {
    const errors = invalid.map(shopifyValidationError);
    return { ok: false, reason: `invalid against the ${api} ${apiVersion} schema: ${errors.map((e) => e.message).join("; ")}`, body: { errors } };
  }
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) {
    return { ok: false, reason: `no operation named ${operationName}`, body: { errors: [{ message: `An operation name is required` }] } };
  }
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  if (coerced.errors) {
    const declared = new Map((operation.variableDefinitions ?? []).map((d) => [d.variable.name.value, print(d.type)]));
    const errors = coerced.errors.map((e) => shopifyVariableError(e, declared, variables ?? {}));
    return { ok: false, reason: `variables: ${errors.map((e) => `${e.message} (${JSON.stringify(e.extensions.problems)})`).join("; ")}`, body: { errors } };
  }
  // Scopes, per root field (fragments spread at the root included).
  const root = (operation.operation === "mutation" ? schema.getMutationType() : schema.getQueryType()) as GraphQLObjectType;
  const scopes = grantedScopes();
  const denied: unknown[] = [];
  const reasons: string[] = [];
  for (const node of rootFields(document, operation)) {
    const field = root.getFields()[node.name.value];
    const args = getArgumentValues(field, node, coerced.coerced);
    const need = requiredAccess(api, node.name.value, args);
    if ("unknown" in need) {
      reasons.push(need.unknown);
      denied.push({ message: `fake Shopify: ${need.unknown}`, path: [node.alias?.value ?? node.name.value] });
      continue;
    }
    const unlisted = unlistedResource(operationName, args);
    if (unlisted) {
      reasons.push(unlisted);
      denied.push({ message: `fake Shopify: ${unlisted}`, path: [node.alias?.value ?? node.name.value] });
      continue;
    }
    const missing = need.requirements.find((anyOf) => !anyOf.some((s) => scopes.has(s)));
    if (missing) {
      const requiredAccessText = describeAccess(missing);
      reasons.push(`${node.name.value} needs ${requiredAccessText} (${need.source})`);
      denied.push({
        message: `Access denied for ${node.name.value} field. Required access: ${requiredAccessText}`,
        locations: node.loc ? [{ line: node.loc.startToken.line, column: node.loc.startToken.column }] : undefined,
        extensions: { code: "ACCESS_DENIED", documentation: DOCS, requiredAccess: requiredAccessText },
        path: [node.alias?.value ?? node.name.value],
      });
    }
  }
  if (denied.length) {
    return { ok: false, reason: `access: ${reasons.join("; ")}`, body: { data: deniedData(root, rootFields(document, operation)), errors: denied } };
  }
  // Nested fields of a type that needs a scope of its own. Shopify nulls such a field in place; the fake
  // answers the whole request with data null and the error at the field's path (list indices left out).
  const nested = nestedDenials(schema, document, api, scopes);
  if (nested.length) {
    return {
      ok: false,
      reason: `access: ${nested.map((n) => `${n.path.join(".")} needs ${n.access} (${n.source})`).join("; ")}`,
      body: {
        data: null,
        errors: nested.map((n) =>
          n.unknown
            ? { message: `fake Shopify: no scope row for the type at ${n.path.join(".")} (${n.source}): it cannot answer what Shopify would`, path: n.path }
            : {
                message: `Access denied for ${n.path[n.path.length - 1]} field. Required access: ${n.access}`,
                extensions: { code: "ACCESS_DENIED", documentation: DOCS, requiredAccess: n.access },
                path: n.path,
              },
        ),
      },
    };
  }
  return { ok: true, document, operation };
}

/**
 * Fields of the document whose type needs a scope the grant lacks (TYPE_SCOPES), and fields whose type
 * has no row in that table (`unknown`: the fake cannot say what Shopify would require, so it refuses).
 */
export function nestedDenials(schema: import("graphql").GraphQLSchema, document: DocumentNode, api: "admin" | "storefront", scopes: Set<string>) {
  const typeInfo = new TypeInfo(schema);
  const out: { path: string[]; access: string; source: string; unknown?: boolean }[] = [];
  const path: string[] = [];
  const check = (typeName: string) => {
    const rule = TYPE_SCOPES[api][typeName];
    if (!rule) out.push({ path: [...path], access: `a row for ${typeName}`, source: "tests/mocks/shopify/type-scopes.ts", unknown: true });
    else if (rule.anyOf.length && !rule.anyOf.some((s) => scopes.has(s))) out.push({ path: [...path], access: describeAccess(rule.anyOf), source: rule.source });
  };
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(node) {
          path.push(node.alias?.value ?? node.name.value);
          const type = typeInfo.getType();
          const named = type ? getNamedType(type) : null;
          if (named && (isObjectType(named) || isAbstractType(named))) check(named.name);
        },
        leave() {
          path.pop();
        },
      },
      // `... on ProductVariant { id }` under a union reaches that type too.
      InlineFragment: {
        enter(node) {
          if (node.typeCondition) check(node.typeCondition.name.value);
        },
      },
    }),
  );
  return out;
}

/** A tags or metafields document writing a resource its row in DOCUMENT_RESOURCES does not list. */
function unlistedResource(operationName: string | null, args: Record<string, unknown>): string | null {
  const listed = operationName ? DOCUMENT_RESOURCES[operationName] : undefined;
  if (!listed) return null;
  const values = args.metafields ? (args.metafields as { ownerId?: unknown }[]).map((m) => m.ownerId) : [args.id];
  for (const id of values) {
    const type = typeof id === "string" ? /^gid:\/\/shopify\/([A-Za-z]+)\//.exec(id)?.[1] : undefined;
    if (!type || !listed.includes(type)) return `${operationName} writes ${String(id)}, a resource its row does not list (tests/mocks/shopify/scopes.ts DOCUMENT_RESOURCES)`;
  }
  return null;
}

function rootFields(document: DocumentNode, operation: OperationDefinitionNode): FieldNode[] {
  const fragments = new Map(document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const out: FieldNode[] = [];
  const walk = (selections: readonly import("graphql").SelectionNode[]) => {
    for (const s of selections) {
      if (s.kind === Kind.FIELD) {
        if (s.name.value !== "__typename") out.push(s);
      } else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet.selections);
      else {
        const f = fragments.get(s.name.value);
        if (f) walk(f.selectionSet.selections);
      }
    }
  };
  walk(operation.selectionSet.selections);
  return out;
}

/** The `data` of a refused request: every root field null; all of it null when one of them is non-null (GraphQL's propagation). */
function deniedData(root: GraphQLObjectType, fields: FieldNode[]): Record<string, null> | null {
  const data: Record<string, null> = {};
  for (const node of fields) {
    if (isNonNullType(root.getFields()[node.name.value].type)) return null;
    data[node.alias?.value ?? node.name.value] = null;
  }
  return data;
}

/**
 * Shapes the fake's answer to the operation's selection under the schema, as Shopify would send it:
 * only the fields asked for, under their aliases, scalars serialized by their types. Returns the
 * problems too: a non-null field the answer lacks, a value of the wrong type (the fake's own fault).
 */
export function shapeAnswer(
  api: "admin" | "storefront",
  apiVersion: string,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  data: unknown,
): { data: unknown; problems: string[] } {
  const schema = findShopifySchema(api === "admin" ? "admin" : "storefront-graphql", apiVersion)!;
  const result = execute({
    schema,
    document,
    operationName: operation.name?.value,
    rootValue: data ?? {},
    variableValues: variables,
    fieldResolver: (source, _args, _ctx, info) => {
      const s = source as Record<string, unknown>;
      const key = info.path.key as string;
      return key in s ? s[key] : s[info.fieldName];
    },
    typeResolver: (value, _ctx, info, abstractType) => {
      const v = value as { __typename?: string; id?: unknown };
      if (v?.__typename) return v.__typename;
      const fromId = typeof v?.id === "string" ? /^gid:\/\/shopify\/([A-Za-z]+)\//.exec(v.id)?.[1] : undefined;
      const possible = info.schema.getPossibleTypes(abstractType).map((t) => t.name);
      if (fromId && possible.includes(fromId)) return fromId;
      // Otherwise the first concrete type that has every field the answer carries (an answer without
      // __typename for `... on DiscountCodeApplication { code }` has `code`, which only that type has).
      const keys = Object.keys((value ?? {}) as object).filter((k) => k !== "__typename");
      const fits = info.schema.getPossibleTypes(abstractType).filter((t) => keys.every((k) => k in t.getFields()));
      return (fits[0] ?? info.schema.getPossibleTypes(abstractType)[0])?.name;
    },
  }) as { data?: unknown; errors?: readonly GraphQLError[] };
  return { data: result.data ?? null, problems: (result.errors ?? []).map((e) => `${e.path?.join(".") ?? ""}: ${e.message}`) };
}
