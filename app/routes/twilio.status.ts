import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import twilio from "twilio";
import { z } from "zod";
import { prepareDatabase } from "~/core/db.server";
import { env } from "~/core/env.server";
import { answer, json, jsonError, methodNotAllowed } from "~/http/responses.server";
import { MESSAGE_STATES } from "~/sms/deliveries.server";
import { kickJobWorker } from "~/core/jobs/worker.server";
import { recordStatus } from "~/message-status/status-callback.server";
import { log } from "~/core/utils/log.server";

const MAX_BODY_BYTES = 16 * 1024;

const callback = z.object({
  MessageSid: z.string().regex(/^(SM|MM)[0-9a-fA-F]{32}$/),
  MessageStatus: z.enum(MESSAGE_STATES),
  ErrorCode: z
    .string()
    .regex(/^\d{1,6}$/)
    .optional(),
});

/**
 * POST /twilio/status: Twilio's message status callback (the `statusCallback` of every message the
 * app sends), form-encoded. The `X-Twilio-Signature` header is checked with the `twilio` package's
 * validateRequest against the public URL Twilio called (SHOPIFY_APP_URL + path) and the auth token:
 * 403 `invalid_signature` otherwise. A valid callback records the message's state (queued, sent,
 * delivered, read, undelivered, failed with Twilio's error code) and may trigger the one SMS fallback
 * of a WhatsApp code. 200 `{ ok, known }`; 400 `invalid_request` for fields Twilio would not send.
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    if (Number(request.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) {
      return jsonError(413, "payload_too_large", `The body is over ${MAX_BODY_BYTES} bytes.`);
    }
    const text = await request.text();
    if (Buffer.byteLength(text) > MAX_BODY_BYTES) return jsonError(413, "payload_too_large", `The body is over ${MAX_BODY_BYTES} bytes.`);
    const params = Object.fromEntries(new URLSearchParams(text));
    const url = new URL(request.url);
    const publicUrl = `${env.SHOPIFY_APP_URL.replace(/\/+$/, "")}${url.pathname}${url.search}`;
    const signature = request.headers.get("x-twilio-signature") ?? "";
    if (!env.TWILIO_AUTH_TOKEN || !signature || !twilio.validateRequest(env.TWILIO_AUTH_TOKEN, signature, publicUrl, params)) {
      return jsonError(403, "invalid_signature", "The X-Twilio-Signature header is missing or does not match.");
    }
    const parsed = callback.safeParse(params);
    if (!parsed.success) {
      return jsonError(400, "invalid_request", "Not a message status callback.", {
        fields: Object.fromEntries(parsed.error.issues.map((i) => [i.path.join(".") || "body", i.message])),
      });
    }
    await prepareDatabase();
    const outcome = await recordStatus({
      providerId: parsed.data.MessageSid,
      status: parsed.data.MessageStatus,
      errorCode: parsed.data.ErrorCode ? Number(parsed.data.ErrorCode) : null,
    });
    if (outcome.known && outcome.fallback === "queued") kickJobWorker();
    if (!outcome.known) log.info("twilio status for an unknown message", { sid: parsed.data.MessageSid, status: parsed.data.MessageStatus });
    return json({ ok: true, known: outcome.known, ...(outcome.known ? { fallback: outcome.fallback } : {}) });
  }, "twilio/status");
}

export async function loader(_args: LoaderFunctionArgs) {
  return methodNotAllowed(["POST"]);
}
