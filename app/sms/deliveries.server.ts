import crypto from "node:crypto";
import { maskPhone } from "~/shared/phone-mask";
import { execute, executeTogether, sql, type Sql } from "~/core/db/sql.server";
import { isDatabaseUnavailable } from "~/core/db/database-errors";
import { noteDatabaseUnavailable } from "~/core/db/outage.server";
import { env } from "~/core/env.server";
import { randomToken } from "~/core/utils/crypto.server";
import { log } from "~/core/utils/log.server";
import { optOutStatement, TWILIO_OPTED_OUT } from "./opt-out.server";

/**
 * Every message the app sends (one-time codes, address-correction links, the link to confirm an order
 * after purchase) is recorded with its purpose and delivery state, for the merchant's dashboard and for
 * support: MessageDelivery, one row per message per channel, updated by Twilio's status callback
 * (POST /twilio/status).
 */
export type MessagePurpose = "otp" | "address_correction" | "order_confirmation" | "merchant_test" | "delivery_reminder" | "delivery_recovery" | "prepaid_offer";

/** Twilio's message states, in the order a message goes through them; the last four are final. */
export const MESSAGE_STATES = ["accepted", "scheduled", "queued", "sending", "sent", "delivered", "read", "undelivered", "failed", "canceled"] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

const RANK: Record<MessageState, number> = {
  accepted: 0,
  scheduled: 0,
  queued: 1,
  sending: 2,
  sent: 3,
  delivered: 4,
  read: 5,
  undelivered: 6,
  failed: 6,
  canceled: 6,
};

/** The states a message in `state` may still move from (callbacks can arrive out of order). */
export function statesBefore(state: MessageState): MessageState[] {
  return MESSAGE_STATES.filter((s) => RANK[s] < RANK[state] || (RANK[s] === RANK[state] && s === state));
}

/** Where Twilio reports delivery states: this app's public URL (SHOPIFY_APP_URL) + /twilio/status. */
export function statusCallbackUrl(): string {
  return `${env.SHOPIFY_APP_URL.replace(/\/+$/, "")}/twilio/status`;
}

// The SMS text an SMS fallback would send holds a one-time code: it is stored sealed (AES-256-GCM under
// a key derived from OTP_HASH_SECRET), and deleted once used or when the callback says delivered.
function fallbackKey() {
  return crypto.createHmac("sha256", env.OTP_HASH_SECRET).update("message-fallback-key").digest();
}

export function sealText(text: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", fallbackKey(), iv);
  const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((b) => b.toString("base64url")).join(".");
}

