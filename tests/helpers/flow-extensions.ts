import fs from "node:fs";
import path from "node:path";
import { parse, validate, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { getVariableValues } from "graphql/execution/values";
import toml from "toml";
import { z, type ZodTypeAny } from "zod";
import { flowDigest, readFlowFile } from "../../scripts/lib/flow-workflow.mjs";

/**
 * The Flow extensions as Shopify reads them, written down from its published sources (docs/flow.md#sources):
 * the rules of Shopify CLI's flow_trigger, flow_action and flow_template specifications
 * (Shopify/cli packages/app/src/cli/models/extensions/specifications/flow_*.ts, services/flow/*.ts), and the
 * workflow format of a Flow export (.flow) with the Shopify tasks our templates use, each with the source its
 * task id, config field ids and ports were taken from. Held stricter than the CLI where Shopify's docs are
 * (handles of at most 30 characters, one reference field of each kind).
 */
export const ROOT = path.resolve(__dirname, "../..");
export const EXTENSIONS = path.join(ROOT, "extensions");

export type ExtensionConfig = { extensions: Record<string, unknown>[]; settings?: { fields?: Record<string, unknown>[] } };
export type Extension = { dir: string; config: ExtensionConfig };

export function loadExtensions(): Extension[] {
  return fs
    .readdirSync(EXTENSIONS)
    .filter((d) => fs.existsSync(path.join(EXTENSIONS, d, "shopify.extension.toml")))
    .map((dir) => ({ dir, config: toml.parse(fs.readFileSync(path.join(EXTENSIONS, dir, "shopify.extension.toml"), "utf8")) as ExtensionConfig }));
}

// services/flow/constants.ts
export const TRIGGER_REFERENCE_TYPES = ["customer_reference", "order_reference", "product_reference", "company_reference", "company_contact_reference"];
export const ACTION_REFERENCE_TYPES = [...TRIGGER_REFERENCE_TYPES, "marketing_activity_reference", "abandonment_reference"];
export const TRIGGER_FIELD_TYPES = ["boolean", "email", "single_line_text_field", "url", "number_decimal"];
export const ACTION_FIELD_TYPES = ["boolean", "email", "multi_line_text_field", "number_integer", "single_line_text_field", "url", "number_decimal"];
// specifications/flow_template.ts (the Flow team's own categories left out)
export const TEMPLATE_CATEGORIES = ["buyer_experience", "customers", "fulfillment", "inventory_and_merch", "loyalty", "orders", "promotion", "risk", "b2b", "payment_reminders", "custom_data", "error_monitoring"];

const handle = z
  .string()
  .min(1)
  .max(30)
  .regex(/^[a-zA-Z0-9-]*$/)
  .refine((h) => !h.startsWith("-") && !h.endsWith("-"), "a handle can't start or end with a hyphen");
const referenceField = (types: string[]) =>
  z.object({ type: z.enum(types as [string, ...string[]]), description: z.string().optional(), required: z.boolean().optional() }).strict();
// A reference field (validation.ts: strict, no key) or a typed one, told apart by its type as the CLI does.
const fieldOf = (references: string[], typed: ZodTypeAny) =>
  z.unknown().superRefine((value, ctx) => {
    const type = (value as { type?: unknown } | null)?.type;
    const result = (typeof type === "string" && type.endsWith("_reference") ? referenceField(references) : typed).safeParse(value);
    if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ ...issue, message: `${issue.path.join(".") || "field"}: ${issue.message}` } as z.IssueData);
  });
// Trigger fields: FieldSchema with key of letters and spaces; a key is required to serialize (serialize-fields.ts).
const triggerField = fieldOf(
  TRIGGER_REFERENCE_TYPES,
  z.object({ type: z.enum(TRIGGER_FIELD_TYPES as [string, ...string[]]), key: z.string().min(1).regex(/^[a-zA-Z\s]*$/), description: z.string().optional() }).strict(),
);
const actionField = fieldOf(
  ACTION_REFERENCE_TYPES,
  z.object({ type: z.enum(ACTION_FIELD_TYPES as [string, ...string[]]), key: z.string().min(1), name: z.string().min(1), description: z.string().optional(), required: z.boolean().optional() }).strict(),
);
// validation.ts validateFlowActionUrl: an absolute https URL, or a path with a single leading slash (CLI 4.2.0+).
const actionUrl = z
  .string()
  .refine((u) => !/[\r\n\t]/.test(u) && ((u.startsWith("/") && !u.startsWith("//")) || /^https:\/\/[^/]/.test(u)), "an https URL or a path starting with one slash");
