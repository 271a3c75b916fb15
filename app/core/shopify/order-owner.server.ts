import { log } from "~/core/utils/log.server";
import { shopifyGraphql } from "./graphql.server";
import { ORDER_READ_BACK } from "./operations";

/**
 * Whether an order is the shop's own, asked of Shopify with that shop's token: `order(id:)` answers null
 * for another shop's order (order ids are unique across Shopify). A webhook's HMAC is the app's, over the
 * body alone, and the body names no shop, so a captured body could be replayed under any installed shop's
 * header (docs/webhooks.md). `retry`: Shopify did not answer (the webhook answers 503 and Shopify delivers
 * it again); false when the shop has no session (uninstalled: nothing to act on for it).
 */
export async function shopHasOrder(shopDomain: string, orderGid: string, asking: string): Promise<boolean | "retry"> {
  const result = await shopifyGraphql<{ order?: { id?: string } | null }>("admin", shopDomain, ORDER_READ_BACK, { variables: { id: orderGid } });
  if (!result.ok) {
    if (result.cause === "no_session") return false;
    log.warn(`${asking}: the order could not be read back`, { shop: shopDomain, orderGid, cause: result.cause });
    return "retry";
  }
  const mine = result.data.order?.id === orderGid;
  if (!mine) log.info(`${asking}: an order this shop does not have; ignored`, { shop: shopDomain, orderGid });
  return mine;
}
