import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { prepareDatabase } from "~/core/db.server";
import { answer, methodNotAllowed } from "~/http/responses.server";
import { emptyTwiml, readTwilioForm } from "~/http/twilio-form.server";
import { kickJobWorker } from "~/core/jobs/worker.server";
import { receiveReply } from "~/orders/confirmation/whatsapp-replies.server";
import { isWhatsappStop, optOutByWhatsapp } from "~/sms/opt-out.server";
import { log } from "~/core/utils/log.server";

const SID = /^(SM|MM)[0-9a-fA-F]{32}$/;

const inbound = z.object({
  MessageSid: z.string().regex(SID),
  From: z.string().min(1).max(200),
  // The message the shopper answered (a quick-reply press carries it): how the reply finds its order.
  OriginalRepliedMessageSid: z.string().regex(SID).optional(),
  // The pressed button's id (confirm | cancel | change_address); free text has none.
  ButtonPayload: z.string().max(256).optional(),
  // Free text (a button's title when pressed): STOP asks the shops that messaged the number to stop.
  Body: z.string().max(1600).optional(),
});

/**
 * POST /twilio/whatsapp: Twilio's inbound-message webhook of the WhatsApp sender (set as the sender's
 * "A message comes in" URL), form-encoded. The `X-Twilio-Signature` header is checked with the
 * `twilio` package's validateRequest against the public URL (SHOPIFY_APP_URL + path) and the auth
 * token: 403 `invalid_signature` otherwise; 400 `invalid_request` for fields Twilio would not send.
 * A valid reply to one of the app's confirmation messages is recorded once per MessageSid and its effect
 * queued (app/orders/confirmation/whatsapp-replies.server.ts). 200 with empty TwiML; the header
 * `x-cod-outcome` says `recorded`, `duplicate`, `unmatched`, or `opted_out` (the text STOP: the shops that
 * messaged the number send it nothing more, app/sms/opt-out.server.ts).
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const form = await readTwilioForm(request, inbound, "Not an inbound WhatsApp message.");
    if (!form.ok) return form.response;
    await prepareDatabase();
    if (!form.data.ButtonPayload && isWhatsappStop(form.data.Body)) {
      await optOutByWhatsapp(form.data.From);
      return emptyTwiml("opted_out");
    }
    const outcome = await receiveReply({
      messageSid: form.data.MessageSid,
      repliedTo: form.data.OriginalRepliedMessageSid ?? null,
      payload: form.data.ButtonPayload ?? null,
      sender: form.data.From,
    });
    if (!outcome.matched) {
      log.info("whatsapp: an inbound message that answers none of our confirmations", { sid: form.data.MessageSid });
      return emptyTwiml("unmatched");
    }
    kickJobWorker();
    return emptyTwiml(outcome.duplicate ? "duplicate" : "recorded");
  }, "twilio/whatsapp");
}

export async function loader(_args: LoaderFunctionArgs) {
  return methodNotAllowed(["POST"]);
}
