// Reseals the Flow template workflows (extensions/flow-template-*/template.flow) after an edit: compact JSON
// prefixed with its SHA-256, as Flow's export writes it (scripts/lib/flow-workflow.mjs). To edit one, pretty-print
// it (the prefix may be dropped), change it, run `npm run flow:seal`. `--check` only reports files that need it.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { flowDigest, readFlowFile, sealFlowWorkflow } from "./lib/flow-workflow.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");
const files = fs
  .readdirSync(path.join(ROOT, "extensions"))
  .filter((d) => d.startsWith("flow-template-"))
  .map((d) => path.join(ROOT, "extensions", d, "template.flow"))
  .filter((f) => fs.existsSync(f));

let stale = 0;
for (const file of files) {
  const text = fs.readFileSync(file, "utf8");
  const { prefix, body, workflow } = readFlowFile(text);
  const sealed = sealFlowWorkflow(workflow);
  if (sealed === text && prefix === flowDigest(body)) continue;
  stale += 1;
  if (check) console.log(`not sealed: ${path.relative(ROOT, file)}`);
  else {
    fs.writeFileSync(file, sealed);
    console.log(`sealed: ${path.relative(ROOT, file)}`);
  }
}
if (check && stale) process.exit(1);
