import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/core/shopify/app.server";
import { adminShop } from "~/core/settings/shop.server";
import { deliveryAnalyticsCsv, loadDeliveryAnalytics, PERIODS } from "~/dashboard/delivery-analytics.server";
import { jsonError } from "~/http/responses.server";
import { clock } from "~/core/utils/clock.server";
import { shopDay } from "~/shared/shop-day";

/**
 * GET /app/analytics/download/:days: the delivery analytics of the last 30, 90 or 365 days as a CSV file,
 * every breakdown in full, for the shop's admin only (a session token: the page fetches it and saves it).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const days = Number(params.days);
  if (!(PERIODS as readonly number[]).includes(days)) return jsonError(404, "not_found", `The period is one of ${PERIODS.join(", ")} days.`);
  const shop = await adminShop(session.shop);
  const analytics = await loadDeliveryAnalytics(shop, days);
  return new Response(deliveryAnalyticsCsv(analytics), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      // Named for the whole period, its first and last day in the shop's time zone, not its first day alone.
      "Content-Disposition": `attachment; filename="cod-delivery-analytics-last-${analytics.days}-days-${shopDay(Date.parse(analytics.since), shop.timezone)}-to-${shopDay(clock.now(), shop.timezone)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
