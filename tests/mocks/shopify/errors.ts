import type { GraphQLError } from "graphql";

/**
 * Shopify's wording of a refused document. Shopify runs graphql-ruby, whose static validation says
 * "Field 'notAField' doesn't exist on type 'Shop'" with `extensions.code` "undefinedField" where
 * graphql-js (which the fake validates with) says `Cannot query field "notAField" on type "Shop".`. The
 * rules the app could break are translated, each with graphql-ruby's message, code and extensions
 * (lib/graphql/static_validation/rules/*_error.rb); any other rule keeps graphql-js's message.
 */
type ShopifyError = { message: string; locations?: { line: number; column: number }[]; path?: (string | number)[]; extensions: Record<string, unknown> };

const RULES: [RegExp, (m: RegExpExecArray) => { message: string; extensions: Record<string, unknown> }][] = [
  [/^Cannot query field "(\w+)" on type "(\w+)"\./, (m) => ({ message: `Field '${m[1]}' doesn't exist on type '${m[2]}'`, extensions: { code: "undefinedField", typeName: m[2], fieldName: m[1] } })],
  [
    /^Field "(\w+)" argument "(\w+)" of type "[^"]+" is required, but it was not provided\./,
    (m) => ({ message: `Field '${m[1]}' is missing required arguments: ${m[2]}`, extensions: { code: "missingRequiredArguments", className: "Field", name: m[1], arguments: m[2] } }),
  ],
  [/^Unknown argument "(\w+)" on field "\w+\.(\w+)"\./, (m) => ({ message: `Field '${m[2]}' doesn't accept argument '${m[1]}'`, extensions: { code: "argumentNotAccepted", name: m[2], typeName: "Field", argumentName: m[1] } })],
  [
    /^Field "(\w+)" of type "([^"]+)" must have a selection of subfields\./,
    (m) => ({ message: `Field must have selections (field '${m[1]}' returns ${m[2].replace(/[[\]!]/g, "")} but has no selections. Did you mean '${m[1]} { ... }'?)`, extensions: { code: "selectionMismatch", nodeName: `field '${m[1]}'`, typeName: m[2].replace(/[[\]!]/g, "") } }),
  ],
  [
    /^Field "(\w+)" must not have a selection since type "([^"]+)" has no subfields\./,
    (m) => ({ message: `Selections can't be made on scalars (field '${m[1]}' returns ${m[2].replace(/[[\]!]/g, "")} but has selections)`, extensions: { code: "selectionMismatch", nodeName: `field '${m[1]}'`, typeName: m[2].replace(/[[\]!]/g, "") } }),
  ],
  [/^Variable "\$(\w+)" is not defined by operation "(\w+)"\./, (m) => ({ message: `Variable $${m[1]} is used by ${m[2]} but not declared`, extensions: { code: "variableNotDefined", variableName: m[1] } })],
  [/^Variable "\$(\w+)" is never used in operation "(\w+)"\./, (m) => ({ message: `Variable $${m[1]} is declared by ${m[2]} but not used`, extensions: { code: "variableNotUsed", variableName: m[1] } })],
  [
    /^Variable "\$(\w+)" of type "([^"]+)" used in position expecting type "([^"]+)"\./,
    (m) => ({
      message: `${m[2].replace(/!$/, "") === m[3].replace(/!$/, "") ? "Nullability" : "Type"} mismatch on variable $${m[1]} and argument (${m[2]} / ${m[3]})`,
      extensions: { code: "variableMismatch", variableName: m[1], typeName: m[2] },
    }),
  ],
];

export function shopifyValidationError(e: GraphQLError): ShopifyError {
  const locations = e.locations?.map((l) => ({ line: l.line, column: l.column }));
  for (const [pattern, to] of RULES) {
    const m = pattern.exec(e.message);
    if (m) return { ...to(m), ...(locations ? { locations } : {}) };
  }
  return { message: e.message, ...(locations ? { locations } : {}), extensions: { code: "validationError" } };
}

/**
 * A variable that does not coerce to its declared type, as graphql-ruby reports it: "Variable $tags of type
 * [String!]! was provided invalid value for 0" with the value and its problems (`INVALID_VARIABLE`).
 */
export function shopifyVariableError(e: GraphQLError, definitions: Map<string, string>, variables: Record<string, unknown>): ShopifyError {
  const name = /^Variable "\$(\w+)"/.exec(e.message)?.[1] ?? "";
  const at = /at "\w+((?:\[\d+\]|\.\w+)*)"/.exec(e.message)?.[1] ?? "";
  const path = [...at.matchAll(/\[(\d+)\]|\.(\w+)/g)].map((p) => (p[1] !== undefined ? Number(p[1]) : p[2]));
  const explanation = /; (.*)$/.exec(e.message)?.[1] ?? (/of required type .* was not provided/.test(e.message) ? "Expected value to not be null" : e.message);
  const locations = e.locations?.map((l) => ({ line: l.line, column: l.column }));
  return {
    message: `Variable $${name} of type ${definitions.get(name) ?? "?"} was provided invalid value${path.length ? ` for ${path.join(".")}` : ""}`,
    ...(locations ? { locations } : {}),
    extensions: { code: "INVALID_VARIABLE", value: variables[name] ?? null, problems: [{ path, explanation }] },
  };
}

/** A document that does not parse, as graphql-ruby says it ("Parse error on ... at [line, column]"). */
export function shopifyParseError(e: GraphQLError): ShopifyError {
  const l = e.locations?.[0];
  const near = /Unexpected (.*)\.$/.exec(e.message)?.[1] ?? e.message;
  return { message: `Parse error on ${near}${l ? ` at [${l.line}, ${l.column}]` : ""}`, ...(l ? { locations: [{ line: l.line, column: l.column }] } : {}), extensions: { code: "parseError" } };
}
