/**
 * A moment as the merchant reads it: in the store's time zone (Shopify's `ianaTimezone`, kept on the shop),
 * UTC until Shopify has told us. Formatted once, on the server, so the page shows the same text before and
 * after it hydrates, whatever the browser's own zone.
 */
export function shopTimeZone(timezone: string | null | undefined): string {
  if (!timezone) return "UTC";
  try {
    new Intl.DateTimeFormat("en", { timeZone: timezone });
    return timezone;
  } catch {
    return "UTC";
  }
}

export function shopDateTime(at: Date, timezone: string | null | undefined): string {
  return new Intl.DateTimeFormat("en", { timeZone: shopTimeZone(timezone), month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at);
}

export function shopDate(at: Date, timezone: string | null | undefined): string {
  return new Intl.DateTimeFormat("en", { timeZone: shopTimeZone(timezone), year: "numeric", month: "short", day: "numeric" }).format(at);
}
