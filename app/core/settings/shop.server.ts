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
export async function upsertInstalledShop(domain: string, data: ShopDetails = {}) {
  const { locale: _storeLanguage, ...refreshed } = data;
  const shop = await prisma.shop.upsert({
    where: { domain },
    create: { domain, ...data },
    update: { ...refreshed, uninstalledAt: null },
  });
  forgetShop(domain);
  return shop;
}

/**
 * The shop's row for the admin, created if the admin is opened before the install hook wrote it. Read
 * from the database, never from the storefront's cache: the admin says what checkout does, and the
 * enforcement job that decides checkout reads the row as it is (a cached copy lagged it by up to the TTL).
 */
export async function adminShop(domain: string): Promise<Shop> {
  const shop = await prisma.shop.findUnique({ where: { domain } });
  if (!shop) return upsertInstalledShop(domain);
  if (env.CACHE_TTL_SECONDS > 0) cache.set(domain, { shop, expires: Date.now() + env.CACHE_TTL_SECONDS * 1000 });
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

export type ShopDetails = Partial<Pick<Shop, "name" | "locale" | "currency" | "primaryDomain" | "depositsAvailable" | "country" | "developmentStore" | "timezone">>;

/**
 * What the app keeps of Shopify's answer to SHOP_DETAILS (app/core/shopify/operations.ts), read at install
 * and at each new OAuth grant so storefront requests need no Admin call: name, currency, primary
 * domain (the code SMS's last line), whether the store can take draft-order deposits (a Shopify Plus
 * feature: the partial mode), whether it is a development store (its charges are test charges), the
 * primary domain's default language and the shop's country (the last
 * default region for national phone numbers on orders). shop/update keeps them current.
 */
export function readShopDetails(body: unknown): ShopDetails {
  const data = (body as {
    data?: {
      shop?: {
        name?: string;
        currencyCode?: string;
        primaryDomain?: { host?: string; localization?: { defaultLocale?: string | null } | null } | null;
        plan?: { shopifyPlus?: boolean; partnerDevelopment?: boolean } | null;
        shopAddress?: { countryCodeV2?: string | null } | null;
        ianaTimezone?: string | null;
      };
    };
  } | null)?.data;
  const plus = data?.shop?.plan?.shopifyPlus;
  const development = data?.shop?.plan?.partnerDevelopment;
  const language = languageOf(data?.shop?.primaryDomain?.localization?.defaultLocale);
  const host = originHost(data?.shop?.primaryDomain?.host);
  const country = countryCodeOf(data?.shop?.shopAddress?.countryCodeV2);
  const timezone = timezoneOf(data?.shop?.ianaTimezone);
  return {
    ...(data?.shop?.name ? { name: data.shop.name } : {}),
    ...(data?.shop?.currencyCode ? { currency: data.shop.currencyCode } : {}),
    ...(host ? { primaryDomain: host } : {}),
    ...(typeof plus === "boolean" ? { depositsAvailable: plus } : {}),
    ...(typeof development === "boolean" ? { developmentStore: development } : {}),
    ...(language ? { locale: language } : {}),
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

/**
 * SHOP_DETAILS's whole reply, judged: the details, or why there are none (GraphQL errors, such as a
 * field Shopify refused, or a reply without the shop). A refusal is never read as "nothing to record".
 */
export function shopDetailsReply(body: unknown): { ok: true; details: ShopDetails } | { ok: false; error: string } {
  const reply = body as { data?: { shop?: unknown } | null; errors?: unknown } | null;
  if (reply?.errors) return { ok: false, error: `graphql_errors: ${JSON.stringify(reply.errors).slice(0, 400)}` };
  if (!reply?.data?.shop) return { ok: false, error: "invalid_response: no shop in the reply" };
  return { ok: true, details: readShopDetails(body) };
}

/** "pt-BR" -> "pt": the language part of a locale Shopify gives, or null. */
function languageOf(locale: unknown): string | null {
  if (typeof locale !== "string") return null;
  const language = locale.split("-")[0].toLowerCase();
  return /^[a-z]{2,3}$/.test(language) ? language : null;
}

/**
 * Details read after the install (the retry job, app/core/settings/shop-details.server.ts): written to
 * an installed shop's row. The language only replaces `seedLocaleFrom`, the row's language when the
 * read was queued: a language the merchant chose meanwhile (the settings page) stays.
 */
export async function refreshShopDetails(domain: string, details: ShopDetails, seedLocaleFrom: string | null): Promise<boolean> {
  const { locale, ...rest } = details;
  const { count } = await prisma.shop.updateMany({ where: { domain, uninstalledAt: null }, data: rest });
  if (count && locale && seedLocaleFrom !== null) await prisma.shop.updateMany({ where: { domain, locale: seedLocaleFrom }, data: { locale } });
  forgetShop(domain);
  return count > 0;
}

/** An ISO 3166 alpha-2 code as Shopify writes it (GraphQL `countryCodeV2`, REST `country_code`), or null. */
function countryCodeOf(value: unknown): string | null {
  return typeof value === "string" && /^[A-Z]{2}$/.test(value) ? value : null;
}

/** shop/update's plan_name of a development or sandbox store (REST Shop `plan_name`). */
const DEVELOPMENT_PLAN_NAMES = ["affiliate", "partner_test", "plus_partner_sandbox"];

/**
 * shop/update (REST Shop payload): `domain` is the shop's primary domain, with `name`, `currency` and
 * `country_code`. Updates the shop's row when one of them changed; returns what was written.
 */
export async function applyShopUpdate(domain: string, payload: unknown) {
  const p = (payload ?? {}) as { domain?: unknown; name?: unknown; currency?: unknown; plan_name?: unknown; country_code?: unknown; iana_timezone?: unknown };
  const data: Partial<Pick<Shop, "name" | "currency" | "primaryDomain" | "depositsAvailable" | "country" | "developmentStore" | "timezone">> = {};
  const country = countryCodeOf(p.country_code);
  if (country) data.country = country;
  const timezone = timezoneOf(p.iana_timezone);
  if (timezone) data.timezone = timezone;
  // plan_name: "shopify_plus", "plus_partner_sandbox", "basic", "professional", "unlimited", ...; a
  // development store's ("affiliate", "partner_test", "plus_partner_sandbox") becomes a paying store's
  // when the store is transferred to a merchant, and then its charges are real ones.
  if (typeof p.plan_name === "string" && p.plan_name) {
    data.depositsAvailable = /plus/i.test(p.plan_name);
    data.developmentStore = DEVELOPMENT_PLAN_NAMES.includes(p.plan_name);
  }
  const host = originHost(typeof p.domain === "string" ? p.domain : null);
  if (host) data.primaryDomain = host;
  if (typeof p.name === "string" && p.name.trim()) data.name = p.name.trim().slice(0, 255);
  if (typeof p.currency === "string" && /^[A-Z]{3}$/.test(p.currency)) data.currency = p.currency;
  if (!Object.keys(data).length) return {};
  // The zone before: a change moves the shop's days, and checkout's copy of the zone with them.
  const before = data.timezone ? await prisma.shop.findUnique({ where: { domain }, select: { timezone: true } }) : null;
  const { count } = await prisma.shop.updateMany({ where: { domain }, data });
  forgetShop(domain);
  if (!count) return {};
  return before && before.timezone !== data.timezone ? { ...data, timezoneChanged: true as const } : data;
}
