import type { LoaderFunctionArgs } from "@remix-run/node";
import { answerHostedPage } from "~/http/hosted-pages.server";
import { hostedPage } from "~/http/responses.server";
import { showPrepaidOfferLink } from "~/orders/prepaid-offer.server";
import { renderOfferPage } from "~/orders/prepaid-offer-page";

/**
 * GET /proxy/pp/:token: the pay-now link texted after a COD order (storefront: /apps/cod/pp/:token).
 * Signed by the app proxy like every storefront route. The first open is counted; the shopper is sent to
 * Shopify's own payment page for the order while it can still be paid online, else told why not.
 */
const STATUS = { paid: 200, closed: 200, unknown: 404, unavailable: 503 } as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  return answerHostedPage(
    request,
    "proxy/pp",
    (kind, locale) => renderOfferPage({ locale, shopName: "" }, kind === "forbidden" ? "unknown" : "unavailable", ""),
    async (ctx, queryLocale) => {
      const opened = await showPrepaidOfferLink(ctx.shop, params.token ?? "", queryLocale);
      if (opened.kind === "redirect") return new Response(null, { status: 302, headers: { Location: opened.url, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
      return hostedPage(renderOfferPage(opened.shell, opened.page, opened.orderName), STATUS[opened.page]);
    },
  );
}
