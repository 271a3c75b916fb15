import { defineJob, type JobResult } from "~/core/jobs/queue.server";
import { refreshShopDetails, shopDetailsReply } from "~/core/settings/shop.server";
import { SHOP_DETAILS_READ } from "~/core/settings/shop-install.server";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { SHOP_DETAILS } from "~/core/shopify/operations";

/**
 * The read of SHOP_DETAILS that failed at install, again, with the shop's offline session: retried with
 * the queue's backoff until Shopify answers (a failure stays on the job row: `npm run jobs`). A shop
 * uninstalled meanwhile is left alone.
 */
export const shopDetailsJob = defineJob({
  ...SHOP_DETAILS_READ,
  run: async ({ seedLocaleFrom }, { shop }): Promise<JobResult> => {
    const result = await shopifyGraphql<unknown>("admin", shop, SHOP_DETAILS);
    if (!result.ok) return { ok: false, error: `${result.cause}: ${result.detail}` };
    const reply = shopDetailsReply({ data: result.data });
    if (!reply.ok) return { ok: false, error: reply.error };
    await refreshShopDetails(shop, reply.details, seedLocaleFrom);
    return { ok: true };
  },
});