const oneOfEachReference = (fields: { type: string }[]) => {
  const refs = fields.map((f) => f.type).filter((t) => t.endsWith("_reference"));
  return new Set(refs).size === refs.length;
};

export const flowTriggerConfig = z.object({
  extensions: z.tuple([z.object({ type: z.literal("flow_trigger"), name: z.string().min(1), handle, description: z.string().optional() }).strict()]),
  settings: z.object({ fields: z.array(triggerField).refine((f) => oneOfEachReference(f as { type: string }[]), "one reference field of each kind") }).strict(),
});

export const flowActionConfig = z.object({
  extensions: z.tuple([
    z
      .object({
        type: z.literal("flow_action"),
        name: z.string().min(1),
        handle,
        description: z.string().optional(),
        runtime_url: actionUrl,
        validation_url: actionUrl.optional(),
        config_page_url: actionUrl.optional(),
        config_page_preview_url: actionUrl.optional(),
        schema: z.string().optional(),
        return_type_ref: z.string().optional(),
      })
      .strict()
      // validateCustomConfigurationPageConfig: a config page needs its preview and a validation URL.
      .refine((e) => (!e.config_page_url && !e.config_page_preview_url) || (e.config_page_url && e.config_page_preview_url && e.validation_url), "config page without its preview and validation_url")
      // validateReturnTypeConfig: a schema and its return type go together.
      .refine((e) => Boolean(e.schema) === Boolean(e.return_type_ref), "schema and return_type_ref go together"),
  ]),
  settings: z.object({ fields: z.array(actionField).refine((f) => oneOfEachReference(f as { type: string }[]), "one reference field of each kind") }).strict(),
});

export const flowTemplateConfig = z.object({
  extensions: z.tuple([
    z
      .object({
        type: z.literal("flow_template"),
        name: z.string().min(1),
        handle,
        description: z.string().max(1024),
        template: z
          .object({
            categories: z.array(z.enum(TEMPLATE_CATEGORIES as [string, ...string[]])).min(1),
            module: z.string().min(1),
            require_app: z.boolean().optional(),
            discoverable: z.boolean().optional(),
            allow_one_click_activate: z.boolean().optional(),
            enabled: z.boolean().optional(),
          })
          .strict(),
      })
      .strict(),
  ]),
});

/** What the CLI's loadLocalesConfig and Flow's `t:` keys would refuse in a template's folder, or []. */
export function templateLocaleProblems(dir: string, ext: { name: string; description: string }): string[] {
  const folder = path.join(EXTENSIONS, dir, "locales");
  const files = fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.endsWith(".json")) : [];
  const translated = [ext.name, ext.description].filter((v) => v.startsWith("t:"));
  if (!files.length) return translated.length ? [`${dir}: ${translated.join(", ")} without a locales/ folder`] : [];
  const defaults = files.filter((f) => f.endsWith(".default.json"));
  if (defaults.length !== 1) return [`${dir}: locales/ needs exactly one *.default.json, has ${defaults.length}`];
  const problems: string[] = [];
  for (const f of files) if (!fs.statSync(path.join(folder, f)).size) problems.push(`${dir}: locales/${f} is empty`);
  const strings = JSON.parse(fs.readFileSync(path.join(folder, defaults[0]), "utf8")) as Record<string, unknown>;
  for (const key of translated.map((v) => v.slice(2))) {
    if (typeof strings[key] !== "string" || !(strings[key] as string).length) problems.push(`${dir}: ${defaults[0]} has no "${key}"`);
  }
  if (typeof strings.description === "string" && strings.description.length > 1024) problems.push(`${dir}: description over 1024 characters`);
  return problems;
}

// ---- The workflow file (.flow) ----

const step = z
  .object({
    step_id: z.string().min(1),
    step_position: z.tuple([z.number(), z.number()]),
    config_field_values: z.array(z.object({ config_field_id: z.string().min(1), value: z.string() }).strict()),
    task_id: z.string().min(1),
    task_version: z.string().min(1),
    task_type: z.enum(["TRIGGER", "ACTION", "CONDITION", "FOREACH", "WAIT"]),
    description: z.string().nullable(),
    note: z.string().nullable(),
    name: z.string().nullable(),
  })
  .strict();
