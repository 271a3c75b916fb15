import { methodNotAllowed } from "~/http/responses.server";
import { webhookRoute } from "~/http/webhook.server";
import { applyShopUpdate } from "~/core/settings/shop.server";
import { log } from "~/core/utils/log.server";
import { requestEnforcementSync } from "~/enforcement/enforcement-jobs.server";

/**
 * shop/update: keeps the shop's primary domain (the host named on the code SMS's last line, which
 * WebOTP and Apple's autofill match against the storefront), name, currency and plan (whether the
 * store can take draft-order deposits) and time zone current; a new time zone is written into the
 * checkout function's configuration at once (the zone's offsets: docs/enforcement.md). Replays are harmless: the same values are written again.
 */
export const webhook = webhookRoute("shop/update", async ({ shop, payload }) => {
  const applied = await applyShopUpdate(shop, payload);
  log.info("webhook: shop updated", { shop, fields: Object.keys(applied) });
  if ("timezoneChanged" in applied) await requestEnforcementSync(shop, "timezone_changed");
  return "done";
});

export const action = webhook.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}
