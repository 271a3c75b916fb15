import type { Shop } from "~/core/settings/shop.server";
import { log } from "~/core/utils/log.server";
import { countCodRefused, modeChoice, type ModeChoice } from "~/risk/assess.server";
import type { CreateCheckoutBody } from "./checkout-request";
import { createCheckout, type CheckoutOutcome } from "./checkout.server";

/** What POST /proxy/create-checkout answers, as outcomes (the route maps each to its JSON). */
export type ShopperCheckoutOutcome =
  | { kind: "checkout"; checkoutUrl: string }
  | { kind: "fallback"; proof: string | null }
  | { kind: "not_verified" }
  | { kind: "phone_blocked" }
  /** A high-risk shopper (docs/risk.md): the modes still allowed, and the band in words. */
  | { kind: "cod_not_allowed"; choice: ModeChoice };

/**
 * The storefront's checkout: createCheckout's work, where even our own failure (the database, a bug)
 * never stops the sale (the store's checkout takes over), and a refusal of cash on delivery for risk is
 * counted once, with the modes the shopper may still choose.
 */
export async function checkoutForShopper(input: {
  shop: Shop;
  accessToken: string | undefined;
  body: CreateCheckoutBody;
  buyerIp: string | null;
}): Promise<ShopperCheckoutOutcome> {
  let outcome: CheckoutOutcome;
  try {
    outcome = await createCheckout(input);
  } catch (error) {
    log.error("create-checkout failed unexpectedly; answering fallback", { shop: input.shop.domain, error: String(error) });
    return { kind: "fallback", proof: null };
  }
  if (outcome.kind === "cod_not_allowed") {
    const choice = modeChoice(input.shop, outcome.risk, outcome.band, outcome.offer);
    await countCodRefused(input.shop, outcome.risk);
    return { kind: "cod_not_allowed", choice };
  }
  return outcome;
}
