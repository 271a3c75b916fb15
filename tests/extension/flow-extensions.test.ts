import fs from "node:fs";
import path from "node:path";
import { parse, validate, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { getVariableValues } from "graphql/execution/values";
import toml from "toml";
import type { ZodTypeAny } from "zod";
import { FLOW_TRIGGERS } from "~/core/flow/triggers";
import { FLOW_ACTIONS } from "~/orders/flow-actions.server";
import {
  DELIVERY_ANSWER_METAFIELD,
  FLOW_TRIGGER_RECEIVE,
  ORDER_BALANCE_DUE,
  ORDER_NOTE,
  ORDER_NOTE_UPDATE,
  SHOP_DETAILS,
  TAGS_ADD,
} from "~/core/shopify/operations";
import { readFlowFile, sealFlowWorkflow } from "../../scripts/lib/flow-workflow.mjs";
import {
  appTaskId,
  EXTENSIONS,
  flowActionConfig,
  flowFileProblems,
  flowTemplateConfig,
  flowTriggerConfig,
  flowWorkflow,
  loadExtensions,
  ROOT,
  templateLocaleProblems,
  type AppTasks,
  type Extension,
} from "../helpers/flow-extensions";
import { deployedFlowTriggers, flowTriggerProblems } from "../mocks/shopify/flow";
import { shopifySchema } from "../mocks/shopify/schemas";

/**
 * The Flow extensions held to Shopify's published rules (tests/helpers/flow-extensions.ts says which: the CLI's
 * flow_trigger, flow_action and flow_template specifications, and the workflow format of a Flow export) and to
 * the app's own lists; and the Admin API documents of Flow and of the delivery room checked against Shopify's
 * published 2026-10 schema (shopify-schemas/) with the variables the app sends, as Shopify checks them.
 */
const extensions = loadExtensions();
const ofType = (type: string) => extensions.filter((e) => e.config.extensions?.[0]?.type === type);
const refusal = (schema: ZodTypeAny, config: unknown) => {
  const r = schema.safeParse(config);
  return r.success ? null : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
};
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe("flow_trigger extensions", () => {
  it("are each what Shopify's CLI accepts: a handle, a name, reference and typed fields with letter-and-space keys", () => {
    expect(ofType("flow_trigger").length).toBe(Object.keys(FLOW_TRIGGERS).length);
    for (const e of ofType("flow_trigger")) expect(refusal(flowTriggerConfig, e.config), e.dir).toBeNull();
  });

  it("are exactly app/core/flow/triggers.ts's triggers: handle, an order reference, then each field with its type", () => {
    const deployed = ofType("flow_trigger").map((e) => ({ handle: e.config.extensions[0].handle, fields: e.config.settings?.fields ?? [] }));
    expect(deployed.map((d) => d.handle).sort()).toEqual(Object.values(FLOW_TRIGGERS).map((t) => t.handle).sort());
    for (const trigger of Object.values(FLOW_TRIGGERS)) {
      const d = deployed.find((x) => x.handle === trigger.handle)!;
      expect(d.fields.map((f) => [f.type, f.key ?? null]), trigger.handle).toEqual([["order_reference", null], ...Object.entries(trigger.fields).map(([k, t]) => [t, k])]);
    }
  });

  it("the check is real: a type Flow triggers do not take, a key with digits, a second order reference, a long handle", () => {
    const base = ofType("flow_trigger").find((e) => e.config.extensions[0].handle === FLOW_TRIGGERS.highRisk.handle)!.config;
    const withField = (f: Record<string, unknown>) => ({ ...base, settings: { fields: [...(base.settings?.fields ?? []), f] } });
    expect(refusal(flowTriggerConfig, withField({ type: "number_integer", key: "attempts" }))).toMatch(/type/);
    expect(refusal(flowTriggerConfig, withField({ type: "multi_line_text_field", key: "notes" }))).toMatch(/type/);
    expect(refusal(flowTriggerConfig, withField({ type: "single_line_text_field", key: "risk_score2" }))).toMatch(/key/);
    expect(refusal(flowTriggerConfig, withField({ type: "single_line_text_field" }))).toMatch(/key/);
    expect(refusal(flowTriggerConfig, withField({ type: "order_reference" }))).toMatch(/one reference field of each kind/);
    expect(refusal(flowTriggerConfig, { ...base, extensions: [{ ...base.extensions[0], handle: "x".repeat(31) }] })).toMatch(/handle/);
    expect(refusal(flowTriggerConfig, { ...base, extensions: [{ ...base.extensions[0], name: undefined }] })).toMatch(/name/);
  });
});

describe("flow_action extensions", () => {
  it("are each what Shopify's CLI accepts, with a required order reference", () => {
    for (const e of ofType("flow_action")) {
      expect(refusal(flowActionConfig, e.config), e.dir).toBeNull();
      expect(e.config.settings?.fields).toEqual([{ type: "order_reference", required: true }]);
    }
  });

  it("point each action at its route, relative to the app's URL (the CLI prepends application_url)", () => {
    const app = toml.parse(fs.readFileSync(path.join(ROOT, "shopify.app.toml"), "utf8")) as { application_url: string };
    const actions = ofType("flow_action").map((e) => e.config.extensions[0] as { handle: string; runtime_url: string });
    expect(actions.map((a) => a.handle).sort()).toEqual(Object.values(FLOW_ACTIONS).sort());
    for (const [route, handle] of Object.entries(FLOW_ACTIONS)) {
      const a = actions.find((x) => x.handle === handle)!;
      expect(a.runtime_url).toBe(`/flow/actions/${route}`);
      expect(new URL(a.runtime_url, app.application_url).protocol).toBe("https:");
    }
    expect(fs.existsSync(path.join(ROOT, "app/routes/flow.actions.$action.ts"))).toBe(true);
  });

  it("the check is real: an http or protocol-relative URL, a field without its name, a config page alone", () => {
    const base = ofType("flow_action")[0].config;
    const ext = (patch: Record<string, unknown>) => ({ ...base, extensions: [{ ...base.extensions[0], ...patch }] });
    expect(refusal(flowActionConfig, ext({ runtime_url: "http://cod-verify.example.com/flow/actions/block-phone" }))).toMatch(/https/);
    expect(refusal(flowActionConfig, ext({ runtime_url: "//cod-verify.example.com/x" }))).toMatch(/https/);
    expect(refusal(flowActionConfig, ext({ runtime_url: undefined }))).toMatch(/runtime_url/);
    expect(refusal(flowActionConfig, ext({ config_page_url: "/flow/config" }))).toMatch(/config page/);
    expect(refusal(flowActionConfig, { ...base, settings: { fields: [{ type: "single_line_text_field", key: "note" }] } })).toMatch(/name/);
    expect(refusal(flowActionConfig, { ...base, settings: { fields: [{ type: "date", key: "day", name: "Day" }] } })).toMatch(/type/);
  });
});

describe("flow_template extensions", () => {
  const templates = ofType("flow_template");
  let schema: GraphQLSchema;
  let app: AppTasks;
  beforeAll(() => {
    schema = shopifySchema("admin");
    app = {
      triggers: new Map(ofType("flow_trigger").map((e) => [e.config.extensions[0].handle as string, (e.config.settings?.fields ?? []) as { type: string; key?: string }[]])),
      actions: new Set(ofType("flow_action").map((e) => e.config.extensions[0].handle as string)),
    };
  });
  const flowText = (t: Extension) => fs.readFileSync(path.join(EXTENSIONS, t.dir, (t.config.extensions[0] as { template: { module: string } }).template.module), "utf8");

  it("are each what Shopify's CLI accepts, named from locales/ with a default locale, visible to merchants without the app", () => {
    expect(templates.map((t) => t.config.extensions[0].handle).sort()).toEqual(["cod-failed-delivery-notify", "cod-high-risk-hold-email"]);
    for (const t of templates) {
      expect(refusal(flowTemplateConfig, t.config), t.dir).toBeNull();
      const ext = t.config.extensions[0] as { name: string; description: string; template: { require_app: boolean } };
      expect(templateLocaleProblems(t.dir, ext)).toEqual([]);
      expect(ext.template.require_app).toBe(false);
    }
  });

  it("each ship a sealed Flow export whose trigger is one of the app's and whose every step, link, variable and API call checks out", () => {
    for (const t of templates) expect(flowFileProblems(flowText(t), app, schema), t.dir).toEqual([]);
    const triggerOf = (t: Extension) => flowWorkflow.parse(readFlowFile(flowText(t)).workflow).root.steps.find((s) => s.task_type === "TRIGGER")!.task_id;
    expect(templates.map(triggerOf).sort()).toEqual([appTaskId(FLOW_TRIGGERS.deliveryFailed.handle), appTaskId(FLOW_TRIGGERS.highRisk.handle)].sort());
  });

  it("the check is real: an edit left unsealed, a task without a source, a trigger not ours, a wrong port, an out-of-scope variable, a bad API call", () => {
    const highRisk = templates.find((t) => t.config.extensions[0].handle === "cod-high-risk-hold-email")!;
    const original = flowWorkflow.parse(readFlowFile(flowText(highRisk)).workflow);
    const problemsAfter = (edit: (w: typeof original) => void, seal = true) => {
      const w = clone(original);
      edit(w);
      return flowFileProblems(seal ? sealFlowWorkflow(w) : `${readFlowFile(flowText(highRisk)).prefix}:${JSON.stringify(w)}`, app, schema).join("\n");
    };
    const step = (w: typeof original, task: string) => w.root.steps.find((s) => s.task_id === task)!;
    expect(problemsAfter(() => {})).toBe("");
    expect(problemsAfter((w) => (w.root.workflow_name = "Renamed"), false)).toMatch(/SHA-256/);
    expect(problemsAfter((w) => (step(w, "shopify::flow::send_email").task_id = "shopify::flow::send_internal_email"))).toMatch(/neither a Shopify task/);
    expect(problemsAfter((w) => (w.root.steps[0].task_id = appTaskId("cod-order-risky")))).toMatch(/none of the app's flow_trigger/);
    expect(problemsAfter((w) => (step(w, "shopify::flow::send_email").config_field_values[0].config_field_id = "to"))).toMatch(/config fields/);
    expect(problemsAfter((w) => (w.root.links.find((l) => l.from_port_id === "true")!.from_port_id = "output"))).toMatch(/no port output/);
    expect(problemsAfter((w) => (step(w, "shopify::flow::send_email").config_field_values[2].value += " {{ fulfillmentOrdersForeachitem.id }}"))).toMatch(/cannot see/);
    expect(problemsAfter((w) => (step(w, "shopify::flow::send_email").config_field_values[2].value += " {{ riskLevel }}"))).toMatch(/"riskLevel"/);
    const call = (w: typeof original) => step(w, "shopify::admin::admin_api_operation").config_field_values[0];
    expect(problemsAfter((w) => (call(w).value = call(w).value.replace("HIGH_RISK_OF_FRAUD", "HIGH_RISK")))).toMatch(/HIGH_RISK/);
    expect(problemsAfter((w) => (call(w).value = call(w).value.replace("fulfillmentOrderHold", "fulfillmentOrderPause")))).toMatch(/no mutation/);
    expect(problemsAfter((w) => (w.root.links = w.root.links.filter((l) => l.from_port_id !== "after")))).toMatch(/not reachable/);

    const config = clone(highRisk.config) as { extensions: { template: { categories: string[] } }[] };
    config.extensions[0].template.categories = ["promotions"];
    expect(refusal(flowTemplateConfig, config)).toMatch(/categories/);
    expect(templateLocaleProblems(highRisk.dir, { name: "t:title", description: "t:description" })).toEqual([`${highRisk.dir}: en.default.json has no "title"`]);
  });
});

describe("the fake Flow's check of a trigger call is real", () => {
  const triggers = deployedFlowTriggers();
  it("accepts a call shaped like the trigger and refuses a wrong handle, key, type or order id", () => {
    expect(flowTriggerProblems(triggers, "cod-delivery-failed", { order_id: 5012345678901, cause: "failure" })).toBeNull();
    expect(flowTriggerProblems(triggers, "cod-delivery-failled", { order_id: 1, cause: "failure" })).toMatch(/No trigger/);
    expect(flowTriggerProblems(triggers, "cod-delivery-failed", { order_id: 1, cause: "failure", extra: "x" })).toMatch(/no field "extra"/);
    expect(flowTriggerProblems(triggers, "cod-delivery-failed", { order_id: 1 })).toMatch(/missing/);
    expect(flowTriggerProblems(triggers, "cod-order-high-risk", { order_id: 1, "risk score": "80", "risk reasons": "" })).toMatch(/number_decimal/);
    expect(flowTriggerProblems(triggers, "cod-delivery-failed", { order_id: "gid://shopify/Order/1", cause: "failure" })).toMatch(/numeric id/);
  });
});

describe("the Admin API documents of Flow and after dispatch", () => {
  let schema: GraphQLSchema;
  beforeAll(() => {
    schema = shopifySchema("admin");
  });

  const documents: [string, string, Record<string, unknown>][] = [
    ["flowTriggerReceive", FLOW_TRIGGER_RECEIVE, { handle: "cod-delivery-failed", payload: { order_id: 5012345678901, cause: "failure" } }],
    ["the order's balance and payment page", ORDER_BALANCE_DUE, { id: "gid://shopify/Order/5012345678901" }],
    ["the order's note", ORDER_NOTE, { id: "gid://shopify/Order/5012345678901" }],
    ["the note appended", ORDER_NOTE_UPDATE, { input: { id: "gid://shopify/Order/5012345678901", note: "COD Verify, failed delivery: ..." } }],
    [
      "the answer's metafield",
      DELIVERY_ANSWER_METAFIELD,
      { metafields: [{ ownerId: "gid://shopify/Order/5012345678901", namespace: "cod_verify", key: "delivery_answer", type: "json", value: '{"choice":"tomorrow"}' }] },
    ],
    ["the answer's tags", TAGS_ADD, { id: "gid://shopify/Order/5012345678901", tags: ["cod-delivery-failed", "cod-redeliver-tomorrow"] }],
    ["the shop's details with its time zone", SHOP_DETAILS, {}],
  ];

  it.each(documents)("%s validates, and so do the variables the app sends", (_name, text, variables) => {
    const doc = parse(text);
    expect(validate(schema, doc).map((e) => e.message)).toEqual([]);
    const op = doc.definitions[0] as OperationDefinitionNode;
    const coerced = getVariableValues(schema, op.variableDefinitions ?? [], variables);
    expect(coerced.errors?.map((e) => e.message) ?? []).toEqual([]);
  });

  it("the check is real: a field or variable the schema lacks is refused", () => {
    expect(validate(schema, parse(`mutation X($handle: String!) { flowTriggerReceive(handle: $handle, trigger: "x") { userErrors { message } } }`)).length).toBeGreaterThan(0);
    const op = parse(ORDER_NOTE_UPDATE).definitions[0] as OperationDefinitionNode;
    expect(getVariableValues(schema, op.variableDefinitions ?? [], { input: { id: "gid://shopify/Order/1", notes: "x" } }).errors?.length).toBeGreaterThan(0);
  });
});
