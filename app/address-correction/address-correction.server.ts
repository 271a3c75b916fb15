import crypto from "node:crypto";
import { maskPhone } from "~/shared/phone-mask";
import { prisma } from "~/core/db.server";
import { query, sql, toDate } from "~/core/db/sql.server";
import { env } from "~/core/env.server";
import { hitRateLimit, releaseRateLimit, type RateLimitResult } from "~/core/rate-limit/rate-limit.server";
import { whatsappLinkTemplate } from "~/sms/whatsapp";
import { sendSms } from "~/sms/sms.server";
import { countEvent } from "~/core/db/daily-stats.server";
import { hasActiveSubscription, type Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { hashesEqual, keyedHash, randomToken } from "~/core/utils/crypto.server";
import { log } from "~/core/utils/log.server";
import { enqueueFlowTrigger } from "~/core/flow/trigger-jobs.server";
import { EMPTY_ADDRESS, fromMailingAddress, type Address, type SuspectReason } from "~/core/places/address";
import { fill, pickLocale } from "~/shared/locales";
import { parseApiPhone } from "~/shared/phone";
import { TEXTS } from "./i18n";
import { address2WithDigipin, digipinTargetOf, enqueueDigipinWrite } from "./digipin-write.server";
import { digipinMapLink } from "~/shared/digipin";
import { findOpenCorrection, openOnce } from "./open-correction.server";
import {
  fetchOrder,
  findLatestOpenOrderByPhone,
  orderIsEditable,
  orderPhone,
  recordRequestedAddress,
  tagOrder,
  toOrderGid,
  updateOrderShippingAddress,
  type ShopifyOrder,
  type UserError,
} from "./shopify-orders.server";

export const CORRECTED_TAG = "address-corrected";
export const NOT_APPLIED_TAG = "address-correction-not-applied";

/** Limits on the request route: SMS to one number and requests for one order. */
export const REQUEST_LIMITS = {
  perPhone: { limit: 3, windowSeconds: 3600 },
  perOrder: { limit: 3, windowSeconds: 24 * 3600 },
  /** Storefront requests per shop: bounds probing of order ids and phones through the public route. */
  perShop: { limit: 300, windowSeconds: 3600 },
};

/** A submitted form is accepted for this long after the page was served. */
export const NONCE_TTL_SECONDS = 2 * 3600;
/** A claim on a correction (a submit in flight) that is older than this is considered abandoned. */
const CLAIM_STALE_MS = 2 * 60 * 1000;

const TOKEN_BYTES = 24; // 192 bits
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export function hashToken(token: string): string {
  return keyedHash("address-correction-token", token);
}

export type Correction = NonNullable<Awaited<ReturnType<typeof prisma.addressCorrection.findUnique>>>;

export type RequestInput = { orderId?: string; phone?: string; locale?: string };

/**
 * What a correction needs to know about an order, whichever way the order was read: from the Admin
 * API (a request by order id or phone) or from the orders/create payload (the automatic request).
 */
export type OrderToCorrect = { gid: string; name: string; phone: string | null; editable: boolean; address: Address };

function adminOrderToCorrect(order: ShopifyOrder): OrderToCorrect {
  return { gid: order.id, name: order.name, phone: orderPhone(order), editable: orderIsEditable(order), address: fromMailingAddress(order.shippingAddress) };
}

export type RequestOutcome =
  | { ok: true; status: "sent" | "already_pending"; correctionId: string | null; expiresAt: Date }
  | { ok: false; code: "subscription_required" | "order_not_found" | "order_has_no_phone" | "order_not_editable" | "shopify_unavailable" | "phone_unreachable" | "sms_unavailable" }
  | { ok: false; code: "rate_limited"; retryAfter: number };

/**
 * Creates a correction for an order (given by id, or the latest open order for a phone) and texts
 * the shopper a single-use link to the form. The token exists only in that SMS; the database keeps
 * its keyed hash. A correction still pending for the order is not duplicated (`already_pending`).
 */
export async function requestAddressCorrection(
  shop: Shop,
  input: RequestInput,
  options: {
    source?: "api" | "auto" | "whatsapp" | "voice" | "person";
    reason?: SuspectReason;
    pathPrefix?: string | null;
    order?: OrderToCorrect;
    /** The number to text, when the caller holds the one the app recorded for the order (a Flow action): Shopify's copy of the order gives only its state and address. */
    phone?: string;
    /** The link goes as free text inside the WhatsApp session the shopper's own message opened (their "Change address" button): this text, with {link} replaced. */
    whatsappSessionText?: (link: string) => string;
  } = {},
): Promise<RequestOutcome> {
  // Like the codes, the links are texts the merchant's plan pays for.
  if (!hasActiveSubscription(shop)) return { ok: false, code: "subscription_required" };
  const hits: { key: string; hit: RateLimitResult }[] = [];
  const count = async (key: string, limit: { limit: number; windowSeconds: number }) => {
    const hit = await hitRateLimit(key, limit.limit, limit.windowSeconds);
    hits.push({ key, hit });
    return hit.allowed ? null : ({ ok: false, code: "rate_limited", retryAfter: hit.retryAfterSeconds } as const);
  };
  const phoneKey = (p: string) => `ac:phone:${shop.id}:${p}`;
  const orderKey = (gid: string) => `ac:order:${shop.id}:${gid}`;

  // Count the request against what it names before asking Shopify anything.
  let order = options.order ?? null;
  if (!order) {
    // An id that cannot name an order is refused before anything is counted: a malformed request stores nothing.
    const gid = input.orderId ? toOrderGid(input.orderId) : null;
    if (input.orderId && !gid) return { ok: false, code: "order_not_found" };
    const limited = await count(`ac:shop:${shop.id}`, REQUEST_LIMITS.perShop);
    if (limited) return limited;
    if (gid) {
      const limited = await count(orderKey(gid), REQUEST_LIMITS.perOrder);
      if (limited) return limited;
      const found = await fetchOrder(shop.domain, gid);
      if (!found.ok) return { ok: false, code: "shopify_unavailable" };
      order = found.order && adminOrderToCorrect(found.order);
    } else if (input.phone) {
      const limited = await count(phoneKey(input.phone), REQUEST_LIMITS.perPhone);
      if (limited) return limited;
      const found = await findLatestOpenOrderByPhone(shop.domain, input.phone);
      if (!found.ok) return { ok: false, code: "shopify_unavailable" };
      order = found.order && adminOrderToCorrect(found.order);
    }
  }
  if (!order) return { ok: false, code: "order_not_found" };
  if (!order.editable) return { ok: false, code: "order_not_editable" };
  const phone = options.phone ?? order.phone;
  if (!phone) return { ok: false, code: "order_has_no_phone" };

  const now = clock.now();
  const pending = await findOpenCorrection(shop.id, order.gid, now);
  if (pending) return { ok: true, status: "already_pending", correctionId: pending.id, expiresAt: pending.expiresAt };
  const countedBeforeClaim = hits.length;

  // The other key of the pair: the order's number for a request by id, the order for a request by phone.
  if (!hits.some((h) => h.key === phoneKey(phone))) {
    const limited = await count(phoneKey(phone), REQUEST_LIMITS.perPhone);
    if (limited) return limited;
  }
  if (!hits.some((h) => h.key === orderKey(order.gid))) {
    const limited = await count(orderKey(order.gid), REQUEST_LIMITS.perOrder);
    if (limited) return limited;
  }

  const token = randomToken(TOKEN_BYTES);
  const locale = pickLocale(input.locale, shop.locale);
  const expiresAt = new Date(now.getTime() + shop.addressCorrectionTtlHours * 3600 * 1000);
  const opened = await openOnce({
    shopId: shop.id,
    orderGid: order.gid,
    orderName: order.name,
    phone,
    tokenHash: hashToken(token),
    source: options.source ?? "api",
    reason: options.reason ?? null,
    locale,
    before: JSON.stringify(order.address),
    expiresAt,
  }, now);
  if (!opened.ok) {
    // A concurrent request for the order won (here or on another instance) and texts its link: this
    // one sends nothing, and gives back what it counted after the check above, as if it had seen it.
    for (const { key, hit } of hits.slice(countedBeforeClaim)) await releaseRateLimit(key, hit);
    return { ok: true, status: "already_pending", correctionId: opened.winner?.id ?? null, expiresAt: opened.winner?.expiresAt ?? expiresAt };
  }
  const correction = opened.correction;

  const link = correctionLink(shop, token, options.pathPrefix);
  const session = options.whatsappSessionText?.(link) ?? null;
  const body = session ?? fill(TEXTS[locale].sms, { shop: shop.name ?? shop.domain, order: order.name, link });
  // WhatsApp refuses free text outside a 24-hour session: the link goes there as free text only inside
  // one (an answer to the shopper's button), else as the approved link template when the shop sends
  // links on WhatsApp (links in SMS are dropped in India unless whitelisted); SMS otherwise, and as the fallback.
  const template = !session && shop.linksOnWhatsapp ? whatsappLinkTemplate({ shop: shop.name ?? shop.domain, order: order.name, link }, [locale]) : null;
  const sms = await sendSms({
    shop: { id: shop.id, name: shop.name, domain: shop.domain },
    to: phone,
    body,
    channel: session || template ? "whatsapp" : "sms",
    whatsapp: template,
    whatsappSession: Boolean(session),
    purpose: "address_correction",
    orderGid: order.gid,
    fallbackUntil: expiresAt.getTime(),
  });
  if (!sms.ok && sms.maybeSent) {
    // Twilio did not answer in time: the link may have gone (docs/contract.md, "Proofs and holds"). The
    // correction stays pending, so the link works and a second request is already_pending rather than
    // a second text, and every hit stays counted, or a slow Twilio would text the number without limit.
    log.warn("address correction: SMS outcome unknown; correction kept", { shop: shop.domain, phone: maskPhone(phone), code: sms.code });
    return { ok: false, code: sms.code };
  }
  if (!sms.ok) {
    // Twilio refused, or was never reached: no link reached the shopper. Forget the correction, and a
    // provider outage does not count against them.
    await prisma.addressCorrection.delete({ where: { id: correction.id } });
    if (sms.code === "sms_unavailable") for (const { key, hit } of hits) await releaseRateLimit(key, hit);
    log.warn("address correction: SMS not sent", { shop: shop.domain, phone: maskPhone(phone), code: sms.code });
    return { ok: false, code: sms.code };
  }
  await countEvent(shop, "correction_sent");
  log.info("address correction requested", { shop: shop.domain, order: order.gid, phone, source: options.source ?? "api" });
  return { ok: true, status: "sent", correctionId: correction.id, expiresAt };
}

/**
 * The storefront's request (POST /proxy/api/address-correction.request): an order id (a number or its
 * text), or a phone as the shopper typed it, which must read as a number (`invalid_phone` otherwise);
 * the id wins when both are given.
 */
export async function requestCorrectionFromStorefront(
  shop: Shop,
  input: { orderId?: string | number; phone?: string; locale?: string },
  pathPrefix: string | null,
): Promise<RequestOutcome | { ok: false; code: "invalid_phone" }> {
  let phone: string | undefined;
  if (input.orderId === undefined && input.phone !== undefined) {
    phone = parseApiPhone(input.phone) ?? undefined;
    if (!phone) return { ok: false, code: "invalid_phone" };
  }
  return requestAddressCorrection(shop, { orderId: input.orderId === undefined ? undefined : String(input.orderId), phone, locale: input.locale }, { pathPrefix });
}

/**
 * The link in the SMS. On a real store it is the storefront's app-proxy URL, so Shopify signs every
 * request to the form, on the shop's link domain (Settings: the host whitelisted with India's DLT, one
 * of the store's own domains) or else its .myshopify.com domain; in local mode the local server's
 * storefront emulation plays that part.
 */
export function correctionLink(shop: Pick<Shop, "domain" | "linkDomain">, token: string, pathPrefix?: string | null): string {
  const prefix = pathPrefix && /^\/[a-z]+\/[A-Za-z0-9_-]{1,30}$/.test(pathPrefix) ? pathPrefix : env.proxyBasePath;
  const origin = env.localMode ? env.SHOPIFY_APP_URL.replace(/\/$/, "") : `https://${shop.linkDomain ?? shop.domain}`;
  return `${origin}${prefix}/ac/${token}`;
}

export type CorrectionState = "pending" | "completed" | "expired";

export function stateOf(correction: Pick<Correction, "status" | "expiresAt">, now = clock.now()): CorrectionState {
  if (correction.status === "completed" || correction.status === "not_editable") return "completed";
  if (correction.status === "expired") return "expired";
  return correction.expiresAt.getTime() <= now.getTime() ? "expired" : "pending";
}

/** The correction a token opens, for this shop; null for a malformed or unknown token. */
export async function findCorrectionByToken(shop: Pick<Shop, "id">, token: string): Promise<Correction | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const tokenHash = hashToken(token);
  // A direct statement: the status route asks this on every poll of the storefront.
  const rows = await query<Record<string, unknown>>(sql`SELECT * FROM "AddressCorrection" WHERE "tokenHash" = ${tokenHash}`);
  const correction = rows[0] ? correctionOf(rows[0]) : null;
  // The lookup is by hash; the comparison below is constant-time and also pins the shop.
  if (!correction || correction.shopId !== shop.id || !hashesEqual(correction.tokenHash, tokenHash)) return null;
  return correction;
}

