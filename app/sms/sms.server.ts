import fs from "node:fs";
import { maskPhone } from "~/shared/phone-mask";
import path from "node:path";
import twilio from "twilio";
import { z } from "zod";
import { env } from "~/core/env.server";
import { log } from "~/core/utils/log.server";
import { randomToken } from "~/core/utils/crypto.server";
import type { Sql } from "~/core/db/sql.server";
import { beginMessage, completeMessage, statusCallbackUrl, type MessagePurpose } from "./deliveries.server";
import { countMessage, type SendResult } from "./message-metrics.server";

export type SmsChannel = "sms" | "whatsapp";

/** An approved WhatsApp template (Twilio Content API): its content SID and its variables ({{1}} ...). */
export type WhatsappTemplate = { contentSid: string; variables: Record<string, string> };

export type SmsInput = {
  shop: { id: string; name: string | null; domain: string };
  /** E.164 */
  to: string;
  /** The SMS text (also what an SMS fallback sends). */
  body: string;
  /**
   * `whatsapp` is tried first when a WhatsApp sender is configured and the message has an approved
   * template (`whatsapp`): WhatsApp refuses free text outside a 24-hour session. SMS is the fallback,
   * at once when Twilio refuses the WhatsApp message, later (once) when WhatsApp reports it failed.
   */
  channel?: SmsChannel;
  whatsapp?: WhatsappTemplate | null;
  /** What the message is for, recorded with its delivery state. */
  purpose: MessagePurpose;
  /** Until when (epoch ms) a late SMS fallback still makes sense, e.g. the code's expiry. */
  fallbackUntil?: number;
  /** This SMS replaces that (WhatsApp) message, which WhatsApp reported undelivered. */
  fallbackOf?: string | null;
  /** A statement written with the record of the message once it went (the caller's counter), in one round trip. */
  countWhenSent?: Sql;
  /** The order the message is about (recorded for the order's message log). */
  orderGid?: string | null;
  /**
   * A free-text WhatsApp message (no template): only inside the 24-hour session a shopper's own message
   * opens, e.g. the answer to a button they pressed. SMS is its fallback as for a template.
   */
  whatsappSession?: boolean;
  /** Whether a WhatsApp message keeps its SMS text sealed for a late fallback (default yes; no when the caller rebuilds it). */
  sealFallback?: boolean;
  /**
   * The id of this message's record on its first channel (`firstChannel`), written by the caller before
   * the send (messageRecordStatement, in a step of its own): used instead of writing one here.
   */
  recorded?: string | null;
};

export type SmsResult =
  | { ok: true; id: string; channel: SmsChannel }
  /**
   * `maybeSent`: the outcome is unknown (Twilio did not answer in time, or the connection dropped after
   * the request went out), so the text may have gone; false only when nothing was sent for certain (Twilio
   * answered a refusal, or could not be reached at all). A caller keeps what a sent text needs (the code,
   * the counted limits) while the text may have gone.
   */
  | { ok: false; code: "phone_unreachable" | "sms_unavailable"; detail: string; maybeSent: boolean };

/**
 * Sends one text message through the configured provider (env.SMS_PROVIDER):
 * `twilio` (Programmable Messaging through the official client) or `outbox` (local mode: a line in
 * `${OUTBOX_DIR}/outbox.jsonl` and on the console). Never throws for a provider failure: the result
 * says whether the number was refused (`phone_unreachable`) or the provider failed (`sms_unavailable`),
 * and whether the text may have gone all the same (`maybeSent`: a timeout is not a refusal).
 * Every message is recorded (MessageDelivery) before it is sent and completed with its delivery state
 * after; when the record cannot be written first, nothing is sent (`sms_unavailable`, not maybe sent).
 */
export async function sendSms(input: SmsInput): Promise<SmsResult> {
  const result = env.SMS_PROVIDER === "outbox" ? await sendToOutbox(input) : await sendWithTwilio(input);
  countMessage(result.ok ? result.channel : (input.channel ?? "sms"), input.purpose, resultOf(result), input.to);
  return result;
}

/** How a send ended, as the operator's metrics count it. */
export function resultOf(result: { ok: true } | { ok: false; code: string; maybeSent: boolean }): SendResult {
  if (result.ok) return "sent";
  if (result.maybeSent) return "unknown";
  return result.code === "phone_unreachable" ? "refused" : "failed";
}

