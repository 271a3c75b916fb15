import fs from "node:fs";
import path from "node:path";
import { clock } from "~/utils/clock.server";
import { randomToken } from "~/utils/crypto.server";

// TEMP stand-in for the OTP engineer's SMS module (issue 3): same signature, outbox only.
// Dropped at merge in favour of the real module.

export type SmsResult =
  | { ok: true; id: string; channel: "sms" | "whatsapp" }
  | { ok: false; code: "phone_unreachable" | "sms_unavailable"; detail: string };

export async function sendSms(input: {
  shop: { name: string | null; domain: string };
  to: string;
  body: string;
  channel?: "sms" | "whatsapp";
}): Promise<SmsResult> {
  const dir = process.env.OUTBOX_DIR ?? "data";
  const id = `outbox_${randomToken(9)}`;
  const channel = input.channel ?? "sms";
  fs.mkdirSync(dir, { recursive: true });
  const line = { time: clock.now().toISOString(), to: input.to, body: input.body, channel, id, shop: input.shop.domain };
  await fs.promises.appendFile(path.join(dir, "outbox.jsonl"), `${JSON.stringify(line)}\n`);
  return { ok: true, id, channel };
}