/** What the storefront's status poll is told (GET /proxy/api/address-correction.status); null for an unknown token. */
export async function correctionStatus(shop: Pick<Shop, "id">, token: string): Promise<{ status: CorrectionState; expiresAt: Date; orderUpdated?: boolean } | null> {
  const correction = await findCorrectionByToken(shop, token);
  if (!correction) return null;
  const status = stateOf(correction);
  // Completed: whether the order itself took the address (`not_editable`: the merchant was told instead).
  return { status, expiresAt: correction.expiresAt, ...(status === "completed" ? { orderUpdated: correction.status === "completed" } : {}) };
}

/** A row read directly, in the shape Prisma gives it (dates as Date). */
function correctionOf(row: Record<string, unknown>): Correction {
  const date = (v: unknown) => (v === null || v === undefined ? null : toDate(v));
  return {
    ...(row as Correction),
    expiresAt: date(row.expiresAt)!,
    completedAt: date(row.completedAt),
    createdAt: date(row.createdAt)!,
    updatedAt: date(row.updatedAt)!,
  };
}

export function snapshotOf(correction: Pick<Correction, "before">): Address {
  return JSON.parse(correction.before) as Address;
}

/** The address the shopper saved through the link, once it was used (null before, or when retention cleared it). */
export function savedAddressOf(correction: Pick<Correction, "after">): Address | null {
  if (!correction.after) return null;
  try {
    return { ...EMPTY_ADDRESS, ...(JSON.parse(correction.after) as Partial<Address>) };
  } catch {
    return null;
  }
}

