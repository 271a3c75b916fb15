import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { showCorrectionPage, submitCorrectionPage, type CorrectionPage } from "~/address-correction/form.server";
import { renderCorrectionPage, renderMessage } from "~/address-correction/page";
import { answerHostedPage, readPostedForm } from "~/http/hosted-pages.server";
import { pageOutcomeResponse } from "~/http/outcomes.server";
import type { Locale } from "~/shared/locales";

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

const refusal = (kind: "forbidden" | "unavailable", locale: Locale) => renderMessage({ locale, shopName: "" }, kind);
const respond = (page: CorrectionPage) => pageOutcomeResponse(page.outcome, renderCorrectionPage(page.shell, page.view));

export async function loader({ request, params }: LoaderFunctionArgs) {
  return answerHostedPage(request, "proxy/ac", refusal, async (ctx, locale) => respond(await showCorrectionPage(ctx.shop, params.token, locale)));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return answerHostedPage(request, "proxy/ac", refusal, async (ctx, locale) => {
    const posted = await readPostedForm(request, MAX_FORM_BYTES);
    return respond(await submitCorrectionPage(ctx.shop, params.token, locale, posted));
  });
}
