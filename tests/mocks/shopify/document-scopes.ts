import {
  getNamedType,
  isAbstractType,
  isInputObjectType,
  isObjectType,
  parse,
  typeFromAST,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  Kind,
} from "graphql";
import { shopifySchema } from "./schemas";
import { DOCUMENT_RESOURCES, INPUT_FIELD_SCOPES, resourceScopes, ROOT_FIELD_SCOPES, TYPE_SCOPES } from "./scopes";

/**
 * The access scopes one document needs, derived from what it selects, by the scope table: its root
 * fields' rows (a tags or metafields mutation: the rows of the resources it writes), every object type
 * it reaches (nested ones included), and input fields of its variables' types that need a scope of their
 * own. Each requirement is any-of, with the page it rests on; `missing` names what the table lacks.
 */
export type Requirement = { anyOf: string[]; why: string; source: string };

export function documentRequirements(api: "admin" | "storefront", document: string): { requirements: Requirement[]; missing: string[] } {
  const schema = shopifySchema(api === "admin" ? "admin" : "storefront-graphql");
  const doc = parse(document);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const requirements: Requirement[] = [];
  const missing: string[] = [];
  const need = (anyOf: string[], why: string, source: string) => anyOf.length && requirements.push({ anyOf, why, source });

  for (const s of op.selectionSet.selections) {
    if (s.kind !== Kind.FIELD || s.name.value === "__typename") continue;
    const rule = ROOT_FIELD_SCOPES[api][s.name.value];
    if (!rule) {
      missing.push(`root field ${s.name.value}`);
      continue;
    }
    if (rule.anyOf) need(rule.anyOf, `root field ${s.name.value}`, rule.source);
    else {
      const resources = DOCUMENT_RESOURCES[op.name?.value ?? ""];
      if (!resources) missing.push(`the resources ${op.name?.value} writes`);
      for (const r of resources ?? []) need(resourceScopes(r) ?? [], `${s.name.value} on ${r}`, rule.source);
    }
  }

  const typeInfo = new TypeInfo(schema);
  const reach = (name: string) => {
    const rule = TYPE_SCOPES[api][name];
    if (!rule) missing.push(`type ${name}`);
    else need(rule.anyOf, `type ${name}`, rule.source);
  };
  visit(
    doc,
    visitWithTypeInfo(typeInfo, {
      Field() {
        const type = typeInfo.getType();
        const named = type ? getNamedType(type) : null;
        if (named && (isObjectType(named) || isAbstractType(named)) && named !== schema.getQueryType() && named !== schema.getMutationType()) reach(named.name);
      },
      InlineFragment(node) {
        if (node.typeCondition) reach(node.typeCondition.name.value);
      },
    }),
  );

  for (const key of inputFieldsOf(schema, op)) {
    const rule = INPUT_FIELD_SCOPES[key];
    if (rule) need(rule.anyOf, `input ${key}`, rule.source);
  }
  return { requirements, missing };
}

/** Every `InputType.field` reachable from the operation's variables. */
function inputFieldsOf(schema: GraphQLSchema, op: OperationDefinitionNode): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const walk = (type: GraphQLInputType | undefined) => {
    const named = type ? getNamedType(type) : null;
    if (!named || !isInputObjectType(named) || seen.has(named.name)) return;
    seen.add(named.name);
    for (const f of Object.values(named.getFields())) {
      out.push(`${named.name}.${f.name}`);
      walk(f.type);
    }
  };
  for (const v of op.variableDefinitions ?? []) walk(typeFromAST(schema, v.type as never) as GraphQLInputType | undefined);
  return out;
}