// Root keys as in a 2026-03 export (docs/flow.md#sources).
export const flowWorkflow = z
  .object({
    __metadata: z.object({ version: z.literal(0.1) }).strict(),
    root: z
      .object({
        steps: z.array(step).min(2),
        links: z.array(z.object({ from_step_id: z.string(), from_port_id: z.string(), to_step_id: z.string(), to_port_id: z.string() }).strict()),
        patched_fields: z.array(z.unknown()),
        variables: z.array(z.unknown()),
        note: z.string().nullable(),
        vertical_layout_enabled: z.boolean().optional(),
        workflow_name: z.string().min(1),
      })
      .strict(),
  })
  .strict();
type Step = z.infer<typeof step>;

const PORTS: Record<Step["task_type"], string[]> = { TRIGGER: ["output"], ACTION: ["output"], CONDITION: ["true", "false"], FOREACH: ["loop_body", "after"], WAIT: ["output"] };

type ShopifyTask = { type: Step["task_type"]; version: string; fields: string[]; source: string };
/** The Shopify tasks a template may use: the ones whose id, version and config field ids have a published source. */
export const SHOPIFY_TASKS: Record<string, ShopifyTask> = {
  "shopify::admin::add_order_tags": { type: "ACTION", version: "0.1", fields: ["order_id", "tags"], source: "real export, aghorilabs/shopify-order-payment-gateway-tagger" },
  "shopify::flow::condition": { type: "CONDITION", version: "0.1", fields: ["condition"], source: "real exports (2024-04, 2026-03)" },
  "shopify::flow::foreach": { type: "FOREACH", version: "0.1", fields: ["listpath"], source: "Shopify-AI-Toolkit special-tasks" },
  "shopify::admin::admin_api_operation": { type: "ACTION", version: "0.1", fields: ["api_call"], source: "Shopify-AI-Toolkit special-tasks (id, api_call); version not published" },
  "shopify::flow::send_email": { type: "ACTION", version: "0.1", fields: ["address", "subject", "message"], source: "Shopify-AI-Toolkit special-tasks (id); field ids from a third-party generated workflow" },
};

/**
 * How a template's workflow names one of the app's own triggers and actions. Not published anywhere we could
 * find (docs/flow.md, "not verified"): the one id of the files an export from a development store must confirm.
 */
export const appTaskId = (extensionHandle: string) => `cod-verify::${extensionHandle}`;

/** Flow's Liquid name of a trigger field: its key in camelCase (as Flow names Admin API fields). */
export const liquidName = (key: string) =>
  key
    .trim()
    .split(/\s+/)
    .map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w[0].toLowerCase() + w.slice(1)))
    .join("");

export type AppTasks = { triggers: Map<string, { type: string; key?: string }[]>; actions: Set<string> };