/** The channel a message is tried on first (its record is written before that attempt). */
export function firstChannel(input: Pick<SmsInput, "channel" | "whatsapp" | "whatsappSession">): SmsChannel {
  if (env.SMS_PROVIDER === "outbox") return input.channel ?? "sms";
  return usesWhatsapp(input) ? "whatsapp" : "sms";
}

/** The first channel's record: the one the caller wrote, or one written now (null: not written, nothing is sent). */
async function firstRecord(input: SmsInput, channel: SmsChannel, fallbackOf: string | null): Promise<string | null> {
  return input.recorded ?? beginMessage(input, channel, fallbackOf);
}

/** Whether a WhatsApp message goes out for this input (sender configured, template given). */
function usesWhatsapp(input: Pick<SmsInput, "channel" | "whatsapp" | "whatsappSession">): boolean {
  return input.channel === "whatsapp" && Boolean(env.TWILIO_WHATSAPP_FROM) && (Boolean(input.whatsapp?.contentSid) || input.whatsappSession === true);
}

// ---------------------------------------------------------------------------------------------
// Outbox (local mode)

if (env.production && env.SMS_PROVIDER === "outbox") {
  console.warn(
    JSON.stringify({
      level: "warn",
      msg: `SMS_PROVIDER=outbox in production (LOCAL_MODE=true): NO SMS IS SENT; messages go to ${path.resolve(env.OUTBOX_DIR, "outbox.jsonl")}. A local demo only, never a real store.`,
    }),
  );
}

export function outboxPath(): string {
  return path.resolve(env.OUTBOX_DIR, "outbox.jsonl");
}

/**
 * The outbox file stays open for appending (one open per file, not one per message). A file that was
 * deleted or replaced meanwhile (tests empty the outbox between cases) is opened again: the name must
 * still lead to the file held open (one `stat` a message; an open file's inode is never given to another).
 */
let outbox: { file: string; fd: number; dev: number; ino: number } | null = null;

function appendToOutbox(file: string, text: string) {
  if (outbox && outbox.file === file) {
    const named = fs.statSync(file, { throwIfNoEntry: false });
    if (named && named.ino === outbox.ino && named.dev === outbox.dev) return void fs.writeSync(outbox.fd, text);
  }
  if (outbox) fs.closeSync(outbox.fd);
  outbox = null;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, "a");
  const { dev, ino } = fs.fstatSync(fd);
  outbox = { file, fd, dev, ino };
  fs.writeSync(fd, text);
}

async function sendToOutbox(input: SmsInput): Promise<SmsResult> {
  const channel = input.channel ?? "sms";
  const row = await firstRecord(input, channel, input.fallbackOf ?? null);
  if (!row) return notRecorded(false);
  const id = `outbox_${randomToken(9)}`;
  const line = { time: new Date().toISOString(), to: input.to, body: input.body, channel, id, shop: input.shop.domain };
  // A short synchronous append (the local provider's messages are a few hundred bytes).
  const file = outboxPath();
  appendToOutbox(file, `${JSON.stringify(line)}\n`);
  await completeMessage(row, { input, channel, providerId: id, status: "sent" });
  // Local development only: the developer is the shopper, so the console shows the whole message.
  // Anywhere else (the production build run as a local demo) the message is an info line of the log
  // (LOG_LEVEL=warn leaves it out) that never shows a code or a link's token: they are only in the file.
  if (env.production) log.info("outbox: message written", { channel, phone: input.to, shop: input.shop.domain, file });
  else console.log(`[outbox] ${channel} to ${maskPhone(input.to)} from ${input.shop.name ?? input.shop.domain}: ${input.body.replace(/\n+/g, " ⏎ ")}`);
  return { ok: true, id, channel };
}

// ---------------------------------------------------------------------------------------------
// Twilio

/** Twilio error codes that mean "this number cannot get our message", not "Twilio is down". */
const UNREACHABLE_CODES = new Set([
  21211, // invalid 'To' number
  21214, // 'To' number cannot be reached
  21217, // phone number does not appear to be valid
  21219, // 'To' not verified (trial accounts)
  21401, // invalid phone number
  21407, // this phone number type does not support SMS
  21408, // permission to send to this region is not enabled (geo permissions)
  21421, // phone number is invalid
  21610, // the recipient replied STOP
  21612, // 'To' is not reachable from this sender
  21614, // 'To' is not a valid mobile number (landline)
  21635, // 'To' cannot receive WhatsApp messages / not a mobile number
  60410, // Fraud Guard blocked this destination prefix
  60605, // Verify geo permissions blocked this country
]);

