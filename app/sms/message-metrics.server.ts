import fs from "node:fs";
import client from "prom-client";
import { env } from "~/core/env.server";
import { registry } from "~/core/metrics.server";
import { log } from "~/core/utils/log.server";
import { phoneCountry } from "~/shared/phone";
import { parsePriceTable, priceOf, type PriceTable } from "./prices";

/** The operator's figures for what goes out (GET /metrics, app/core/metrics.server.ts): counts and, with a price table, cost. */
const messages = new client.Counter({
  name: "cod_messages_total",
  help: "Messages and calls handed to the provider, by channel, purpose and result (sent; refused: the number; failed: the provider; unknown: a timeout that may have gone).",
  labelNames: ["channel", "purpose", "result"] as const,
  registers: [registry],
});
const cost = new client.Counter({
  name: "cod_message_cost_total",
  help: "Estimated cost of the texts sent, in the price table's currency (MESSAGE_PRICE_TABLE; absent without one).",
  labelNames: ["channel", "currency"] as const,
  registers: [registry],
});

export type SendResult = "sent" | "refused" | "failed" | "unknown";

/** A message or call handed to the provider (or refused by it), and the estimated cost of a text that went. */
export function countMessage(channel: "sms" | "whatsapp" | "voice", purpose: string, result: SendResult, to: string): void {
  messages.inc({ channel, purpose, result });
  if (result !== "sent" || channel === "voice") return;
  const table = priceTable();
  const price = table ? priceOf(table, channel, purpose, phoneCountry(to)) : null;
  if (table && price != null) cost.inc({ channel, currency: table.currency }, price);
}

/** The price table MESSAGE_PRICE_TABLE names (the channel report's format), read once; null without one. */
let prices: PriceTable | null | undefined;
function priceTable(): PriceTable | null {
  if (prices !== undefined) return prices;
  prices = null;
  if (!env.MESSAGE_PRICE_TABLE) return prices;
  try {
    const parsed = parsePriceTable(fs.readFileSync(env.MESSAGE_PRICE_TABLE, "utf8"));
    if (parsed.ok) prices = parsed.table;
    else log.warn("metrics: MESSAGE_PRICE_TABLE is not a price table; costs are not counted", { problems: parsed.problems.slice(0, 3) });
  } catch (error) {
    log.warn("metrics: cannot read MESSAGE_PRICE_TABLE; costs are not counted", { error: String(error) });
  }
  return prices;
}
