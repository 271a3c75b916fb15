import type { z } from "zod";
import { jsonError } from "~/http/responses.server";

export const MAX_JSON_BODY_BYTES = 16 * 1024;

/**
 * Reads and validates a JSON request body. Throws a JSON error Response:
 * 415/400 for a wrong content type, 400 `invalid_request` for malformed JSON or fields that fail the
 * schema (with `fields` naming each), 413 for a body over 16 KiB. Never reads more than the limit.
 */
export async function readJsonBody<S extends z.ZodTypeAny>(request: Request, schema: S): Promise<z.output<S>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw jsonError(400, "invalid_request", "Send the body as JSON (Content-Type: application/json).", {
      fields: { body: "expected application/json" },
    });
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_JSON_BODY_BYTES) throw tooLarge();
  const text = await readLimited(request);
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

export function describeIssues(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "body";
    fields[key] ??= issue.message;
  }
  return fields;
}

function tooLarge() {
  return jsonError(413, "payload_too_large", `The body is larger than ${MAX_JSON_BODY_BYTES} bytes.`);
}

async function readLimited(request: Request): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_JSON_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
