import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { prepareDatabase } from "~/core/db.server";
import { answer, json, methodNotAllowed } from "~/http/responses.server";
import { readTwilioForm } from "~/http/twilio-form.server";
import { MESSAGE_STATES } from "~/sms/deliveries.server";
import { kickJobWorker } from "~/core/jobs/worker.server";
import { recordStatus } from "~/message-status/status-callback.server";
import { log } from "~/core/utils/log.server";


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
    const form = await readTwilioForm(request, callback, "Not a message status callback.");
    if (!form.ok) return form.response;
    await prepareDatabase();
    const outcome = await recordStatus({
      providerId: form.data.MessageSid,
      status: form.data.MessageStatus,
      errorCode: form.data.ErrorCode ? Number(form.data.ErrorCode) : null,
    });
    if (outcome.known && outcome.fallback === "queued") kickJobWorker();
    if (!outcome.known) log.info("twilio status for an unknown message", { sid: form.data.MessageSid, status: form.data.MessageStatus });
    return json({ ok: true, known: outcome.known, ...(outcome.known ? { fallback: outcome.fallback } : {}) });
  }, "twilio/status");
}

export async function loader(_args: LoaderFunctionArgs) {
  return methodNotAllowed(["POST"]);
}
