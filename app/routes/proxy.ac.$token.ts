import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { findCorrectionByToken, formNonceIsValid, issueFormNonce, stateOf } from "~/address-correction/address-correction.server";
import type { Address } from "~/address-correction/address";
import { openedForm, submitCorrectionForm, typedAddress, type FormErrors } from "~/address-correction/form.server";
import { TEXTS } from "~/address-correction/i18n";
import { pickLocale } from "~/shared/locales";
import { renderForm, renderMessage, type MessageKind, type PageShell } from "~/address-correction/page";
import { authenticateProxy, type ProxyContext } from "~/http/app-proxy.server";
import { answer, hostedPage } from "~/http/responses.server";

/**
 * GET and POST /proxy/ac/:token, the hosted address form (storefront: /apps/cod/ac/:token).
 *
 * Plain HTML, not `application/liquid`: the page must look the same on every theme and fit a phone,
 * it is opened from an SMS (no need for the shop's navigation), and nothing the shopper typed is ever
 * handed to Liquid (Shopify's APP_PROXY_LIQUID_INJECTION check). Every request must carry the app-proxy
 * signature, which Shopify adds to every GET and POST through the storefront; a form POST must also
 * carry the page's nonce, so a post from another site is refused even though the proxy signs it.
 */

const MAX_FORM_BYTES = 16 * 1024;


function message(shell: PageShell, kind: MessageKind, status: number, extra: { orderName?: string; address?: Address } = {}) {
  return hostedPage(renderMessage(shell, kind, extra), status);
}

type Opened =
  | { ok: true; ctx: ProxyContext; shell: PageShell; correction: NonNullable<Awaited<ReturnType<typeof findCorrectionByToken>>> }
  | { ok: false; response: Response };

/** Signature, shop, token: each failure as a friendly page with the JSON API's status. */
async function open(request: Request, token: string | undefined): Promise<Opened> {
  const queryLocale = new URL(request.url).searchParams.get("locale");
  let ctx: ProxyContext;
  try {
    ctx = await authenticateProxy(request);
  } catch (thrown) {
    if (thrown instanceof Response) {
      const shell = { locale: pickLocale(queryLocale), shopName: "" };
      return { ok: false, response: message(shell, "forbidden", thrown.status) };
    }
    throw thrown;
  }
  const correction = token ? await findCorrectionByToken(ctx.shop, token) : null;
  const shell: PageShell = {
    locale: pickLocale(queryLocale, correction?.locale, ctx.shop.locale),
    shopName: ctx.shop.name ?? ctx.shop.domain,
  };
  if (!correction) return { ok: false, response: message(shell, "notFound", 404) };
  const state = stateOf(correction);
  if (state !== "pending") {
    return { ok: false, response: message(shell, state === "expired" ? "expired" : "used", 410) };
  }
  return { ok: true, ctx, shell, correction };
}

/**
 * An unexpected failure (the database down, a defect) answered per the contract: 503 `unavailable`
 * with Retry-After (500 `internal_error` for a defect), as the friendly page when a browser asks for
 * HTML and as the JSON error otherwise.
 */
async function guarded(request: Request, run: () => Promise<Response>): Promise<Response> {
  const response = await answer(run, "proxy/ac");
  if (response.status < 500 || !/application\/json/.test(response.headers.get("content-type") ?? "")) return response;
  if (!/text\/html/.test(request.headers.get("accept") ?? "")) return response;
  const shell = { locale: pickLocale(new URL(request.url).searchParams.get("locale")), shopName: "" };
  const page = message(shell, "unavailable", response.status);
  const retryAfter = response.headers.get("retry-after");
  if (retryAfter) page.headers.set("Retry-After", retryAfter);
  return page;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  return guarded(request, () => showForm(request, params.token));
}

async function showForm(request: Request, token: string | undefined) {
  const opened = await open(request, token);
  if (!opened.ok) return opened.response;
  return hostedPage(renderForm(opened.shell, openedForm(opened.correction)));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return guarded(request, () => submitForm(request, params.token));
}

async function submitForm(request: Request, token: string | undefined) {
  const opened = await open(request, token);
  if (!opened.ok) return opened.response;
  const { ctx, shell, correction } = opened;

  const type = request.headers.get("content-type") ?? "";
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (!/^application\/x-www-form-urlencoded\b/i.test(type) || declared > MAX_FORM_BYTES) {
    return message(shell, "forbidden", declared > MAX_FORM_BYTES ? 413 : 400);
  }
  const text = await request.text();
  if (text.length > MAX_FORM_BYTES) return message(shell, "forbidden", 413);
  const form = new URLSearchParams(text);
  if (!formNonceIsValid(correction, form.get("nonce"))) return message(shell, "forbidden", 403);

  const typed = typedAddress(form);
  const outcome = await submitCorrectionForm(ctx.shop, correction, typed);
  const orderName = correction.orderName ?? "";
  const again = (errors: FormErrors, zipExample?: string, status = 422, alert?: string) =>
    hostedPage(renderForm(shell, { orderName, values: typed, errors, zipExample, nonce: issueFormNonce(correction), alert }), status);
  switch (outcome.kind) {
    case "invalid":
      return again(outcome.errors, outcome.zipExample);
    case "done":
      return message(shell, "done", 200, { orderName, address: outcome.address });
    case "not_editable":
      return message(shell, "notEditable", 409, { orderName, address: outcome.address });
    case "gone":
      return message(shell, outcome.state === "expired" ? "expired" : "used", 410);
    case "unavailable": {
      const t = TEXTS[shell.locale];
      return again({}, undefined, 503, `${t.unavailableTitle}. ${t.unavailableBody}`);
    }
  }
}
