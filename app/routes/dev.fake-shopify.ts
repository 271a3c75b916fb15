import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import {
  LOCAL_FAKE_ANSWERS,
  LOCAL_FAKE_OPERATIONS,
  localFakeAnswers,
  localFakeShopifyWanted,
  setLocalFakeAnswer,
} from "~/dev/fake-shopify/local.server";
import { readJsonBody } from "~/http/json-body.server";
import { answer, json, jsonError } from "~/http/responses.server";

/**
 * Local mode only (404 otherwise): how the in-process fake Shopify answers each operation.
 *   GET  /dev/fake-shopify                          the current answers and the possible ones
 *   POST /dev/fake-shopify { operation, answer }    e.g. { "operation": "cartCreate", "answer": "throttled" }
 * So a developer can watch create-checkout fall back, or tags being retried, against the running app.
 */
const body = z.object({
  operation: z.enum(LOCAL_FAKE_OPERATIONS as [string, ...string[]]),
  answer: z.enum(LOCAL_FAKE_ANSWERS),
});

function notHere() {
  return jsonError(404, "not_found", "No such route.");
}

export async function loader() {
  if (!localFakeShopifyWanted) return notHere();
  return json({ answers: localFakeAnswers(), operations: LOCAL_FAKE_OPERATIONS, possible: LOCAL_FAKE_ANSWERS });
}

export async function action({ request }: ActionFunctionArgs) {
  if (!localFakeShopifyWanted) return notHere();
  return answer(async () => {
    const { operation, answer: how } = await readJsonBody(request, body);
    await setLocalFakeAnswer(operation as (typeof LOCAL_FAKE_OPERATIONS)[number], how);
    return json({ answers: localFakeAnswers() });
  });
}
