import fs from "node:fs";
import path from "node:path";
import toml from "toml";
import { OPERATIONS } from "../../../app/core/shopify/operations";
import { REPO_ROOT } from "./schemas";
import type { FakeCall, FakeShopify, Handler } from "./server";

/**
 * Shopify Flow as the app meets it: `flowTriggerReceive(handle, payload)` answered as the Admin API does
 * (`userErrors`, empty on success), holding each call to the trigger the app deployed, read from its
 * extension's toml under extensions/ (what `shopify app deploy` would register): an unknown handle, a
 * payload key the trigger does not declare, a declared field missing, a value of the wrong type, an
 * `order_id` that is not an order's numeric id, or a payload of 1 MB or more is refused. Shopify's exact
 * refusal texts are not published; these say what was wrong. Accepted triggers are kept in `runs`.
 */
type TriggerField = { type: string; key?: string };
export type FlowTriggerDefinition = { handle: string; fields: TriggerField[] };
export type FlowRun = { shop: string; handle: string; payload: Record<string, unknown> };

// From the repository's root (local mode runs this file bundled as an ES module, without __dirname).
const EXTENSIONS = path.join(REPO_ROOT, "extensions");

/** Every flow_trigger extension of the app, by handle. */
export function deployedFlowTriggers(): Map<string, FlowTriggerDefinition> {
  const triggers = new Map<string, FlowTriggerDefinition>();
  for (const dir of fs.readdirSync(EXTENSIONS)) {
    const file = path.join(EXTENSIONS, dir, "shopify.extension.toml");
    if (!fs.existsSync(file)) continue;
    const config = toml.parse(fs.readFileSync(file, "utf8")) as { extensions?: { type: string; handle: string }[]; settings?: { fields?: TriggerField[] } };
    const ext = config.extensions?.[0];
    if (ext?.type !== "flow_trigger") continue;
    triggers.set(ext.handle, { handle: ext.handle, fields: config.settings?.fields ?? [] });
  }
  return triggers;
}

const REFERENCE_KEYS: Record<string, string> = { order_reference: "order_id", customer_reference: "customer_id", product_reference: "product_id" };

function valueFits(type: string, value: unknown): boolean {
  if (type === "number_decimal") return typeof value === "number" && Number.isFinite(value);
  if (type === "boolean") return typeof value === "boolean";
  if (type === "single_line_text_field" || type === "email" || type === "url") return typeof value === "string" && !value.includes("\n");
  return false;
}

/** What Flow would refuse in this call, or null. */
export function flowTriggerProblems(triggers: Map<string, FlowTriggerDefinition>, handle: unknown, payload: unknown): string | null {
  if (typeof handle !== "string" || !triggers.has(handle)) return `No trigger with handle ${JSON.stringify(handle)} is deployed for this app.`;
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return "The payload must be a JSON object.";
  if (Buffer.byteLength(JSON.stringify(payload)) >= 1024 * 1024) return "The payload must be smaller than 1 MB.";
  const fields = triggers.get(handle)!.fields;
  const expected = new Map(fields.map((f) => [REFERENCE_KEYS[f.type] ?? f.key ?? "", f.type]));
  const given = payload as Record<string, unknown>;
  for (const key of Object.keys(given)) if (!expected.has(key)) return `The trigger ${handle} has no field ${JSON.stringify(key)}.`;
  for (const [key, type] of expected) {
    if (!(key in given)) return `The field ${JSON.stringify(key)} of trigger ${handle} is missing.`;
    const value = given[key];
    if (REFERENCE_KEYS[type]) {
      if (!(typeof value === "number" && Number.isSafeInteger(value) && value > 0) && !(typeof value === "string" && /^\d{1,20}$/.test(value))) {
        return `The field ${key} must be the numeric id of the resource.`;
      }
    } else if (!valueFits(type, value)) {
      return `The field ${JSON.stringify(key)} must be a ${type}.`;
    }
  }
  return null;
}

export class FakeFlow {
  readonly runs: FlowRun[] = [];
  readonly triggers = deployedFlowTriggers();

  flowTriggerReceive(): Handler {
    return (call: FakeCall) => {
      const problem = flowTriggerProblems(this.triggers, call.variables.handle, call.variables.payload);
      if (problem) return { data: { flowTriggerReceive: { userErrors: [{ field: ["body"], message: problem }] } } };
      this.runs.push({ shop: call.shop, handle: String(call.variables.handle), payload: call.variables.payload as Record<string, unknown> });
      return { data: { flowTriggerReceive: { userErrors: [] } } };
    };
  }

  /** The runs of one trigger. */
  runsOf(handle: string): FlowRun[] {
    return this.runs.filter((r) => r.handle === handle);
  }

  install(fake: FakeShopify): this {
    fake.on(OPERATIONS.flowTriggerReceive, this.flowTriggerReceive(), "admin");
    return this;
  }
}
