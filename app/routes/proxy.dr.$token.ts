import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { answerHostedPage, readPostedForm } from "~/http/hosted-pages.server";
import { pageOutcomeResponse } from "~/http/outcomes.server";
import { renderRecoveryMessage, renderRecoveryView } from "~/delivery/page";
import { showRecoveryPage, submitRecoveryPage, type RecoveryPage } from "~/delivery/recovery-page.server";
import type { Locale } from "~/shared/locales";

/**
 * GET and POST /proxy/dr/:token: after a failed delivery the shopper chooses what happens next
 * (storefront: /apps/cod/dr/:token, the link texted when the carrier reported the failed attempt).
 * Signed by the app proxy like every storefront route; a POST must carry the page's nonce.
 */
const MAX_FORM_BYTES = 4 * 1024;

const refusal = (kind: "forbidden" | "unavailable", locale: Locale) => renderRecoveryMessage({ locale, shopName: "" }, kind);
const respond = (page: RecoveryPage) => pageOutcomeResponse(page.outcome, renderRecoveryView(page.shell, page.view));

export async function loader({ request, params }: LoaderFunctionArgs) {
  return answerHostedPage(request, "proxy/dr", refusal, async (ctx, locale) => respond(await showRecoveryPage(ctx.shop, params.token, locale)));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return answerHostedPage(request, "proxy/dr", refusal, async (ctx, locale) => {
    const posted = await readPostedForm(request, MAX_FORM_BYTES);
    return respond(await submitRecoveryPage(ctx.shop, params.token, locale, posted, ctx.pathPrefix));
  });
}
