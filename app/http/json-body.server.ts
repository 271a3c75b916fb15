import { jsonError } from "~/http/responses.server";
import { wireRequest, type WireRequest } from "~/http/storefront.server";

export const MAX_JSON_BODY_BYTES = 16 * 1024;

/** UTF-8, a byte order mark dropped and malformed sequences replaced (the WHATWG decoder's defaults). */
const utf8 = new TextDecoder();

/**
 * Reads and validates a JSON request body. Throws a JSON error Response:
 * 415/400 for a wrong content type, 400 `invalid_request` for malformed JSON or fields that fail the
 * schema (with `fields` naming each), 413 for a body over 16 KiB. Never reads more than the limit.
 */
export async function readJsonBody<T>(incoming: Request | WireRequest, schema: BodySchema<T>): Promise<T> {
  const request = wireRequest(incoming);
  const type = request.header("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw jsonError(400, "invalid_request", "Send the body as JSON (Content-Type: application/json).", {
      fields: { body: "expected application/json" },
    });
  }
  const declared = Number(request.header("content-length") ?? "0");
  if (declared > MAX_JSON_BODY_BYTES) throw tooLarge();
  const bytes = await request.body(MAX_JSON_BODY_BYTES);
  if (bytes === "too_large") throw tooLarge();
  const text = utf8.decode(bytes);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw jsonError(400, "invalid_request", "The body is not valid JSON.", { fields: { body: "malformed JSON" } });
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw jsonError(400, "invalid_request", "The body must be a JSON object.", { fields: { body: "expected an object" } });
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw jsonError(400, "invalid_request", "Some fields are missing or invalid.", { fields: describeIssues(parsed.error) });
  }
  return parsed.data;
}

/** A zod schema of either API (zod 3's, or zod 4's from `zod/v4`): what parsing a body needs of it. */
type BodySchema<T> = {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: Issues };
};
type Issues = { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> };

export function describeIssues(error: Issues): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "body";
    fields[key] ??= issue.message;
  }
  return fields;
}

function tooLarge() {
  return jsonError(413, "payload_too_large", `The body is larger than ${MAX_JSON_BODY_BYTES} bytes.`);
}
