import twilio from "twilio";
import type { z } from "zod";
import { env } from "~/core/env.server";
import { jsonError } from "./responses.server";

const MAX_BODY_BYTES = 16 * 1024;

/**
 * The answer to an inbound-message webhook: Twilio reads it as TwiML, and an empty response sends nothing
 * back. `x-cod-outcome` says what the app did (for support and tests).
 */
export function emptyTwiml(outcome: string): Response {
  return new Response('<?xml version="1.0" encoding="UTF-8"?><Response></Response>', {
    status: 200,
    headers: { "content-type": "text/xml; charset=utf-8", "x-cod-outcome": outcome },
  });
}

/**
 * A form-encoded webhook from Twilio (a message status callback, an inbound message), read once at the
 * door: at most 16 KiB (413 `payload_too_large`), the `X-Twilio-Signature` header checked with the
 * `twilio` package's validateRequest against the public URL Twilio called (SHOPIFY_APP_URL + path) and
 * the auth token (403 `invalid_signature`), then the fields parsed with the route's schema
 * (400 `invalid_request`, naming `what` the body is not).
 */
export async function readTwilioForm<T>(
  request: Request,
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  what: string,
): Promise<{ ok: true; data: T } | { ok: false; response: Response }> {
  const tooLarge = () => ({ ok: false as const, response: jsonError(413, "payload_too_large", `The body is over ${MAX_BODY_BYTES} bytes.`) });
  if (Number(request.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) return tooLarge();
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) return tooLarge();
  const params = Object.fromEntries(new URLSearchParams(text));
  const url = new URL(request.url);
  const publicUrl = `${env.SHOPIFY_APP_URL.replace(/\/+$/, "")}${url.pathname}${url.search}`;
  const signature = request.headers.get("x-twilio-signature") ?? "";
  if (!env.TWILIO_AUTH_TOKEN || !signature || !twilio.validateRequest(env.TWILIO_AUTH_TOKEN, signature, publicUrl, params)) {
    return { ok: false, response: jsonError(403, "invalid_signature", "The X-Twilio-Signature header is missing or does not match.") };
  }
  const parsed = schema.safeParse(params);
  if (!parsed.success) {
    return {
      ok: false,
      response: jsonError(400, "invalid_request", what, {
        fields: Object.fromEntries(parsed.error.issues.map((i) => [i.path.join(".") || "body", i.message])),
      }),
    };
  }
  return { ok: true, data: parsed.data };
}
