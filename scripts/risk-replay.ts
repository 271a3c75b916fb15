// `npm run risk:replay -- FILE [flags]`: a shop's COD history (JSONL, one order a line, docs/risk.md
// "Replaying a history") scored in time order by the app's own risk code with only what the shop knew
// before each order; prints what the chosen actions would have done, with intervals, the calibration
// learnt, and refusing against pricing from each score.
//   npm run risk:replay -- orders.jsonl [--high price] [--medium none|confirm|price|refuse]
//     [--high-threshold 60] [--medium-threshold 20] [--failure-cost 150] [--deposit-min 50] [--deposit-max 500]
//     [--time-zone Asia/Kolkata] [--learn-after-days 7] [--margin 0.25] [--good-pay-deposit 0.85]
//     [--bad-pay-deposit 0.3] [--good-prepaid 0.3] [--default-value 1000] [--without-behaviour]
import fs from "node:fs";
import { parseArgs } from "node:util";
import { parseReplay } from "../app/risk/replay";
import { formatReport, replayReport } from "../app/risk/replay-report";
import { calibrationLines, FLAG_OPTIONS, flagsOf, policyLines, reasonLines, runReplay } from "./lib/risk-replay";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { ...FLAG_OPTIONS, "without-behaviour": { type: "boolean" } } });
const file = positionals[0];
if (!file) {
  console.error("usage: npm run risk:replay -- FILE.jsonl [flags] (docs/risk.md, \"Replaying a history\")");
  process.exit(2);
}
const parsed = parseReplay(fs.readFileSync(file, "utf8"));
if (!parsed.ok) {
  console.error(`${file}:${parsed.line}: ${parsed.error}`);
  process.exit(1);
}
const flags = flagsOf(values);
const { results, calibration } = runReplay(parsed.orders, flags);
console.log(`risk:replay ${file}: ${parsed.orders.length} orders; medium (from ${flags.mediumThreshold}) ${flags.medium}, high (from ${flags.highThreshold}) ${flags.high}; failed parcel ${flags.money.failureCost}`);
for (const line of formatReport(replayReport(results, flags.money))) console.log(line);
console.log("calibration learnt (failure probability by score, the shop's outcomes shrunk to the app's prior):");
for (const line of calibrationLines(calibration)) console.log(line);
console.log("refusing or pricing from each score (money: net = failed parcels avoided + deposits kept on failures - margin of good orders lost):");
for (const line of policyLines([parsed.orders], flags)) console.log(line);
if (!flags.withoutBehaviour) {
  console.log("what each behaviour reason adds (the chosen actions, with every reading and without that reason's):");
  for (const line of reasonLines([parsed.orders], flags)) console.log(line);
}
