// A Shopify Flow workflow file (.flow) as Flow's "Export" writes it and a flow_template extension ships it:
// `<sha256 of the JSON, hex>:<the JSON, compact>`. The prefix is the SHA-256 of the bytes after the colon (checked
// against a real export, docs/flow.md#sources). Used by scripts/flow-template.mjs (npm run flow:seal) and the
// extension tests.
import crypto from "node:crypto";

const PREFIXED = /^([0-9a-f]{64}):/;

/** The file's parts: its prefix (null when there is none), the JSON text after it, and that JSON parsed. */
export function readFlowFile(text) {
  const match = PREFIXED.exec(text);
  const body = match ? text.slice(match[0].length) : text;
  return { prefix: match ? match[1] : null, body, workflow: JSON.parse(body) };
}

export function flowDigest(body) {
  return crypto.createHash("sha256").update(body, "utf8").digest("hex");
}

/** The workflow as Flow exports it: compact JSON, prefixed with its SHA-256. */
export function sealFlowWorkflow(workflow) {
  const body = JSON.stringify(workflow);
  return `${flowDigest(body)}:${body}`;
}
