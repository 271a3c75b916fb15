import fs from "node:fs";
import path from "node:path";

export type OutboxMessage = { time: string; to: string; body: string; channel: string; id: string; shop: unknown };

/** The SMS written to the local outbox (`$OUTBOX_DIR/outbox.jsonl`, or `dir`), oldest first. */
export function readOutbox(dir = process.env.OUTBOX_DIR ?? "data"): OutboxMessage[] {
  const file = path.join(dir, "outbox.jsonl");
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OutboxMessage);
}

/** The path and token of the last address-correction link texted to `to`. */
export function lastCorrectionLink(to: string, dir?: string): { url: URL; token: string } {
  const message = readOutbox(dir).filter((m) => m.to === to).at(-1);
  if (!message) throw new Error(`no SMS to ${to} in the outbox`);
  const m = /(https?:\/\/\S+\/ac\/([A-Za-z0-9_-]+))/.exec(message.body);
  if (!m) throw new Error(`the SMS to ${to} has no correction link: ${message.body}`);
  return { url: new URL(m[1]), token: m[2] };
}
