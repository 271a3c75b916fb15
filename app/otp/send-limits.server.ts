import { executeTogether, sql, type Sql } from "~/core/db/sql.server";
import { hitRateLimit, peekRateLimit, rateLimitPeek, rateLimitReleases, rateLimitResult, type RateLimitResult } from "~/core/rate-limit/rate-limit.server";
import { log } from "~/core/utils/log.server";
import { numberBlock } from "~/enforcement/burn.server";
import { shopDay, type ShopZone } from "~/shared/shop-day";
import { ipNetwork } from "~/shared/ip";
import { clock } from "~/core/utils/clock.server";
import { dailyCapKey, PHONE_TEXTS_PER_DAY, phoneTextsKey } from "~/sms/phone-cap.server";
import { limitOf, SHARE_WINDOW_SECONDS, type Hit, type SendDecision, type SendShare, type SpikeWatch } from "./send-decision.server";

/**
 * send-otp's limits as places (docs/security.md): who may spend how much of the shop's daily cap, how a
 * drain is seen and slowed, and the one verdict a send's counted hits come to.
 */

/**
 * How much of the shop's daily send cap one place may take in 24 hours, and the least it may always
 * take (a small cap still lets a shopper through): an IP, its network (/24, /48), and a block of numbers
 * (the number less its last 3 digits, as providers lease them) asked from one network. So neither one
 * machine, one provider's subnet nor one block of receiving numbers drains the cap for everyone, and a
 * block's share spent from one network never refuses the block's owners on theirs.
 */
export const DAILY_CAP_SHARES = {
  ip: { share: 0.02, floor: 5 },
  network: { share: 0.05, floor: 10 },
  block: { share: 0.02, floor: 5 },
} as const;

/** The most one place of `kind` may send in 24 hours under a daily cap of `dailyCap`. */
export function shareLimit(kind: keyof typeof DAILY_CAP_SHARES, dailyCap: number): number {
  const { share, floor } = DAILY_CAP_SHARES[kind];
  return Math.max(floor, Math.ceil(dailyCap * share));
}

/**
 * A number's texts split by network (docs/security.md, "Nobody locks others out"): each network may ask
 * for a number 5 times in 24 hours (a shopper's code and resends through the day), and the number gets 10
 * texts a day from all networks together; past those 10, a network that has not asked for the number in
 * 24 hours still gets its first code (the number's short limit does not hold it either), up to a ceiling
 * of 30 texts a day that nobody passes. So strangers on other networks cannot stop the owner's first code
 * unless they spend the ceiling, which takes 22 networks in one day (2 to spend the 10, then 20 first asks).
 */
export const PHONE_TEXTS_PER_NETWORK = 5;
export const PHONE_TEXTS_CEILING = 30;

/**
 * A drain's signature: many codes today, few of them confirmed. Past `minSendsShare` of the daily cap (at
 * least `minSendsFloor`) in the shop's day with fewer than one in `verifiedOneIn` confirmed, each network may
 * send `perNetworkPerHour` codes an hour: a shopper on a network still gets theirs, a drain from any number
 * of networks slows to that pace. Honest shoppers confirm most of their codes, so an honest busy day never looks like this.
 */
export const SPIKE = { minSendsShare: 0.1, minSendsFloor: 20, verifiedOneIn: 5, perNetworkPerHour: 2 } as const;
const HOUR_SECONDS = 3600;

/** A share only counted (the drain watch's): the largest count a PostgreSQL integer holds. */
const COUNTED_ONLY = 2_147_483_647;

/** The network requests with no usable client IP count under: one place, held to an IP's share (the strictest). */
export const UNKNOWN_PLACE = "unknown";

const hourOf = (now: Date) => Math.floor(now.getTime() / (HOUR_SECONDS * 1000));
const sentTodayKey = (shop: ShopZone, now: Date) => `otp-day-sent:${shop.id}:${shopDay(now, shop.timezone)}`;
const verifiedTodayKey = (shop: ShopZone, now: Date) => `otp-day-verified:${shop.id}:${shopDay(now, shop.timezone)}`;
/** The number's texts asked from one network (its slice of the number's day; keys end in `:<shopId>:<phone>`, redacted with the number). */
export const phoneNetworkKey = (shopId: string, phone: string, place: string) => `otp-phone-net:${place}:${shopId}:${phone}`;
export const networkVerifiedKey = (shopId: string, network: string) => `otp-net-verified:${shopId}:${network}`;

/** The network a request counts under: its /24 or /48, or UNKNOWN_PLACE when it has no usable IP. */
export function placeOf(ip: string | null | undefined): string {
  return ipNetwork(ip) ?? UNKNOWN_PLACE;
}

let unknownLogged = false;
/** A send with no usable client IP: said once per process (the proxy header is missing or unreadable), then only counted. */
function noteUnknownIp(shopId: string) {
  if (unknownLogged) return;
  unknownLogged = true;
  log.warn("otp: a request came with no usable client IP; such requests share one IP's share of the daily cap", { shopId });
}

