import twilio from "twilio";
import { z } from "zod";
import { env } from "~/core/env.server";
import { log } from "~/core/utils/log.server";
import { maskPhone } from "~/shared/phone-mask";
import type { Sql } from "~/core/db/sql.server";
import { recordMessage, type MessagePurpose } from "./deliveries.server";
import { classify, resultOf, twilioClient } from "./sms.server";
import { countMessage } from "./message-metrics.server";

/**
 * Calls through Twilio's Programmable Voice, with the client the texts use (app/sms/sms.server.ts):
 * `calls.create` with the call's TwiML inline, its status reported to POST /twilio/voice/status (the
 * end of the call, and the answering machine detection's verdict, asynchronous so the shopper hears
 * the question at once). Every call is recorded as a message (channel `voice`, its CallSid as the
 * provider id), so the order's message log, the retention job and customers/redact cover calls too.
 */
export type Spoken = { text: string; language: string; voice: string };

/** The app's public URL of a voice webhook: SHOPIFY_APP_URL + /twilio/voice/<what>. */
export function voiceWebhookUrl(what: "status" | "gather"): string {
  return `${env.SHOPIFY_APP_URL.replace(/\/+$/, "")}/twilio/voice/${what}`;
}

/** The caller ID, or null: no voice-capable number configured (a messaging service cannot place calls). */
export function voiceCaller(): string | null {
  if (env.SMS_PROVIDER === "outbox") return null;
  return env.TWILIO_VOICE_FROM ?? env.TWILIO_FROM_NUMBER ?? null;
}

// The language and voice are our own table's (app/orders/confirmation/ladder.ts); the client's types list them as literals.
type SayAttributes = Parameters<InstanceType<typeof twilio.twiml.VoiceResponse>["say"]>[0];
const sayWith = (s: Spoken) => ({ language: s.language, voice: s.voice }) as SayAttributes;

/**
 * The question: one key (`numDigits` 1) gathered while the prompt is spoken, posted to the gather route;
 * said twice (the shopper may miss the start), then a goodbye when no key came.
 */
export function questionTwiml(prompt: Spoken, goodbye: Spoken): string {
  const response = new twilio.twiml.VoiceResponse();
  const gather = response.gather({ input: ["dtmf"], numDigits: 1, timeout: 6, action: voiceWebhookUrl("gather"), method: "POST", actionOnEmptyResult: false });
  gather.say(sayWith(prompt), prompt.text);
  gather.pause({ length: 1 });
  gather.say(sayWith(prompt), prompt.text);
  response.say(sayWith(goodbye), goodbye.text);
  return response.toString();
}

/** A spoken answer and the end of the call. */
export function sayAndHangUp(line: Spoken): string {
  const response = new twilio.twiml.VoiceResponse();
  response.say(sayWith(line), line.text);
  response.hangup();
  return response.toString();
}

export type CallResult =
  | { ok: true; sid: string }
  | { ok: false; code: "phone_unreachable" | "voice_unavailable"; detail: string; maybeSent: boolean };

const twilioCall = z.object({ sid: z.string().regex(/^CA[0-9a-fA-F]{32}$/) });

/** Places one call; never throws. The call is recorded (MessageDelivery, channel voice) when Twilio took it or refused it. */
export async function placeCall(input: {
  shop: { id: string; domain: string };
  to: string;
  twiml: string;
  purpose: MessagePurpose;
  orderGid: string;
  countWhenSent?: Sql;
}): Promise<CallResult> {
  const from = voiceCaller();
  if (!from) return { ok: false, code: "voice_unavailable", detail: "no voice caller ID (TWILIO_VOICE_FROM or TWILIO_FROM_NUMBER)", maybeSent: false };
  const statusCallback = voiceWebhookUrl("status");
  let attempt: { ok: true; sid: string } | ReturnType<typeof classify>;
  try {
    const call = await twilioClient(env.SMS_TIMEOUT_MS).calls.create({
      to: input.to,
      from,
      twiml: input.twiml,
      statusCallback,
      statusCallbackMethod: "POST",
      statusCallbackEvent: ["completed"],
      // Asynchronous: the question starts at once, and the verdict (AnsweredBy) comes to the same route.
      machineDetection: "Enable",
      asyncAmd: "true",
      asyncAmdStatusCallback: statusCallback,
      asyncAmdStatusCallbackMethod: "POST",
      // Ring for 30 s, then `no-answer`.
      timeout: 30,
      // A confirmation call is short: at most 2 minutes.
      timeLimit: 120,
    });
    const parsed = twilioCall.safeParse(call);
    attempt = parsed.success ? { ok: true, sid: parsed.data.sid } : { ok: false, unreachable: false, maybeSent: true, detail: "unexpected reply from Twilio", errorCode: null };
  } catch (error) {
    attempt = classify(error);
  }
  await recordMessage({
    input: { shop: input.shop, to: input.to, purpose: input.purpose, orderGid: input.orderGid, countWhenSent: input.countWhenSent },
    channel: "voice",
    providerId: attempt.ok ? attempt.sid : null,
    status: attempt.ok ? "queued" : "failed",
    errorCode: attempt.ok ? null : attempt.errorCode,
  });
  const result: CallResult = attempt.ok
    ? attempt
    : { ok: false, code: attempt.unreachable && !attempt.maybeSent ? "phone_unreachable" : "voice_unavailable", detail: attempt.detail, maybeSent: attempt.maybeSent };
  countMessage("voice", input.purpose, resultOf(result), input.to);
  if (result.ok) return result;
  log.info("voice: call not placed", { shop: input.shop.domain, to: maskPhone(input.to), detail: result.detail });
  return result;
}
