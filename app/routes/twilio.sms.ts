import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { prepareDatabase } from "~/core/db.server";
import { answer, methodNotAllowed } from "~/http/responses.server";
import { emptyTwiml, readTwilioForm } from "~/http/twilio-form.server";
import { applyKeyword, keywordOf } from "~/sms/opt-out.server";

const inbound = z.object({
  MessageSid: z.string().regex(/^(SM|MM)[0-9a-fA-F]{32}$/),
  // An SMS sender's From is the shopper's number in E.164.
  From: z.string().regex(/^\+[1-9]\d{6,14}$/),
  Body: z.string().max(1600).optional(),
});

/**
 * POST /twilio/sms: Twilio's incoming-message webhook of the SMS number or messaging service (set as its
 * "A message comes in" URL), form-encoded, `X-Twilio-Signature` checked like every Twilio webhook (403
 * `invalid_signature`; 400 `invalid_request` for fields Twilio would not send). Twilio's opt-out keywords
 * (app/sms/opt-out.server.ts): STOP and its synonyms opt the number out of every shop that messaged it,
 * START and UNSTOP opt it back in, HELP changes nothing; each applied once per MessageSid. 200 with empty
 * TwiML; `x-cod-outcome` says `opted_out`, `opted_in`, `help`, `duplicate` or `ignored` (any other text).
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const form = await readTwilioForm(request, inbound, "Not an inbound SMS.");
    if (!form.ok) return form.response;
    const keyword = keywordOf(form.data.Body);
    if (!keyword) return emptyTwiml("ignored");
    await prepareDatabase();
    const outcome = await applyKeyword({ messageSid: form.data.MessageSid, from: form.data.From, keyword });
    if (outcome.duplicate) return emptyTwiml("duplicate");
    return emptyTwiml(keyword === "stop" ? "opted_out" : keyword === "start" ? "opted_in" : "help");
  }, "twilio/sms");
}

export async function loader(_args: LoaderFunctionArgs) {
  return methodNotAllowed(["POST"]);
}