export type ShareKind = "phone" | "phone_network" | "ip" | "network" | "block" | "spike" | "day";

/**
 * The shares a send counts against, in order: the number's own texts of the day (codes and the texts
 * after purchase alike: app/sms/phone-cap.server.ts) and of them what one network may ask, its IP and
 * network, its number's block from that network, the network's hour while a drain is seen, and the shop's
 * day (what the drain watch reads). No usable IP: every such request counts as one IP in one network,
 * held to an IP's share.
 */
export function sendShares(
  shop: ShopZone,
  phone: string,
  ip: string | null | undefined,
  dailyCap: number,
  now: Date,
  /** A code for an order already placed (the confirmation page), asked with no IP: the number's and the shop's limits bind it, no place's. */
  afterPurchase = false,
): (SendShare & { kind: ShareKind })[] {
  const shopId = shop.id;
  const network = ipNetwork(ip);
  const place = network ?? UNKNOWN_PLACE;
  const ipShare = shareLimit("ip", dailyCap);
  const places: (SendShare & { kind: ShareKind })[] =
    !network && afterPurchase
      ? []
      : [
          { kind: "ip", key: `otp-ip:${shopId}:${network && ip ? ip : UNKNOWN_PLACE}`, limit: ipShare },
          { kind: "network", key: `otp-net:${shopId}:${place}`, limit: network ? shareLimit("network", dailyCap) : ipShare },
        ];
  if (!network && !afterPurchase) noteUnknownIp(shopId);
  return [
    { kind: "phone", key: phoneTextsKey(shopId, phone), limit: PHONE_TEXTS_PER_DAY, firstAskLimit: PHONE_TEXTS_CEILING },
    { kind: "phone_network", key: phoneNetworkKey(shopId, phone, place), limit: PHONE_TEXTS_PER_NETWORK },
    ...places,
    { kind: "block", key: `otp-block:${shopId}:${numberBlock(phone)}:${place}`, limit: shareLimit("block", dailyCap) },
    { kind: "spike", key: `otp-net-hour:${shopId}:${place}:${hourOf(now)}`, limit: COUNTED_ONLY, spikeLimit: SPIKE.perNetworkPerHour, windowSeconds: HOUR_SECONDS },
    { kind: "day", key: sentTodayKey(shop, now), limit: COUNTED_ONLY },
  ];
}

/** What the decision reads to tell a drain: the shop's day's codes and confirmations. */
export function spikeWatch(shop: ShopZone & { dailySendCap: number }, now: Date): SpikeWatch {
  const minSends = Math.max(SPIKE.minSendsFloor, Math.ceil(shop.dailySendCap * SPIKE.minSendsShare));
  const t = now.getTime();
  return {
    sent: rateLimitPeek(sentTodayKey(shop, now), SHARE_WINDOW_SECONDS, t),
    verified: rateLimitPeek(verifiedTodayKey(shop, now), SHARE_WINDOW_SECONDS, t),
    minSends,
    verifiedOneIn: SPIKE.verifiedOneIn,
  };
}

/** A confirmed code: counted for the drain watch (the day) and for its network (a network whose codes get confirmed does not probe). */
export async function noteCodeConfirmed(shop: ShopZone, ip: string | null | undefined, now: Date): Promise<void> {
  await Promise.all([
    hitRateLimit(verifiedTodayKey(shop, now), COUNTED_ONLY, SHARE_WINDOW_SECONDS),
    hitRateLimit(networkVerifiedKey(shop.id, placeOf(ip)), COUNTED_ONLY, SHARE_WINDOW_SECONDS),
  ]);
}

/**
 * A source that probes: its network asked for codes for at least PROBE_MIN_SENDS numbers in 24 hours and
 * fewer than one in PROBE_VERIFIED_ONE_IN of them was confirmed. Its numbers are kept out of the holdout
 * experiment (always asked for a code) and counted apart (app/experiment).
 */
export const PROBE_MIN_SENDS = 10;
export const PROBE_VERIFIED_ONE_IN = 4;

export function fromProbingSource(networkSends: number, networkVerified: number): boolean {
  return networkSends >= PROBE_MIN_SENDS && networkVerified * PROBE_VERIFIED_ONE_IN < networkSends;
}

/**
 * What the counted hits come to, settled once, with the hits it gives back. `giveBack`: hits that were not
 * the place's doing, returned in the decision's own step (a refused request never spends a later limit);
 * `spent`: the hits a sent code keeps, given back only when the provider sends nothing.
 */
