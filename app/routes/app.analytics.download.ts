import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/core/shopify/app.server";
import { getShop, upsertInstalledShop } from "~/core/settings/shop.server";
import { deliveryAnalyticsCsv, loadDeliveryAnalytics, PERIODS } from "~/dashboard/delivery-analytics.server";
import { periodOf } from "~/dashboard/delivery-analytics-form";

/** GET /app/analytics/download?days=90: the delivery analytics as a CSV file, every breakdown in full, for the shop's admin only. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = (await getShop(session.shop)) ?? (await upsertInstalledShop(session.shop));
  const analytics = await loadDeliveryAnalytics(shop, periodOf(new URL(request.url), PERIODS));
  return new Response(deliveryAnalyticsCsv(analytics), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="cod-delivery-analytics-${analytics.days}d-${analytics.since.slice(0, 10)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
