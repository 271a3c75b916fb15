import { shopDay, type ShopZone } from "~/shared/shop-day";
import { hitRateLimit, releaseRateLimit, type RateLimitResult } from "~/core/rate-limit/rate-limit.server";

/**
 * How many texts one number gets from a shop in 24 hours, whatever they are: one-time codes (send-otp,
 * the confirmation page), confirmation links and WhatsApp answers after purchase. Anyone can type a
 * stranger's number into an order or a form; this is what that costs the stranger at most. Confirmation
 * links have a smaller cap of their own: ten orders placed with one number do not send ten links.
 * Keys end in `:<shopId>:<phone>`, so customers/redact deletes them with the number's other counters.
 */
export const PHONE_TEXTS_PER_DAY = 10;
export const PHONE_LINKS_PER_DAY = 3;
export const PHONE_CAP_WINDOW_SECONDS = 86_400;

/** The shop's daily cap counter (codes, the ladder's texts and calls, the delivery texts): Shop.dailySendCap a day of the shop's (its time zone). */
export function dailyCapKey(shop: ShopZone, now: Date) {
  return `otp-daily:${shop.id}:${shopDay(now, shop.timezone)}`;
}

export const phoneTextsKey = (shopId: string, phone: string) => `texts:${shopId}:${phone}`;
export const phoneLinksKey = (shopId: string, phone: string) => `confirm-links:${shopId}:${phone}`;

export type TextAllowance = { ok: true; giveBack: () => Promise<void> } | { ok: false };

/**
 * Counts one text (and, for a confirmation link, one link) to `phone` before it is sent; refused past
 * either cap (the refused hit stays counted: it is the caller's doing). `giveBack`: nothing went after all.
 */
export async function takePhoneText(shopId: string, phone: string, kind: "text" | "link" = "text"): Promise<TextAllowance> {
  const hits: [string, RateLimitResult][] = [];
  const giveBack = async () => {
    await Promise.all(hits.map(([key, hit]) => releaseRateLimit(key, hit)));
  };
  if (kind === "link") {
    const link = await hitRateLimit(phoneLinksKey(shopId, phone), PHONE_LINKS_PER_DAY, PHONE_CAP_WINDOW_SECONDS);
    if (!link.allowed) return { ok: false };
    hits.push([phoneLinksKey(shopId, phone), link]);
  }
  const text = await hitRateLimit(phoneTextsKey(shopId, phone), PHONE_TEXTS_PER_DAY, PHONE_CAP_WINDOW_SECONDS);
  if (!text.allowed) {
    await giveBack();
    return { ok: false };
  }
  hits.push([phoneTextsKey(shopId, phone), text]);
  return { ok: true, giveBack };
}
