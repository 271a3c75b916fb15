import { databaseProvider } from "~/core/db.server";
import { execute, query, sql, toBoolean, transaction, type Sql } from "~/core/db/sql.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { maskPhone } from "~/shared/phone-mask";

/**
 * A number that asked not to be contacted (docs/privacy.md#opt-outs): one ContactOptOut row per shop,
 * number and channel (`all`: no text, WhatsApp message or call; `voice`: no call). Every sender asks
 * `isOptedOut` before it texts or calls (app/sms/contact-allowance.server.ts). The shops share the app's
 * Twilio numbers, so a keyword to them is recorded for every shop that messaged the number.
 */
export type OptOutChannel = "all" | "voice";
export type OptOutSource = "sms_stop" | "whatsapp_stop" | "voice_digit" | "twilio_21610";

/** Twilio's error when the recipient replied STOP to the sender: the number is opted out at Twilio. */
export const TWILIO_OPTED_OUT = 21610;

/** Whether the number asked the shop to stop (`all`), or not to call (`voice`, asked for a call). */
export async function isOptedOut(shopId: string, phone: string, call = false): Promise<boolean> {
  // One direct statement: every text and call asks it.
  const [row] = await query<{ optedOut: unknown }>(sql`SELECT ${optedOutCondition(shopId, phone, call)} AS "optedOut"`);
  return toBoolean(row?.optedOut);
}

/** `isOptedOut` as a condition (`EXISTS (...)`), for a caller that reads it with other things in one statement. */
export function optedOutCondition(shopId: string, phone: string, call = false): Sql {
  return sql`EXISTS (SELECT 1 FROM "ContactOptOut" WHERE "shopId" = ${shopId} AND "phone" = ${phone} AND "channel" IN (${"all"}, ${call ? "voice" : "all"}))`;
}

/** The opt-out's insert, once per shop, number and channel (a repeat changes nothing). */
export function optOutStatement(shopId: string, phone: string, channel: OptOutChannel, source: OptOutSource, at: Date = clock.now()): Sql {
  return sql`
    INSERT INTO "ContactOptOut" ("shopId", "phone", "channel", "source", "createdAt") VALUES (${shopId}, ${phone}, ${channel}, ${source}, ${at})
    ON CONFLICT ("shopId", "phone", "channel") DO NOTHING`;
}

/** A number asked the shop to stop (`all`) or not to call (`voice`): recorded once. */
export async function recordOptOut(shopId: string, phone: string, channel: OptOutChannel, source: OptOutSource): Promise<void> {
  await execute(optOutStatement(shopId, phone, channel, source));
  log.info("the number asked not to be contacted", { shopId, phone: maskPhone(phone), channel, source });
}

/**
 * Twilio's standard opt-out keywords for SMS (its Advanced Opt-Out defaults), read as Twilio reads them:
 * the whole message, any case, surrounding spaces ignored. Twilio itself stops delivering to a number
 * that sent one of the stop words, so the app records the same.
 */
const STOP_WORDS = new Set(["stop", "stopall", "unsubscribe", "cancel", "end", "quit", "optout", "revoke"]);
const START_WORDS = new Set(["start", "unstop", "yes"]);
const HELP_WORDS = new Set(["help", "info"]);
export type Keyword = "stop" | "start" | "help";

export function keywordOf(body: string | null | undefined): Keyword | null {
  const word = (body ?? "").trim().toLowerCase().replace(/[.!]+$/, "");
  if (STOP_WORDS.has(word)) return "stop";
  if (START_WORDS.has(word)) return "start";
  return HELP_WORDS.has(word) ? "help" : null;
}

/**
 * On WhatsApp, the same stop words but CANCEL, which a shopper types about the order (WhatsApp has no
 * carrier opt-out: the button or the text CANCEL answers the confirmation).
 */
export function isWhatsappStop(body: string | null | undefined): boolean {
  const word = (body ?? "").trim().toLowerCase().replace(/[.!]+$/, "");
  return word !== "cancel" && keywordOf(word) === "stop";
}