const twilioMessage = z.object({ sid: z.string().min(1) });

type TwilioClient = ReturnType<typeof twilio>;

const clients = new Map<string, TwilioClient>();

/** One client per configuration and per-request timeout (the client takes its timeout at creation). */
export function twilioClient(timeoutMs: number): TwilioClient {
  const key = [env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, env.TWILIO_API_BASE, timeoutMs].join("|");
  const known = clients.get(key);
  if (known) return known;
  const client = twilio(env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, {
    // The client's own HTTP timeout (axios), per request; sendSms also bounds the whole send.
    timeout: timeoutMs,
    autoRetry: false,
  });
  // Development and tests: talk to a stand-in Twilio at the HTTP edge (the real client code still runs).
  if (env.TWILIO_API_BASE) client.api.baseUrl = env.TWILIO_API_BASE;
  if (clients.size > 8) clients.clear();
  clients.set(key, client);
  return client;
}

export type Attempt = { ok: true; sid: string } | { ok: false; unreachable: boolean; maybeSent: boolean; detail: string; errorCode: number | null };

/**
 * Network errors that happen before the request reaches Twilio: nothing was sent. Any other error without
 * an answer (the client's timeout ECONNABORTED/ETIMEDOUT, a reset or hang-up after the request went out)
 * leaves the outcome unknown.
 */
const NOT_SENT_ERRORS = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH", "ERR_INVALID_URL"]);

/** One message to Twilio: an SMS with its text, or a WhatsApp template (content SID and variables). */
async function createMessage(params: { to: string; body: string; template?: WhatsappTemplate | null; whatsapp?: boolean; timeoutMs: number }): Promise<Attempt> {
  const client = twilioClient(params.timeoutMs);
  const whatsapp = Boolean(params.template) || params.whatsapp === true;
  const sender = whatsapp
    ? { from: withPrefix(env.TWILIO_WHATSAPP_FROM!, "whatsapp:") }
    : env.TWILIO_MESSAGING_SERVICE_SID
      ? { messagingServiceSid: env.TWILIO_MESSAGING_SERVICE_SID }
      : { from: env.TWILIO_FROM_NUMBER };
  const content = params.template
    ? { contentSid: params.template.contentSid, contentVariables: JSON.stringify(params.template.variables) }
    : { body: params.body };
  try {
    const message = await client.messages.create({
      to: whatsapp ? `whatsapp:${params.to}` : params.to,
      ...content,
      ...sender,
      // Twilio reports each state change (queued, sent, delivered, undelivered, failed) here.
      statusCallback: statusCallbackUrl(),
    });
    const parsed = twilioMessage.safeParse(message);
    // Twilio said yes in a shape we do not know: the message may well be on its way.
    if (!parsed.success) return { ok: false, unreachable: false, maybeSent: true, detail: "unexpected reply from Twilio", errorCode: null };
    return { ok: true, sid: parsed.data.sid };
  } catch (error) {
    return classify(error);
  }
}

export function classify(error: unknown): Attempt & { ok: false } {
  const e = error as { status?: number; code?: number | string; message?: string };
  if (typeof e?.status === "number") {
    const code = typeof e.code === "number" ? e.code : Number(e.code);
    const detail = `twilio ${e.status}${code ? ` code ${code}` : ""}`;
    // Twilio answered: a refusal, nothing was sent.
    return { ok: false, unreachable: e.status < 500 && UNREACHABLE_CODES.has(code), maybeSent: false, detail, errorCode: Number.isFinite(code) && code ? code : null };
  }
  // Network errors and timeouts (axios: ECONNABORTED, ETIMEDOUT, ECONNREFUSED ...).
  const maybeSent = !NOT_SENT_ERRORS.has(String(e?.code ?? ""));
  return { ok: false, unreachable: false, maybeSent, detail: `twilio request failed: ${String(e?.code ?? e?.message ?? error)}`, errorCode: null };
}

function withPrefix(value: string, prefix: string) {
  return value.startsWith(prefix) ? value : `${prefix}${value}`;
}

