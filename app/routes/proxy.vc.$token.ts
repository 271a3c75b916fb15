import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { hostedPage } from "~/http/responses.server";
import { formNonceIsValid, issueFormNonce } from "~/address-correction/address-correction.server";
import { fill, pickLocale } from "~/shared/locales";
import { authenticateProxy, type ProxyContext } from "~/http/app-proxy.server";
import {
  confirmWithCode,
  findConfirmationByToken,
  sendConfirmationCode,
  stateOf,
  type Confirmation,
} from "~/orders/confirmation/confirmation.server";
import { renderConfirmMessage, renderConfirmPage, type ConfirmMessage, type PageShell } from "~/orders/confirmation/page";
import { PAGE_TEXTS } from "~/orders/confirmation/texts";
import { maskPhone } from "~/utils/log.server";

/**
 * GET and POST /proxy/vc/:token: the shopper confirms a cash-on-delivery order after purchase
 * (storefront: /apps/cod/vc/:token, the link texted when the order arrived without a verification).
 * GET shows the order and a button that texts a code; POST intent=send texts it, intent=confirm checks
 * it. Signed by the app proxy like every storefront route; a POST must carry the page's nonce.
 */
const MAX_FORM_BYTES = 4 * 1024;


type Opened = { ok: true; ctx: ProxyContext; shell: PageShell; confirmation: Confirmation } | { ok: false; response: Response };

async function open(request: Request, token: string | undefined): Promise<Opened> {
  const queryLocale = new URL(request.url).searchParams.get("locale");
  let ctx: ProxyContext;
  try {
    ctx = await authenticateProxy(request);
  } catch (thrown) {
    if (thrown instanceof Response) {
      return { ok: false, response: hostedPage(renderConfirmMessage({ locale: pickLocale(queryLocale), shopName: "" }, "forbidden"), thrown.status) };
    }
    throw thrown;
  }
  const confirmation = token ? await findConfirmationByToken(ctx.shop, token) : null;
  // The shopper's language as the order recorded it, else the shop's.
  const shell: PageShell = { locale: pickLocale(queryLocale, confirmation?.locale, ctx.shop.locale), shopName: ctx.shop.name ?? ctx.shop.domain };
  const message = (kind: ConfirmMessage, status: number) =>
    ({ ok: false, response: hostedPage(renderConfirmMessage(shell, kind, confirmation?.orderName ?? ""), status) }) as const;
  if (!confirmation) return message("notFound", 404);
  const state = stateOf(confirmation);
  if (state === "confirmed") return message("confirmed", 200);
  if (state === "unconfirmed") return message("closed", 410);
  return { ok: true, ctx, shell, confirmation };
}

function page(shell: PageShell, c: Confirmation, step: "start" | "code", alert?: string, status = 200) {
  return hostedPage(
    renderConfirmPage(shell, { orderName: c.orderName ?? "", maskedPhone: maskPhone(c.phone), nonce: issueFormNonce(c), step, alert }),
    status,
  );
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const opened = await open(request, params.token);
  if (!opened.ok) return opened.response;
  return page(opened.shell, opened.confirmation, "start");
}

export async function action({ request, params }: ActionFunctionArgs) {
  const opened = await open(request, params.token);
  if (!opened.ok) return opened.response;
  const { ctx, shell, confirmation: c } = opened;
  const forbidden = (status: number) => hostedPage(renderConfirmMessage(shell, "forbidden"), status);
  const PAGE = PAGE_TEXTS[shell.locale];

  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) return forbidden(400);
  const text = await request.text();
  if (text.length > MAX_FORM_BYTES) return forbidden(413);
  const form = new URLSearchParams(text);
  if (!formNonceIsValid(c, form.get("nonce"))) return forbidden(403);

  if (form.get("intent") === "send") {
    const sent = await sendConfirmationCode(ctx.shop, c, shell.locale);
    if (sent.ok) return page(shell, c, "code");
    switch (sent.code) {
      case "rate_limited":
      case "shop_daily_cap":
        return page(shell, c, "start", fill(PAGE.rateLimited, { minutes: String(Math.max(1, Math.ceil(sent.retryAfter / 60))) }), 429);
      case "phone_unreachable":
      case "phone_blocked":
      case "country_not_allowed":
        return page(shell, c, "start", PAGE.unreachable, 400);
      default:
        return page(shell, c, "start", PAGE.cannotSend, 503);
    }
  }

  const code = (form.get("code") ?? "").replace(/\D/g, "");
  if (!/^\d{6}$/.test(code)) return page(shell, c, "code", PAGE.incompleteCode, 422);
  const outcome = await confirmWithCode(ctx.shop, c, code);
  if (outcome.ok) return hostedPage(renderConfirmMessage(shell, "confirmed", c.orderName ?? ""));
  switch (outcome.code) {
    case "invalid_code":
      return page(shell, c, "code", fill(PAGE.wrongCode, { n: String(outcome.attemptsRemaining) }), 422);
    case "attempts_exhausted":
      return page(shell, c, "start", PAGE.exhausted, 429);
    case "code_expired":
      return page(shell, c, "start", PAGE.expiredCode, 400);
    case "closed":
      return hostedPage(renderConfirmMessage(shell, "closed", c.orderName ?? ""), 410);
  }
}
