import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { answerHostedPage, readPostedForm } from "~/http/hosted-pages.server";
import { pageOutcomeResponse } from "~/http/outcomes.server";
import { shopperIp } from "~/http/shopper-ip.server";
import { showConfirmationPage, submitConfirmationPage, type ConfirmPage } from "~/orders/confirmation/confirm-page.server";
import { renderConfirmMessage, renderConfirmView } from "~/orders/confirmation/page";
import type { Locale } from "~/shared/locales";

/**
 * GET and POST /proxy/vc/:token: the shopper confirms a cash-on-delivery order after purchase
 * (storefront: /apps/cod/vc/:token, the link texted when the order arrived without a verification).
 * Signed by the app proxy like every storefront route; a POST must carry the page's nonce. Its "text me
 * a code" counts against the shopper's IP and network as send-otp does (app/otp/otp.server.ts `sendShares`).
 */
const MAX_FORM_BYTES = 4 * 1024;

const refusal = (kind: "forbidden" | "unavailable", locale: Locale) => renderConfirmMessage({ locale, shopName: "" }, kind);
const respond = (page: ConfirmPage) => pageOutcomeResponse(page.outcome, renderConfirmView(page.shell, page.view));

export async function loader({ request, params }: LoaderFunctionArgs) {
  return answerHostedPage(request, "proxy/vc", refusal, async (ctx, locale) => respond(await showConfirmationPage(ctx.shop, params.token, locale)));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return answerHostedPage(request, "proxy/vc", refusal, async (ctx, locale) => {
    const posted = await readPostedForm(request, MAX_FORM_BYTES);
    return respond(await submitConfirmationPage(ctx.shop, params.token, locale, posted, shopperIp(request)));
  });
}