/* ---------- the per-form nonce ---------- */

/** A hidden-field nonce: the issue time and an HMAC binding it to this correction's token hash. */
export function issueFormNonce(correction: Pick<Correction, "tokenHash">, now = clock.now()): string {
  const issued = Math.floor(now.getTime() / 1000);
  return `${issued}.${keyedHash("address-correction-form", `${correction.tokenHash}.${issued}`)}`;
}

export function formNonceIsValid(correction: Pick<Correction, "tokenHash">, nonce: string | null, now = clock.now()): boolean {
  const m = /^(\d{1,12})\.([0-9a-f]{64})$/.exec(nonce ?? "");
  if (!m) return false;
  const issued = Number(m[1]);
  const age = Math.floor(now.getTime() / 1000) - issued;
  if (age < -60 || age > NONCE_TTL_SECONDS) return false;
  return hashesEqual(m[2], keyedHash("address-correction-form", `${correction.tokenHash}.${issued}`));
}

/* ---------- submitting the form ---------- */

export type SubmitOutcome =
  | { kind: "done"; address: Address }
  | { kind: "not_editable"; address: Address }
  | { kind: "gone"; state: "completed" | "expired" }
  | { kind: "field_errors"; errors: UserError[] }
  | { kind: "unavailable" };

/**
 * Applies a validated address: claims the correction (one submit wins), re-reads the order, updates
 * its shipping address with `orderUpdate`, tags it and marks the correction completed with the
 * before/after kept. An order that can no longer be edited keeps its address; the shopper's address
 * is stored and put on the order for the merchant. A Shopify outage releases the claim: the shopper
 * can submit again.
 */
