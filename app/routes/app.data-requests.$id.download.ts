import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/core/shopify/app.server";
import { getShop } from "~/core/settings/shop.server";
import { dataRequestDocument, getDataRequest } from "~/privacy/data-requests.server";
import { jsonError } from "~/http/responses.server";
import { shopDay } from "~/shared/shop-day";

/**
 * GET /app/data-requests/:id/download: one data request's report as a JSON file, for the shop's admin
 * only (a session token; another shop's id is not found).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = await getShop(session.shop);
  const found = shop && params.id ? await getDataRequest(shop.id, params.id.slice(0, 64)) : null;
  if (!found) return jsonError(404, "not_found", "No data request of this store has that id.");
  const day = shopDay(found.createdAt, shop?.timezone);
  const name = `cod-verify-data-request-${day}${found.customerId ? `-customer-${found.customerId.replace(/\W/g, "")}` : ""}.json`;
  return new Response(JSON.stringify(dataRequestDocument(found), null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
}