export type SendVerdict =
  | { kind: "returning"; giveBack: Hit[] }
  | { kind: "refused"; code: "rate_limited" | "shop_daily_cap"; place: ShareKind | "cap" | "cooldown"; retryAfter: number | null; giveBack: Hit[] }
  | { kind: "no_plan"; giveBack: Hit[] }
  | { kind: "allowance_used"; giveBack: Hit[] }
  /** At the daily cap a shopper before purchase gets the shop's fallback (the merchant's choice): nothing is spent. */
  | { kind: "cap_fallback"; giveBack: Hit[] }
  | { kind: "send"; challengeId: string; spent: Hit[]; giveBack: Hit[] };

type Counted = { key: string; hit: RateLimitResult };

export type VerdictInput = {
  decision: SendDecision;
  shares: (SendShare & { kind: ShareKind })[];
  perNumber: { key: string; limit: number; windowSeconds: number };
  daily: { key: string; cap: number };
  now: Date;
  /** Seconds until the cap's day ends (the shop's midnight): a prepaid-only refusal's Retry-After (worked out only for one). */
  capRetryAfter: () => number;
  subscribed: boolean;
  allowanceUsed: boolean;
  afterPurchase: boolean;
  capFallback: "confirm_after_purchase" | "prepaid_only";
};

/** The send's verdict from its decision, in the README's order: per number, plan, allowance, places, daily cap, cooldown. */
export function settleSend(v: VerdictInput): SendVerdict {
  const { decision, now } = v;
  const t = now.getTime();
  if (!decision.perNumber) return { kind: "returning", giveBack: [] };
  // A network's first ask of the number is not held by the number's short limit (send-decision.server.ts `countersOf`).
  const perNumberLimit = decision.firstAsk ? Number.MAX_SAFE_INTEGER : v.perNumber.limit;
  const perNumber = { key: v.perNumber.key, hit: rateLimitResult(decision.perNumber, perNumberLimit, v.perNumber.windowSeconds, t) };
  if (!perNumber.hit.allowed) return { kind: "refused", code: "rate_limited", place: "phone", retryAfter: perNumber.hit.retryAfterSeconds, giveBack: [] };
  if (!v.subscribed && !v.afterPurchase) return { kind: "no_plan", giveBack: [] };
  if (v.allowanceUsed && !v.afterPurchase) return { kind: "allowance_used", giveBack: [perNumber] };
  // A place past its share: refused like a rate limit; its hit stays counted (it is that place's doing).
  const shares: Counted[] = decision.shares.map((row, i) => {
    const share = v.shares[i];
    return { key: share.key, hit: rateLimitResult(row, limitOf(share, decision), share.windowSeconds ?? SHARE_WINDOW_SECONDS, t) };
  });
  const over = shares.findIndex((s) => !s.hit.allowed);
  if (over >= 0) {
    // The number's own counters go back too (its refused one included): no text went, so refused asks never spend the owner's.
    const numbers = shares.slice(0, over + 1).filter((_, i) => v.shares[i].kind === "phone");
    return { kind: "refused", code: "rate_limited", place: v.shares[over].kind, retryAfter: shares[over].hit.retryAfterSeconds, giveBack: [perNumber, ...numbers] };
  }
  const daily = { key: v.daily.key, hit: rateLimitResult(decision.daily!, v.daily.cap, SHARE_WINDOW_SECONDS, t) };
  const all = [perNumber, daily, ...shares];
  if (!daily.hit.allowed) {
    if (!v.afterPurchase && v.capFallback === "confirm_after_purchase") return { kind: "cap_fallback", giveBack: all };
    return { kind: "refused", code: "shop_daily_cap", place: "cap", retryAfter: v.capRetryAfter(), giveBack: all };
  }
  if (!decision.challengeId) return { kind: "refused", code: "rate_limited", place: "cooldown", retryAfter: null, giveBack: all };
  return { kind: "send", challengeId: decision.challengeId, spent: all, giveBack: [] };
}

/** Whether the shop's daily cap of codes is spent now (create-checkout's question for the cap's fallback). */
export async function dailyCapSpent(shop: ShopZone & { dailySendCap: number }, now: Date = clock.now()): Promise<boolean> {
  return (await peekRateLimit(dailyCapKey(shop, now), SHARE_WINDOW_SECONDS)) >= shop.dailySendCap;
}

/**
 * A pending code that will not be sent (held out, or the provider refused): it goes, and the count of codes
 * sent made with it is taken back (`uncount`); `messageId`: the record written for its text, which goes too
 * when nothing was ever tried (held out); `hits`: given back in the same round trip.
 */
export async function dropChallenge(challengeId: string, messageId: string | null, uncount: Sql, hits: Hit[] = []): Promise<void> {
  await executeTogether([
    sql`DELETE FROM "OtpChallenge" WHERE "id" = ${challengeId}`,
    uncount,
    ...(messageId ? [sql`DELETE FROM "MessageDelivery" WHERE "id" = ${messageId} AND "status" = 'accepted'`] : []),
    ...(hits.length ? [rateLimitReleases(hits)] : []),
  ]);
}
