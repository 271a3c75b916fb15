#!/usr/bin/env node
// `npm run report:channels`: what each channel (SMS, WhatsApp) cost the operator per verified COD order,
// per shop, over its last days (the shop's own, in its time zone) of DATABASE_URL: the messages that
// verify orders (codes, confirmations) priced by an editable table, against the COD orders each channel
// verified. Reads the built app (`npm run build` first), as the server does.
//   npm run report:channels [-- --days 30] [--shop <domain>] [--prices scripts/message-prices.json] [--json]
import "../app/server/load-env.mjs";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    days: { type: "string", default: "30" },
    shop: { type: "string" },
    prices: { type: "string", default: path.join(root, "scripts", "message-prices.json") },
    json: { type: "boolean", default: false },
  },
});
const fail = (message) => {
  console.error(`report:channels: ${message}`);
  process.exit(2);
};
const days = Number(values.days);
if (!Number.isInteger(days) || days < 1 || days > 366) fail(`--days must be a whole number of days from 1 to 366, not ${values.days}`);
const buildFile = path.join(root, "build", "index.js");
if (!fs.existsSync(buildFile)) fail("no build: run `npm run build` first");
let text;
try {
  text = fs.readFileSync(values.prices, "utf8");
} catch (error) {
  fail(`cannot read the price table ${values.prices}: ${error.message}`);
}

const { channelReport, parsePriceTable, schemaIsCurrent } = await import(pathToFileURL(buildFile).href);
const parsed = parsePriceTable(text);
if (!parsed.ok) fail(`the price table ${values.prices} is not valid:\n  ${parsed.problems.join("\n  ")}`);
if (!(await schemaIsCurrent())) fail("the database (DATABASE_URL) is not migrated to this release: run `npm run db:migrate` (or `npm run setup`) first");
const reports = await channelReport({ table: parsed.table, days, shop: values.shop });
if (values.json) {
  console.log(JSON.stringify({ currency: parsed.table.currency, pricesAsOf: parsed.table.asOf, reports }, null, 2));
} else if (!reports.length) {
  console.log(values.shop ? `no shop ${values.shop}` : "no shops");
} else {
  const money = (n) => (n === null ? "-" : `${n.toFixed(4)} ${parsed.table.currency}`);
  for (const r of reports) {
    console.log(`${r.shop}: ${r.firstDay} to ${r.lastDay}, the shop's days (${r.timezone ?? "UTC"}; prices as of ${parsed.table.asOf})`);
    console.table(
      r.channels.map((c) => ({
        channel: c.channel,
        "messages (codes, confirmations)": c.messages,
        cost: money(c.cost),
        "COD orders verified": c.verifiedOrders,
        "cost per verified order": money(c.costPerVerifiedOrder),
        "other messages": c.otherMessages,
        "their cost": money(c.otherCost),
      })),
    );
    console.log(`  verified with no message (remembered device): ${r.verifiedWithoutMessage}`);
    if (r.unpriced.length) console.log(`  not in the price table (counted at 0): ${r.unpriced.join(", ")}`);
  }
}
process.exit(0);