/** Every {{ ... }} and condition path's first name in a value. */
function variableRoots(value: string): string[] {
  const roots = [...value.matchAll(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);
  for (const m of value.matchAll(/"full_environment_path":"([A-Za-z_][A-Za-z0-9_]*)/g)) roots.push(m[1]);
  return roots;
}

/** The mutation a Send Admin API request step names, with its blob (Liquid filled in), checked against the schema. */
function adminApiCallProblems(schema: GraphQLSchema, value: string): string[] {
  const parsed = z.object({ name: z.string().min(1), blob: z.string() }).strict().safeParse(JSON.parse(value));
  if (!parsed.success) return [`api_call is not {name, blob}: ${parsed.error.message}`];
  const field = schema.getMutationType()?.getFields()[parsed.data.name];
  if (!field) return [`the Admin API has no mutation ${parsed.data.name}`];
  const args = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(", ");
  const doc = parse(`mutation M(${args}) { ${field.name}(${field.args.map((a) => `${a.name}: $${a.name}`).join(", ")}) { userErrors { message } } }`);
  const invalid = validate(schema, doc).map((e) => e.message);
  if (invalid.length) return invalid;
  const variables = JSON.parse(parsed.data.blob.replace(/\{\{[^}]*\}\}/g, "1")) as Record<string, unknown>;
  const op = doc.definitions[0] as OperationDefinitionNode;
  return getVariableValues(schema, op.variableDefinitions ?? [], variables).errors?.map((e) => e.message) ?? [];
}

/** What is wrong with a template.flow's text, or []: its seal, its shape, its steps, links, variables and API calls. */
export function flowFileProblems(text: string, app: AppTasks, schema: GraphQLSchema): string[] {
  const { prefix, body, workflow } = readFlowFile(text);
  const problems: string[] = [];
  if (prefix !== flowDigest(body)) problems.push("the prefix is not the SHA-256 of the workflow (npm run flow:seal)");
  if (JSON.stringify(workflow) !== body) problems.push("the workflow is not compact JSON as Flow exports it (npm run flow:seal)");
  const shape = flowWorkflow.safeParse(workflow);
  if (!shape.success) return [...problems, ...shape.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`)];
  const { steps, links } = shape.data.root;
  const byId = new Map(steps.map((s) => [s.step_id, s]));
  if (byId.size !== steps.length) problems.push("step ids are not unique");

  const triggers = steps.filter((s) => s.task_type === "TRIGGER");
  if (triggers.length !== 1) return [...problems, `${triggers.length} triggers, not one`];
  const trigger = triggers[0];
  const triggerHandle = [...app.triggers.keys()].find((h) => appTaskId(h) === trigger.task_id);
  if (!triggerHandle) problems.push(`the trigger ${trigger.task_id} is none of the app's flow_trigger extensions`);
  if (trigger.config_field_values.length) problems.push("the trigger step has config values");

  for (const s of steps.filter((x) => x !== trigger)) {
    const known = SHOPIFY_TASKS[s.task_id];
    if (known) {
      if (known.type !== s.task_type || known.version !== s.task_version) problems.push(`${s.task_id}: ${s.task_type}@${s.task_version}, not ${known.type}@${known.version}`);
      const ids = s.config_field_values.map((c) => c.config_field_id).sort();
      if (JSON.stringify(ids) !== JSON.stringify([...known.fields].sort())) problems.push(`${s.task_id}: config fields ${ids.join(",")}, not ${known.fields.join(",")}`);
    } else if (![...app.actions].some((h) => appTaskId(h) === s.task_id) || s.task_type !== "ACTION") {
      problems.push(`${s.task_id} is neither a Shopify task with a source nor one of the app's flow_action extensions`);
    }
  }

  const next = new Map<string, { port: string; to: string }[]>();
  for (const l of links) {
    const from = byId.get(l.from_step_id);
    if (!from || !byId.has(l.to_step_id)) {
      problems.push(`a link joins a step that does not exist (${l.from_step_id} -> ${l.to_step_id})`);
      continue;
    }
    if (l.to_port_id !== "input") problems.push(`a link ends on port ${l.to_port_id}, not input`);
    if (!PORTS[from.task_type].includes(l.from_port_id)) problems.push(`a ${from.task_type} has no port ${l.from_port_id}`);
    next.set(l.from_step_id, [...(next.get(l.from_step_id) ?? []), { port: l.from_port_id, to: l.to_step_id }]);
  }

  // Walk from the trigger, carrying the variables each step can see: the shop, the trigger's order and fields,
  // and a ForEach's item only inside its loop body.
  const triggerFields = (triggerHandle && app.triggers.get(triggerHandle)) || [];
  const base = new Set(["shop", ...triggerFields.map((f) => (f.type === "order_reference" ? "order" : f.key ? liquidName(f.key) : "")).filter(Boolean)]);
  const seen = new Set<string>();
  const walk = (id: string, scope: Set<string>) => {
    if (seen.has(id)) return;
    seen.add(id);
    const s = byId.get(id)!;
    for (const c of s.config_field_values) {
      const roots = c.config_field_id === "listpath" ? [c.value.split(".")[0]] : variableRoots(c.value);
      for (const r of roots) if (!scope.has(r)) problems.push(`${s.task_id}.${c.config_field_id} uses "${r}", which this step cannot see`);
      if (s.task_id === "shopify::admin::admin_api_operation" && c.config_field_id === "api_call") problems.push(...adminApiCallProblems(schema, c.value));
      if (c.config_field_id === "tags" && !z.array(z.string().min(1)).min(1).safeParse(JSON.parse(c.value)).success) problems.push("tags is not a JSON list of tags");
    }
    for (const { port, to } of next.get(id) ?? []) {
      const item = s.task_type === "FOREACH" && port === "loop_body" ? `${s.config_field_values.find((c) => c.config_field_id === "listpath")?.value.split(".").pop()}Foreachitem` : null;
      walk(to, item ? new Set([...scope, item]) : scope);
    }
  };
  walk(trigger.step_id, base);
  for (const s of steps) if (!seen.has(s.step_id)) problems.push(`${s.task_id} (${s.step_id}) is not reachable from the trigger`);
  return problems;
}
