import { prisma } from "~/core/db.server";
import { env } from "~/core/env.server";
import type { Shop } from "~/core/settings/shop.server";
import { DEFAULT_TEST_SHOP, installedAccessToken } from "../mocks/shopify/tokens";

export const SHOP = DEFAULT_TEST_SHOP;

/**
 * A shop that installed the app: an offline session and a shop row (active subscription unless told;
 * its storefront ready for shoppers to verify, as the merchant confirmed it, unless told: checkout
 * enforcement waits for that).
 */
export async function installShop(overrides: Partial<Shop> & { domain?: string } = {}) {
  const domain = overrides.domain ?? SHOP;
  await prisma.session.create({
    data: {
      id: `offline_${domain}`,
      shop: domain,
      state: "installed",
      isOnline: false,
      // What the app asks for: the admin's authentication refuses a session missing one of them.
      scope: env.SCOPES,
      accessToken: installedAccessToken(domain),
    },
  });
  return prisma.shop.create({
    data: { name: "Test Shop", subscriptionStatus: "active", storefrontReadyAt: new Date(), storefrontReadyBy: "merchant", ...overrides, domain },
  });
}
