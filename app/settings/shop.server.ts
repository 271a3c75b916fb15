import type { Shop } from "../../prisma/generated/sqlite/index.js";
import { prisma } from "~/db.server";
import { env } from "~/env.server";

export type { Shop };

/**
 * Shop rows are read on every storefront request (settings, subscription state), so they are
 * cached in memory for CACHE_TTL_SECONDS. Writes through `updateShop`/`upsertInstalledShop`
 * invalidate this instance at once; other instances catch up within the TTL.
 */
const cache = new Map<string, { shop: Shop | null; expires: number }>();

export async function getShop(domain: string): Promise<Shop | null> {
  const hit = cache.get(domain);
  const now = Date.now();
  if (hit && hit.expires > now) return hit.shop;
  const shop = await prisma.shop.findUnique({ where: { domain } });
  if (env.CACHE_TTL_SECONDS > 0) cache.set(domain, { shop, expires: now + env.CACHE_TTL_SECONDS * 1000 });
  return shop;
}

export function forgetShop(domain: string): void {
  cache.delete(domain);
}

export function clearShopCache(): void {
  cache.clear();
}

/**
 * Creates the shop row on install, or re-activates it on reinstall. The store's language only seeds
 * `locale` on the first install: after that it is the merchant's setting (the settings page), which a
 * reinstall or a new OAuth grant must not undo.
 */
export async function upsertInstalledShop(domain: string, data: Partial<Pick<Shop, "name" | "locale" | "currency">> = {}) {
  const { locale: _storeLanguage, ...refreshed } = data;
  const shop = await prisma.shop.upsert({
    where: { domain },
    create: { domain, ...data },
    update: { ...refreshed, uninstalledAt: null },
  });
  forgetShop(domain);
  return shop;
}

export type ShopSettingsUpdate = Partial<Omit<Shop, "id" | "domain" | "createdAt" | "updatedAt">>;

export async function updateShop(domain: string, data: ShopSettingsUpdate) {
  const shop = await prisma.shop.update({ where: { domain }, data });
  forgetShop(domain);
  return shop;
}

export function hasActiveSubscription(shop: Pick<Shop, "subscriptionStatus">): boolean {
  return shop.subscriptionStatus === "active";
}
