import type { PostedForm } from "~/shared/hosted-page";
import { pickLocale, type Locale } from "~/shared/locales";
import { authenticateProxy, type ProxyContext } from "./app-proxy.server";
import { hostedPage, responseForError } from "./responses.server";

/** What a hosted page says when it cannot be served: the request was refused, or the app is down. */
export type PageRefusal = "forbidden" | "unavailable";

/**
 * A hosted page's request end to end: the app-proxy signature is checked (a refusal is the page's own
 * "forbidden" message, with the status the JSON API answers), the page's work runs, and an unexpected
 * failure is answered per the contract (503 `unavailable` with Retry-After while the database is down,
 * 500 for a defect): as the page's "unavailable" message when a browser asks for HTML, as the JSON
 * error otherwise. `?locale=` picks the language of those two messages.
 */
export async function answerHostedPage(
  request: Request,
  where: string,
  refusal: (kind: PageRefusal, locale: Locale) => string,
  run: (ctx: ProxyContext, queryLocale: string | null) => Promise<Response>,
): Promise<Response> {
  const queryLocale = new URL(request.url).searchParams.get("locale");
  let response: Response;
  try {
    let ctx: ProxyContext;
    try {
      ctx = await authenticateProxy(request);
    } catch (thrown) {
      if (thrown instanceof Response) return hostedPage(refusal("forbidden", pickLocale(queryLocale)), thrown.status);
      throw thrown;
    }
    return await run(ctx, queryLocale);
  } catch (thrown) {
    response = thrown instanceof Response ? thrown : responseForError(thrown, where);
  }
  if (response.status < 500 || !/text\/html/.test(request.headers.get("accept") ?? "")) return response;
  const page = hostedPage(refusal("unavailable", pickLocale(queryLocale)), response.status);
  const retryAfter = response.headers.get("retry-after");
  if (retryAfter) page.headers.set("Retry-After", retryAfter);
  return page;
}

/** A hosted page's POST: a URL-encoded form of at most `maxBytes`, else refused unread (400, 413). */
export async function readPostedForm(request: Request, maxBytes: number): Promise<PostedForm> {
  const type = request.headers.get("content-type") ?? "";
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) return { ok: false, refused: "bad_form" };
  if (declared > maxBytes) return { ok: false, refused: "form_too_large" };
  const text = await request.text();
  if (text.length > maxBytes) return { ok: false, refused: "form_too_large" };
  return { ok: true, fields: new URLSearchParams(text) };
}
