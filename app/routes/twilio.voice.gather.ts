import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { prepareDatabase } from "~/core/db.server";
import { kickJobWorker } from "~/core/jobs/worker.server";
import { answer, methodNotAllowed } from "~/http/responses.server";
import { readTwilioForm } from "~/http/twilio-form.server";
import { answerCall } from "~/orders/confirmation/ladder.server";

const gathered = z.object({
  CallSid: z.string().regex(/^CA[0-9a-fA-F]{32}$/),
  // One key (numDigits 1); absent or empty when the shopper pressed nothing.
  Digits: z
    .string()
    .regex(/^[0-9*#]{0,8}$/)
    .optional(),
});

/**
 * POST /twilio/voice/gather: the key the shopper pressed on the confirmation call (the action of the call's
 * TwiML <Gather>), form-encoded. The `X-Twilio-Signature` header is checked as for the other Twilio
 * webhooks (403 `invalid_signature`); 400 `invalid_request` for fields Twilio would not send. Answers
 * TwiML (what the call says next); the header `x-cod-outcome` says what the key did: confirmed,
 * cancelled, address_link, opted_out, settled (answered before, on this or another rung), again (a key
 * that means nothing), duplicate (a replayed request: nothing changes) or unknown_call.
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const form = await readTwilioForm(request, gathered, "Not a gathered key of a call.");
    if (!form.ok) return form.response;
    await prepareDatabase();
    const outcome = await answerCall(form.data.CallSid, form.data.Digits ?? "");
    kickJobWorker();
    return new Response(outcome.twiml, { status: 200, headers: { "content-type": "text/xml; charset=utf-8", "x-cod-outcome": outcome.outcome } });
  }, "twilio/voice/gather");
}

export async function loader(_args: LoaderFunctionArgs) {
  return methodNotAllowed(["POST"]);
}