export function openText(sealed: string): string | null {
  try {
    const [iv, tag, data] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
    const decipher = crypto.createDecipheriv("aes-256-gcm", fallbackKey(), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

type RecordInput = {
  input: {
    shop: { id: string; domain: string };
    to: string;
    purpose: MessagePurpose;
    fallbackUntil?: number;
    fallbackOf?: string | null;
    /** Written with the record of a message that went (the caller's counter), in the same round trip. */
    countWhenSent?: Sql;
    orderGid?: string | null;
  };
  channel: "sms" | "whatsapp" | "voice";
  providerId: string | null;
  status: MessageState;
  errorCode?: number | null;
  /** WhatsApp only: the SMS text to send if WhatsApp reports the message failed. */
  fallbackBody?: string;
  fallbackOf?: string | null;
};

/**
 * The row of a message about to go out (status `accepted`, no provider id yet), as a statement: `beginMessage`
 * runs it alone; send-otp's decision writes it in its own step (app/otp/send-decision.server.ts).
 */
export function messageRecordStatement(
  input: RecordInput["input"],
  channel: RecordInput["channel"],
  fallbackOf: string | null,
  id: string,
  now: Date,
): Sql {
  return sql`
    INSERT INTO "MessageDelivery" ("id", "shopId", "phone", "purpose", "channel", "providerId", "status", "fallbackOf", "orderGid", "createdAt", "updatedAt")
    VALUES (${id}, ${input.shop.id}, ${input.to}, ${input.purpose}, ${channel}, ${null}, 'accepted', ${fallbackOf}, ${input.orderGid ?? null}, ${now}, ${now})`;
}

/**
 * A message about to go out: its row is written before the provider is asked (status `accepted`, no
 * provider id yet), so a text that went out always has its record, whatever happens to the database
 * after (`completeMessage` fills it in). Null when the database did not take it: then nothing is sent.
 */
export async function beginMessage(input: RecordInput["input"], channel: RecordInput["channel"], fallbackOf: string | null): Promise<string | null> {
  const id = randomToken(12);
  try {
    await execute(messageRecordStatement(input, channel, fallbackOf, id, new Date()));
    return id;
  } catch (error) {
    noteRecordFailure("sms: a message was not sent: its record could not be written first", input, error);
    return null;
  }
}

/** How long a message's completion is retried while the database is away, and the pauses between tries. */
const COMPLETE_RETRY_MS = 10 * 60_000;
const completeBackoffMs = (tries: number) => Math.min(30_000, 500 * 2 ** tries);

/**
 * A begun message's outcome written on its row: the provider's id and state (or the failure), the SMS
 * text sealed for a WhatsApp fallback, and with a message that went, the caller's counter, in one round
 * trip. Never throws. When the database does not take it (an outage between the send and this), it is
 * tried again in the background for up to COMPLETE_RETRY_MS; the row written before the send stands meanwhile.
 */
export async function completeMessage(id: string, r: Omit<RecordInput, "fallbackOf">): Promise<void> {
  const statements = completion(id, r);
  if (await tryStatements(statements, r.input)) return;
  const giveUpAt = Date.now() + COMPLETE_RETRY_MS;
  const retry = (tries: number) => {
    const timer = setTimeout(() => {
      void tryStatements(statements, r.input).then((done) => {
        if (done) log.info("sms: a message's record completed after the database came back", { shop: r.input.shop.domain, id });
        else if (Date.now() < giveUpAt) retry(tries + 1);
        else log.warn("sms: a message's record stays as written before its send (the database did not come back)", { shop: r.input.shop.domain, id });
      });
    }, completeBackoffMs(tries));
    timer.unref();
  };
  retry(0);
}

function completion(id: string, r: Omit<RecordInput, "fallbackOf">): Sql[] {
  const now = new Date();
  const fallbackBody = r.fallbackBody ? sealText(r.fallbackBody) : null;
  const fallbackUntil = r.fallbackBody && r.input.fallbackUntil ? BigInt(Math.floor(r.input.fallbackUntil)) : null;
  const update = sql`
    UPDATE "MessageDelivery" SET "channel" = ${r.channel}, "providerId" = ${r.providerId}, "status" = ${r.status}, "errorCode" = ${r.errorCode ?? null},
      "fallbackBody" = ${fallbackBody}, "fallbackUntil" = ${fallbackUntil}, "updatedAt" = ${now}
    WHERE "id" = ${id}`;
  const count = r.status !== "failed" ? r.input.countWhenSent : undefined;
  const optedOut = r.errorCode === TWILIO_OPTED_OUT ? optOutStatement(r.input.shop.id, r.input.to, "all", "twilio_21610", now) : undefined;
  return [update, ...(count ? [count] : []), ...(optedOut ? [optedOut] : [])];
}

async function tryStatements(statements: Sql[], input: RecordInput["input"]): Promise<boolean> {
  try {
    await executeTogether(statements);
    return true;
  } catch (error) {
    noteRecordFailure("sms: could not complete a message's record; retrying", input, error);
    return false;
  }
}

/** A database away is one warning for the whole outage (app/core/db/outage.server.ts); anything else is a warning of its own. */
function noteRecordFailure(message: string, input: RecordInput["input"], error: unknown) {
  const fields = { shop: input.shop.domain, to: maskPhone(input.to), error: String(error).slice(0, 300) };
  if (isDatabaseUnavailable(error)) noteDatabaseUnavailable(message, fields);
  else log.warn(message, fields);
}

/** Records one message after the fact (a voice call); returns its id. Never throws: a record is not worth failing a call for. */
export async function recordMessage(r: RecordInput): Promise<string | null> {
  try {
    // A direct statement: a send is on the storefront's hot path (docs/decisions/direct-sql-hot-paths.md).
    const id = randomToken(12);
    const now = new Date();
    const fallbackBody = r.fallbackBody ? sealText(r.fallbackBody) : null;
    const fallbackUntil = r.fallbackBody && r.input.fallbackUntil ? BigInt(Math.floor(r.input.fallbackUntil)) : null;
    const record = sql`
      INSERT INTO "MessageDelivery" ("id", "shopId", "phone", "purpose", "channel", "providerId", "status", "errorCode",
        "fallbackBody", "fallbackUntil", "fallbackOf", "orderGid", "createdAt", "updatedAt")
      VALUES (${id}, ${r.input.shop.id}, ${r.input.to}, ${r.input.purpose}, ${r.channel}, ${r.providerId}, ${r.status},
        ${r.errorCode ?? null}, ${fallbackBody}, ${fallbackUntil}, ${r.fallbackOf ?? r.input.fallbackOf ?? null}, ${r.input.orderGid ?? null}, ${now}, ${now})`;
    const count = r.status !== "failed" ? r.input.countWhenSent : undefined;
    // Twilio refused it because the number replied STOP to the sender: the shop sends it nothing more.
    const optedOut = r.errorCode === TWILIO_OPTED_OUT ? optOutStatement(r.input.shop.id, r.input.to, "all", "twilio_21610", now) : undefined;
    await executeTogether([record, ...(count ? [count] : []), ...(optedOut ? [optedOut] : [])]);
    return id;
  } catch (error) {
    log.warn("sms: could not record a message's delivery", { shop: r.input.shop.domain, to: maskPhone(r.input.to), error: String(error) });
    return null;
  }
}
