import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { prepareDatabase } from "~/core/db.server";
import { kickJobWorker } from "~/core/jobs/worker.server";
import { answer, json, methodNotAllowed } from "~/http/responses.server";
import { readTwilioForm } from "~/http/twilio-form.server";
import { CALL_STATES, recordCallStatus } from "~/orders/confirmation/ladder.server";

const report = z.object({
  CallSid: z.string().regex(/^CA[0-9a-fA-F]{32}$/),
  // The call's status callback carries CallStatus; the asynchronous machine detection's carries AnsweredBy.
  CallStatus: z.enum(CALL_STATES).optional(),
  AnsweredBy: z
    .string()
    .regex(/^[a-z_]{1,40}$/)
    .optional(),
});

/**
 * POST /twilio/voice/status: Twilio's reports on a confirmation call (its status callback when the call
 * ends, and the answering machine detection's verdict), form-encoded, signature checked (403
 * `invalid_signature`; 400 `invalid_request`). A call that ended without a key moves the ladder to its
 * next rung, once. 200 `{ ok, known, outcome }`.
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const form = await readTwilioForm(request, report, "Not a call status report.");
    if (!form.ok) return form.response;
    await prepareDatabase();
    const outcome = await recordCallStatus({ callSid: form.data.CallSid, status: form.data.CallStatus ?? null, answeredBy: form.data.AnsweredBy ?? null });
    if (outcome.known && outcome.outcome === "advanced") kickJobWorker();
    return json({ ok: true, known: outcome.known, ...(outcome.known ? { outcome: outcome.outcome } : {}) });
  }, "twilio/voice/status");
}

export async function loader(_args: LoaderFunctionArgs) {
  return methodNotAllowed(["POST"]);
}
