import fs from "node:fs";
import path from "node:path";
import { parse, validate, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { getVariableValues } from "graphql/execution/values";
import toml from "toml";
import { FLOW_TRIGGERS } from "~/flow/triggers";
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
import { deployedFlowTriggers, flowTriggerProblems } from "../mocks/shopify/flow";
import { shopifySchema } from "../mocks/shopify/schemas";

/**
 * The Flow extensions as Shopify's CLI reads them (the rules of its flow_trigger, flow_action and
 * flow_template specifications), held to the app's own lists; and the Admin API documents of Flow and
 * of the delivery room checked against Shopify's published 2026-10 schema (shopify-schemas/) with the
 * variables the app sends, as Shopify checks them before it runs anything.
 */
const ROOT = path.resolve(__dirname, "../..");
const EXTENSIONS = path.join(ROOT, "extensions");
type Extension = { dir: string; config: { extensions: Record<string, unknown>[]; settings?: { fields?: Record<string, unknown>[] } } };
const extensions: Extension[] = fs
  .readdirSync(EXTENSIONS)
  .filter((d) => fs.existsSync(path.join(EXTENSIONS, d, "shopify.extension.toml")))
  .map((dir) => ({ dir, config: toml.parse(fs.readFileSync(path.join(EXTENSIONS, dir, "shopify.extension.toml"), "utf8")) }));
const ofType = (type: string) => extensions.filter((e) => e.config.extensions?.[0]?.type === type);
const HANDLE = /^[a-z0-9-]{1,30}$/;

describe("flow_trigger extensions", () => {
  it("are exactly app/flow/triggers.ts's triggers: handle, an order reference, then each field with its type", () => {
    const deployed = ofType("flow_trigger").map((e) => ({ handle: e.config.extensions[0].handle, fields: e.config.settings?.fields ?? [] }));
    expect(deployed.map((d) => d.handle).sort()).toEqual(Object.values(FLOW_TRIGGERS).map((t) => t.handle).sort());
    for (const trigger of Object.values(FLOW_TRIGGERS)) {
      const d = deployed.find((x) => x.handle === trigger.handle)!;
      expect(d.fields.map((f) => [f.type, f.key ?? null]), trigger.handle).toEqual([["order_reference", null], ...Object.entries(trigger.fields).map(([k, t]) => [t, k])]);
    }
  });

  it("follow the CLI's rules: handle of at most 30 letters, digits and hyphens, keys of letters and spaces, a name", () => {
    for (const e of ofType("flow_trigger")) {
      const ext = e.config.extensions[0];
      expect(ext.handle, e.dir).toMatch(HANDLE);
      expect(typeof ext.name).toBe("string");
      for (const f of e.config.settings?.fields ?? []) if (f.key !== undefined) expect(f.key, e.dir).toMatch(/^[a-zA-Z\s]*$/);
    }
  });
});

describe("flow_action extensions", () => {
  it("point each action at its route on the app's URL, with a required order reference", () => {
    const app = toml.parse(fs.readFileSync(path.join(ROOT, "shopify.app.toml"), "utf8")) as { application_url: string };
    const actions = ofType("flow_action").map((e) => e.config);
    expect(actions.map((c) => c.extensions[0].handle).sort()).toEqual(Object.values(FLOW_ACTIONS).sort());
    for (const [route, handle] of Object.entries(FLOW_ACTIONS)) {
      const c = actions.find((a) => a.extensions[0].handle === handle)!;
      expect(c.extensions[0].handle).toMatch(HANDLE);
      expect(c.extensions[0].runtime_url).toBe(`${app.application_url}/flow/actions/${route}`);
      expect(c.settings?.fields).toEqual([{ type: "order_reference", required: true }]);
    }
    expect(fs.existsSync(path.join(ROOT, "app/routes/flow.actions.$action.ts"))).toBe(true);
  });
});

describe("flow_template extensions", () => {
  // The CLI's list (packages/app/src/cli/models/extensions/specifications/flow_template.ts).
  const CATEGORIES = ["buyer_experience", "customers", "fulfillment", "inventory_and_merch", "loyalty", "orders", "promotion", "risk", "b2b", "payment_reminders", "custom_data", "error_monitoring"];

  it("each have a workflow module whose first step is one of the app's triggers and whose links join its steps", () => {
    const templates = ofType("flow_template");
    expect(templates.map((t) => t.config.extensions[0].handle).sort()).toEqual(["cod-failed-delivery-notify", "cod-high-risk-hold-email"]);
    for (const t of templates) {
      const ext = t.config.extensions[0] as { handle: string; description: string; template: { categories: string[]; module: string; require_app: boolean } };
      expect(ext.description.length).toBeLessThanOrEqual(1024);
      for (const c of ext.template.categories) expect(CATEGORIES).toContain(c);
      expect(ext.template.require_app).toBe(true);
      const flow = JSON.parse(fs.readFileSync(path.join(EXTENSIONS, t.dir, ext.template.module), "utf8")) as {
        __metadata: { version: number };
        root: { steps: { step_id: string; task_id: string; task_type: string }[]; links: { from_step_id: string; to_step_id: string }[] };
      };
      expect(flow.__metadata.version).toBe(0.1);
      const [first, ...rest] = flow.root.steps;
      expect(first.task_type).toBe("TRIGGER");
      expect(Object.values(FLOW_TRIGGERS).map((x) => `cod-verify::${x.handle}`)).toContain(first.task_id);
      expect(rest.every((s) => s.task_type === "ACTION" || s.task_type === "CONDITION")).toBe(true);
      const ids = new Set(flow.root.steps.map((s) => s.step_id));
      for (const l of flow.root.links) expect(ids.has(l.from_step_id) && ids.has(l.to_step_id)).toBe(true);
    }
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
