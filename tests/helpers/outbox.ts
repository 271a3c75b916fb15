import fs from "node:fs";
import path from "node:path";

export type OutboxLine = { time: string; to: string; body: string; channel: string; id: string; shop: string };

/** The messages the outbox SMS provider wrote to `${dir}/outbox.jsonl`, oldest first. */
export function readOutbox(dir: string): OutboxLine[] {
  const file = path.join(dir, "outbox.jsonl");
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OutboxLine);
}

/** The 6-digit code in the latest outbox message to `phone`. */
export function outboxCode(dir: string, phone: string): string {
  const last = readOutbox(dir)
    .filter((m) => m.to === phone)
    .at(-1);
  const code = last && /\b(\d{6})\b/.exec(last.body)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${phone}`);
  return code;
}
