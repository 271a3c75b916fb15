import { z } from "zod";
import { declareJob, enqueueJob } from "~/core/jobs/queue.server";
import { kickJobWorker } from "~/core/jobs/worker.server";
import { getShop, shopDetailsReply, upsertInstalledShop, type Shop } from "~/core/settings/shop.server";
import { SHOP_DETAILS } from "~/core/shopify/operations";
import { log } from "~/core/utils/log.server";

/**
 * The shop's details read again later, when the read at install failed (Shopify refused or did not
 * answer): a durable job (app/core/jobs), one per shop, run by app/core/shopify/shop-details-job.server.ts.
 * `seedLocaleFrom`: the row's language when the job was queued on a first install (the store's language
 * replaces only that one), null on a reinstall (the merchant's language stays).
 */
export const SHOP_DETAILS_READ = declareJob({
  kind: "shop-details",
  payload: z.object({ seedLocaleFrom: z.string().max(20).nullable() }),
});

export const shopDetailsJobKey = (domain: string) => `${domain}|details`;

type GraphqlClient = { graphql: (query: string) => Promise<Response> };

/**
 * An install or a new authorization (the library's afterAuth): the shop's row is created or marked
 * installed, with its name, currency, primary domain, Plus flag, country and language from SHOP_DETAILS.
 * When that read fails, the row is still written and the read is queued as a job, retried with the
 * queue's backoff; the failure is logged, never taken for "nothing to record".
 */
export async function recordInstall(domain: string, admin: GraphqlClient): Promise<Shop> {
  const read = await admin
    .graphql(SHOP_DETAILS)
    .then(async (response) => shopDetailsReply(await response.json()))
    .catch((error: unknown) => ({ ok: false as const, error: `threw: ${String((error as Error)?.message ?? error)}`.slice(0, 500) }));
  const before = read.ok ? null : await getShop(domain);
  const shop = await upsertInstalledShop(domain, read.ok ? read.details : {});
  if (!read.ok) {
    log.warn("install: the shop's details could not be read; queued to read again", { shop: domain, error: read.error });
    // A first install (no row before) takes the store's language later; a reinstall keeps the merchant's.
    const seedLocaleFrom = before ? null : shop.locale;
    await enqueueJob(SHOP_DETAILS_READ, { shop: domain, key: shopDetailsJobKey(domain), payload: { seedLocaleFrom } });
    kickJobWorker();
  }
  return shop;
}
