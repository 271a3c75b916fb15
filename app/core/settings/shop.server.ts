import type { Shop } from "../../../prisma/generated/sqlite/index.js";
import { prisma } from "~/core/db.server";
import { env } from "~/core/env.server";
import { originHost } from "~/shared/host";

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
export async function upsertInstalledShop(
  domain: string,
  data: Partial<Pick<Shop, "name" | "locale" | "currency" | "primaryDomain" | "depositsAvailable" | "country" | "timezone">> = {},
) {
  const { locale: _storeLanguage, ...refreshed } = data;
  const shop = await prisma.shop.upsert({
    where: { domain },
    create: { domain, ...data },
    update: { ...refreshed, uninstalledAt: null },
  });
  forgetShop(domain);
  return shop;
}

/** The shop's row for the admin, created if the admin is opened before the install hook wrote it. */
export async function adminShop(domain: string): Promise<Shop> {
  return (await getShop(domain)) ?? (await upsertInstalledShop(domain));
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

/**
 * What the app keeps of Shopify's answer to SHOP_DETAILS (app/core/shopify/operations.ts), read at install
 * and at each new OAuth grant so storefront requests need no Admin call: name, currency, primary
 * domain (the code SMS's last line), whether the store can take draft-order deposits (a Shopify Plus
 * feature: the partial mode), the primary language and the shop's country (the last default region for
 * national phone numbers on orders). shop/update keeps them current.
 */
export function readShopDetails(body: unknown): Partial<Pick<Shop, "name" | "locale" | "currency" | "primaryDomain" | "depositsAvailable" | "country" | "timezone">> {
  const data = (body as {
    data?: {
      shop?: {
        name?: string;
        currencyCode?: string;
        primaryDomain?: { host?: string } | null;
        plan?: { shopifyPlus?: boolean } | null;
        shopAddress?: { countryCodeV2?: string | null } | null;
        ianaTimezone?: string | null;
      };
      shopLocales?: { locale: string; primary: boolean }[];
    };
  } | null)?.data;
  const plus = data?.shop?.plan?.shopifyPlus;
  const primary = data?.shopLocales?.find((l) => l.primary)?.locale;
  const host = originHost(data?.shop?.primaryDomain?.host);
  const country = countryCodeOf(data?.shop?.shopAddress?.countryCodeV2);
  const timezone = timezoneOf(data?.shop?.ianaTimezone);
  return {
    ...(data?.shop?.name ? { name: data.shop.name } : {}),
    ...(data?.shop?.currencyCode ? { currency: data.shop.currencyCode } : {}),
    ...(host ? { primaryDomain: host } : {}),
    ...(typeof plus === "boolean" ? { depositsAvailable: plus } : {}),
    ...(primary ? { locale: primary.split("-")[0] } : {}),
    ...(country ? { country } : {}),
    ...(timezone ? { timezone } : {}),
  };
}

/** An IANA time zone this runtime knows (Shopify's `ianaTimezone`, REST `iana_timezone`), or null: quiet hours are kept in it. */
function timezoneOf(value: unknown): string | null {
  if (typeof value !== "string" || !/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+){0,2}$/.test(value)) return null;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return value;
  } catch {
    return null;
  }
}

/** An ISO 3166 alpha-2 code as Shopify writes it (GraphQL `countryCodeV2`, REST `country_code`), or null. */
function countryCodeOf(value: unknown): string | null {
  return typeof value === "string" && /^[A-Z]{2}$/.test(value) ? value : null;
}

/**
 * shop/update (REST Shop payload): `domain` is the shop's primary domain, with `name`, `currency` and
 * `country_code`. Updates the shop's row when one of them changed; returns what was written.
 */
export async function applyShopUpdate(domain: string, payload: unknown) {
  const p = (payload ?? {}) as { domain?: unknown; name?: unknown; currency?: unknown; plan_name?: unknown; country_code?: unknown; iana_timezone?: unknown };
  const data: Partial<Pick<Shop, "name" | "currency" | "primaryDomain" | "depositsAvailable" | "country" | "timezone">> = {};
  const country = countryCodeOf(p.country_code);
  if (country) data.country = country;
  const timezone = timezoneOf(p.iana_timezone);
  if (timezone) data.timezone = timezone;
  // plan_name: "shopify_plus", "plus_partner_sandbox", "basic", "professional", "unlimited", ...
  if (typeof p.plan_name === "string" && p.plan_name) data.depositsAvailable = /plus/i.test(p.plan_name);
  const host = originHost(typeof p.domain === "string" ? p.domain : null);
  if (host) data.primaryDomain = host;
  if (typeof p.name === "string" && p.name.trim()) data.name = p.name.trim().slice(0, 255);
  if (typeof p.currency === "string" && /^[A-Z]{3}$/.test(p.currency)) data.currency = p.currency;
  if (!Object.keys(data).length) return {};
  const { count } = await prisma.shop.updateMany({ where: { domain }, data });
  forgetShop(domain);
  return count ? data : {};
}
