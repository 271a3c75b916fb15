import { shopDayStart } from "~/shared/shop-day";

/**
 * Zones whose midnight is far from UTC's, or off the hour: +05:30, +14:00, -11:00, -03:30, +05:45.
 * A page's "last N days" read in UTC's instead of the shop's goes wrong in at least one of them.
 */
export const ZONES_FAR_FROM_UTC = ["Asia/Kolkata", "Pacific/Kiritimati", "Pacific/Pago_Pago", "America/St_Johns", "Asia/Kathmandu"];

/**
 * The instants a "last N days" period is tried at, around the shop's midnight into 1 December 2026:
 * `before` and `after` are a minute either side of it. `firstDayBefore` is the period's first day seen
 * at `before` ("2026-11-24" for 7 days), `firstDayAfter` the one seen at `after` ("2026-11-25").
 * `instants` are a second before and the first instant of each of those first days, the shop's: at
 * `before` the last three are in the period, at `after` only the last one.
 */
export function aroundShopMidnight(zone: string, firstDayBefore: string, firstDayAfter: string) {
  const midnight = shopDayStart("2026-12-01", zone).getTime();
  const fromBefore = shopDayStart(firstDayBefore, zone).getTime();
  const fromAfter = shopDayStart(firstDayAfter, zone).getTime();
  return {
    midnight,
    before: new Date(midnight - 60_000),
    after: new Date(midnight + 60_000),
    fromBefore,
    fromAfter,
    instants: [fromBefore - 1000, fromBefore, fromAfter - 1000, fromAfter],
  };
}