async function sendWithTwilio(input: SmsInput): Promise<SmsResult> {
  const deadline = new Promise<SmsResult>((resolve) => {
    const timer = setTimeout(
      () => resolve({ ok: false, code: "sms_unavailable", detail: `no answer from Twilio within ${env.SMS_TIMEOUT_MS} ms`, maybeSent: true }),
      env.SMS_TIMEOUT_MS,
    );
    timer.unref();
  });
  const completions: Promise<void>[] = [];
  const attempt = attemptChannels(input, completions).catch(
    (error: unknown): SmsResult => ({ ok: false, code: "sms_unavailable", detail: `twilio client error: ${String(error)}`, maybeSent: true }),
  );
  const result = await Promise.race([attempt, deadline]);
  // The records' first write is done before the caller answers (its counter with it); one the database
  // did not take is retried in the background. Never throws.
  await Promise.all(completions);
  if (!result.ok) {
    const fields = { to: maskPhone(input.to), shop: input.shop.domain, detail: result.detail, maybeSent: result.maybeSent };
    if (result.code === "sms_unavailable") log.warn("sms: provider unavailable", fields);
    else log.info("sms: number refused", fields);
  }
  return result;
}

/** Nothing sent, because the message's record could not be written first (the database is away). */
function notRecorded(maybeSent: boolean): SmsResult {
  return { ok: false, code: "sms_unavailable", detail: "the message's record could not be written before sending", maybeSent };
}

/**
 * Each message's record is written before the provider is asked and completed after (./deliveries.server.ts),
 * so a text that went out always has one. The completions are pushed onto `completions` for sendWithTwilio
 * to await outside its deadline (a slow database does not turn a sent text into "maybe sent").
 */
async function attemptChannels(input: SmsInput, completions: Promise<void>[]): Promise<SmsResult> {
  const started = Date.now();
  let replaces: string | null = null;
  let whatsappMaybeSent = false;
  if (usesWhatsapp(input)) {
    const row = await firstRecord(input, "whatsapp", input.fallbackOf ?? null);
    if (!row) return notRecorded(false);
    // WhatsApp gets half the time, so a hanging WhatsApp still leaves time for the SMS fallback.
    const timeoutMs = Math.floor(env.SMS_TIMEOUT_MS / 2);
    const viaWhatsapp = await createMessage({ to: input.to, body: input.body, template: input.whatsappSession ? null : input.whatsapp, whatsapp: true, timeoutMs });
    if (viaWhatsapp.ok) {
      // Accepted is not delivered: the SMS text is kept (sealed) for the status callback's fallback.
      const fallbackBody = input.sealFallback === false ? undefined : input.body;
      completions.push(completeMessage(row, { input, channel: "whatsapp", providerId: viaWhatsapp.sid, status: "queued", fallbackBody }));
      return { ok: true, id: viaWhatsapp.sid, channel: "whatsapp" };
    }
    whatsappMaybeSent = viaWhatsapp.maybeSent;
    completions.push(completeMessage(row, { input, channel: "whatsapp", providerId: null, status: "failed", errorCode: viaWhatsapp.errorCode }));
    replaces = row;
    log.info("sms: whatsapp failed, falling back to sms", { to: maskPhone(input.to), detail: viaWhatsapp.detail });
  }
  const row = replaces ? await beginMessage(input, "sms", replaces) : await firstRecord(input, "sms", input.fallbackOf ?? null);
  if (!row) return notRecorded(whatsappMaybeSent);
  const timeoutMs = Math.max(100, env.SMS_TIMEOUT_MS - (Date.now() - started) - 50);
  const viaSms = await createMessage({ to: input.to, body: input.body, timeoutMs });
  completions.push(
    completeMessage(row, {
      input,
      channel: "sms",
      providerId: viaSms.ok ? viaSms.sid : null,
      status: viaSms.ok ? "queued" : "failed",
      errorCode: viaSms.ok ? null : viaSms.errorCode,
    }),
  );
  if (viaSms.ok) return { ok: true, id: viaSms.sid, channel: "sms" };
  // A WhatsApp message that may have gone leaves the whole send unknown, whatever the SMS fallback met.
  const maybeSent = viaSms.maybeSent || whatsappMaybeSent;
  return { ok: false, code: viaSms.unreachable && !maybeSent ? "phone_unreachable" : "sms_unavailable", detail: viaSms.detail, maybeSent };
}