const E164 = /^\+[1-9]\d{6,14}$/;

/** Every shop that messaged the number records its opt-out (`all`), once; `gate` may hold the insert back. */
const optOutShopsThatMessaged = (phone: string, source: OptOutSource, at: Date, gate: Sql = sql`1 = 1`) => sql`
  INSERT INTO "ContactOptOut" ("shopId", "phone", "channel", "source", "createdAt")
  SELECT "s"."shopId", ${phone}, 'all', ${source}, ${at} FROM (SELECT DISTINCT "shopId" FROM "MessageDelivery" WHERE "phone" = ${phone}) "s" WHERE ${gate}
  ON CONFLICT ("shopId", "phone", "channel") DO NOTHING`;

/**
 * A shopper wrote STOP to the WhatsApp sender: every shop that messaged the number records it. `From`
 * may be a business-scoped id rather than a phone: nothing to record.
 */
export async function optOutByWhatsapp(from: string): Promise<number> {
  const phone = from.replace(/^whatsapp:/, "");
  if (!E164.test(phone)) return 0;
  const changed = await execute(optOutShopsThatMessaged(phone, "whatsapp_stop", clock.now()));
  log.info("whatsapp: the number asked to stop", { phone: maskPhone(phone), shops: changed });
  return changed;
}

export type KeywordOutcome = { keyword: Keyword; duplicate: boolean; shops: number };

/**
 * A keyword texted to the app's SMS number (POST /twilio/sms), applied once per MessageSid: the
 * InboundKeyword row and the change are one statement (PostgreSQL) or one transaction (SQLite), so a
 * replayed webhook finds the row and changes nothing, even after a START that came in between.
 * STOP: every shop that messaged the number records `all`. START: their `all` opt-outs are removed (a
 * "don't call" pressed on a call stays: that was a wish of its own). HELP: recorded, nothing changes
 * (Twilio answers the keywords with the sender's standard replies).
 */
export async function applyKeyword(input: { messageSid: string; from: string; keyword: Keyword }): Promise<KeywordOutcome> {
  const { messageSid, from: phone, keyword } = input;
  const now = clock.now();
  const claim = sql`INSERT INTO "InboundKeyword" ("id", "keyword", "createdAt") VALUES (${messageSid}, ${keyword}, ${now}) ON CONFLICT ("id") DO NOTHING`;
  const change = (gate: Sql): Sql | null =>
    keyword === "stop"
      ? sql`${optOutShopsThatMessaged(phone, "sms_stop", now, gate)} RETURNING "shopId"`
      : keyword === "start"
        ? sql`DELETE FROM "ContactOptOut" WHERE "phone" = ${phone} AND "channel" = 'all' AND ${gate} RETURNING "shopId"`
        : null;
  let outcome: KeywordOutcome;
  if (databaseProvider === "postgresql") {
    const step = change(sql`EXISTS (SELECT 1 FROM "claimed")`);
    const [row] = await query<{ claimed: unknown; shops: unknown }>(sql`
      WITH "claimed" AS (${claim} RETURNING "id")
      ${step ? sql`, "changed" AS (${step})` : sql``}
      SELECT (SELECT COUNT(*) FROM "claimed") AS "claimed", ${step ? sql`(SELECT COUNT(*) FROM "changed")` : sql`0`} AS "shops"`);
    outcome = { keyword, duplicate: Number(row?.claimed ?? 0) === 0, shops: Number(row?.shops ?? 0) };
  } else {
    outcome = await transaction((tx) => {
      if (tx.execute(claim) !== 1) return { keyword, duplicate: true, shops: 0 };
      const step = change(sql`1 = 1`);
      return { keyword, duplicate: false, shops: step ? tx.query<{ shopId: string }>(step).length : 0 };
    });
  }
  if (!outcome.duplicate) log.info("sms: a keyword from a number", { phone: maskPhone(phone), keyword, shops: outcome.shops });
  return outcome;
}