export async function submitAddressCorrection(shop: Shop, correction: Correction, typed: Address, digipin: string | null = null): Promise<SubmitOutcome> {
  // The merchant's "second line" choice: the DIGIPIN goes with the address itself, in the same orderUpdate.
  const address = digipin && digipinTargetOf(shop.digipinTarget) === "address2" ? { ...typed, address2: address2WithDigipin(typed.address2, digipin) } : typed;
  const flow = { digipin: digipin ?? "", "map link": (digipin && digipinMapLink(digipin)) ?? "" };
  const now = clock.now();
  const claimId = crypto.randomUUID();
  const claimed = await prisma.addressCorrection.updateMany({
    where: {
      id: correction.id,
      expiresAt: { gt: now },
      OR: [{ status: "pending" }, { status: "submitting", updatedAt: { lt: new Date(now.getTime() - CLAIM_STALE_MS) } }],
    },
    // `failure` holds the claim's id while it is in flight, so only this submit can release it.
    data: { status: "submitting", failure: claimId },
  });
  if (claimed.count !== 1) {
    const current = await prisma.addressCorrection.findUnique({ where: { id: correction.id } });
    return { kind: "gone", state: current && stateOf(current, now) === "expired" ? "expired" : "completed" };
  }
  const release = () =>
    prisma.addressCorrection.updateMany({ where: { id: correction.id, status: "submitting", failure: claimId }, data: { status: "pending", failure: null } });

  const found = await fetchOrder(shop.domain, correction.orderGid);
  if (!found.ok) {
    await release();
    return { kind: "unavailable" };
  }
  if (!found.order || !orderIsEditable(found.order)) {
    await finish(correction, "not_editable", address, found.order ? "order_not_editable" : "order_not_found", digipin, shop.domain);
    await recordRequestedAddress(shop.domain, correction.orderGid, address);
    await tagOrder(shop.domain, correction.orderGid, [NOT_APPLIED_TAG]);
    await enqueueFlowTrigger(shop.domain, correction.orderGid, "addressCorrected", { applied: false, ...flow });
    log.info("address correction not applied: order not editable", { shop: shop.domain, order: correction.orderGid });
    return { kind: "not_editable", address };
  }

  const updated = await updateOrderShippingAddress(shop.domain, correction.orderGid, address);
  if (!updated.ok) {
    await release();
    return { kind: "unavailable" };
  }
  if (updated.userErrors.length) {
    const onFields = updated.userErrors.filter((e) => e.field?.includes("shippingAddress"));
    if (onFields.length === updated.userErrors.length) {
      await release();
      return { kind: "field_errors", errors: onFields };
    }
    // Shopify refused the change for the order itself (e.g. it was fulfilled meanwhile).
    await finish(correction, "not_editable", address, updated.userErrors.map((e) => e.message).join("; ").slice(0, 500), digipin, shop.domain);
    await recordRequestedAddress(shop.domain, correction.orderGid, address);
    await tagOrder(shop.domain, correction.orderGid, [NOT_APPLIED_TAG]);
    await enqueueFlowTrigger(shop.domain, correction.orderGid, "addressCorrected", { applied: false, ...flow });
    return { kind: "not_editable", address };
  }
  await finish(correction, "completed", address, null, digipin, shop.domain);
  await countEvent(shop, "correction_completed");
  await tagOrder(shop.domain, correction.orderGid, [CORRECTED_TAG]);
  await enqueueFlowTrigger(shop.domain, correction.orderGid, "addressCorrected", { applied: true, ...flow });
  log.info("address corrected", { shop: shop.domain, order: correction.orderGid });
  return { kind: "done", address };
}

/** The correction settled, with the DIGIPIN the shopper gave (only the code), whose write on the order is queued. */
async function finish(correction: Pick<Correction, "id" | "orderGid">, status: "completed" | "not_editable", address: Address, failure: string | null, digipin: string | null, shop: string) {
  await prisma.addressCorrection.update({
    where: { id: correction.id },
    data: { status, after: JSON.stringify(address), failure, digipin, completedAt: clock.now() },
  });
  if (digipin) await enqueueDigipinWrite(shop, correction.orderGid, { correctionId: correction.id });
}
