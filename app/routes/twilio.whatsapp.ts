import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import twilio from "twilio";
import { z } from "zod";
import { prepareDatabase } from "~/core/db.server";
import { env } from "~/core/env.server";
import { answer, jsonError, methodNotAllowed } from "~/http/responses.server";
import { kickJobWorker } from "~/core/jobs/worker.server";
import { receiveReply } from "~/orders/confirmation/whatsapp-replies.server";
import { log } from "~/core/utils/log.server";

const MAX_BODY_BYTES = 16 * 1024;
const SID = /^(SM|MM)[0-9a-fA-F]{32}$/;

const inbound = z.object({
  MessageSid: z.string().regex(SID),
  From: z.string().min(1).max(200),
  // The message the shopper answered (a quick-reply press carries it): how the reply finds its order.
  OriginalRepliedMessageSid: z.string().regex(SID).optional(),
  // The pressed button's id (confirm | cancel | change_address); free text has none.
  ButtonPayload: z.string().max(256).optional(),
});

/** Twilio reads the answer as TwiML: an empty response sends nothing back (the app answers through the job). */
function emptyTwiml(outcome: string): Response {
  return new Response('<?xml version="1.0" encoding="UTF-8"?><Response></Response>', {
    status: 200,
    headers: { "content-type": "text/xml; charset=utf-8", "x-cod-outcome": outcome },
  });
}

/**
 * POST /twilio/whatsapp: Twilio's inbound-message webhook of the WhatsApp sender (set as the sender's
 * "A message comes in" URL), form-encoded. The `X-Twilio-Signature` header is checked with the
 * `twilio` package's validateRequest against the public URL (SHOPIFY_APP_URL + path) and the auth
 * token: 403 `invalid_signature` otherwise; 400 `invalid_request` for fields Twilio would not send.
 * A valid reply to one of the app's confirmation messages is recorded once per MessageSid and its effect
 * queued (app/orders/confirmation/whatsapp-replies.server.ts). 200 with empty TwiML; the header
 * `x-cod-outcome` says `recorded`, `duplicate` or `unmatched`.
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
    const parsed = inbound.safeParse(params);
    if (!parsed.success) {
      return jsonError(400, "invalid_request", "Not an inbound WhatsApp message.", {
        fields: Object.fromEntries(parsed.error.issues.map((i) => [i.path.join(".") || "body", i.message])),
      });
    }
    await prepareDatabase();
    const outcome = await receiveReply({
      messageSid: parsed.data.MessageSid,
      repliedTo: parsed.data.OriginalRepliedMessageSid ?? null,
      payload: parsed.data.ButtonPayload ?? null,
      sender: parsed.data.From,
    });
    if (!outcome.matched) {
      log.info("whatsapp: an inbound message that answers none of our confirmations", { sid: parsed.data.MessageSid });
      return emptyTwiml("unmatched");
    }
    kickJobWorker();
    return emptyTwiml(outcome.duplicate ? "duplicate" : "recorded");
  }, "twilio/whatsapp");
}

export async function loader(_args: LoaderFunctionArgs) {
  return methodNotAllowed(["POST"]);
}
