import { formNonceIsValid, correctionLink, hashToken, issueFormNonce } from "~/address-correction/address-correction.server";
import { fromMailingAddress } from "~/core/places/address";
import { openOnce, reissueCorrectionLink } from "~/address-correction/open-correction.server";
import { fetchOrder } from "~/address-correction/shopify-orders.server";
import type { Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { randomToken } from "~/core/utils/crypto.server";
import type { PageOutcome } from "~/http/outcomes.server";
import type { PageShell, PostedForm } from "~/shared/hosted-page";
import { pickLocale } from "~/shared/locales";
import { normalizePhoneIn, phoneCountry } from "~/shared/phone";
import type { RecoveryView } from "./page";
import { shopDate } from "./quiet-hours";
import { answerDeliveryRecovery, DELIVERY_CHOICES, findRecoveryByToken, PICK_DAY_RANGE, stateOf, type DeliveryChoice, type Recovery } from "./recovery.server";
import { readOrderBalance } from "~/core/shopify/orders.server";
import { readRecoveryOrder } from "./order-summary.server";
import { RECOVERY_TEXTS } from "./texts";
import type { LocationChoiceState } from "./location-choice";
import { readLocation } from "~/address-correction/location.server";
import { enqueueDigipinWrite } from "~/address-correction/digipin-write.server";
import { prisma } from "~/core/db.server";

/**
 * GET and POST /dr/:token as the shopper meets them: the choices, and what each answer leads to (a
 * thank-you, the address form's link, Shopify's payment page where the order has one). The outcome
 * gives the status (app/http/outcomes.server.ts).
 */
export type RecoveryPage = { outcome: PageOutcome; shell: PageShell; view: RecoveryView };

type Opened = { ok: true; shell: PageShell; recovery: Recovery } | { ok: false; page: RecoveryPage };

async function openPage(shop: Shop, token: string | undefined, queryLocale: string | null): Promise<Opened> {
  const recovery = await findRecoveryByToken(shop, token);
  const shell: PageShell = { locale: pickLocale(queryLocale, recovery?.locale, shop.locale), shopName: shop.name ?? shop.domain };
  const orderName = recovery?.orderName ?? "";
  if (!recovery) return { ok: false, page: { outcome: "not_found", shell, view: { kind: "message", message: "notFound" } } };
  const state = stateOf(recovery);
  if (state === "answered") return { ok: false, page: { outcome: "page", shell, view: { kind: "message", message: "answered", orderName } } };
  if (state === "expired") return { ok: false, page: { outcome: "gone", shell, view: { kind: "message", message: "gone", orderName } } };
  return { ok: true, shell, recovery };
}

function dayRange(shop: Pick<Shop, "timezone">) {
  const now = clock.now();
  return { minDay: shopDate(now, shop.timezone, 1), maxDay: shopDate(now, shop.timezone, PICK_DAY_RANGE) };
}

/** The choices, with what the shopper needs to make one (the order's items, amount, address, phone). */
async function choicesPage(outcome: PageOutcome, shop: Shop, shell: PageShell, r: Recovery, typed: { alert?: string; day?: string; phone?: string; location?: LocationChoiceState } = {}): Promise<RecoveryPage> {
  // "Where you are" for an Indian order (the order's phone's country, else the shop's): DIGIPIN covers India only.
  const india = (r.phone ? phoneCountry(r.phone) : shop.country) === "IN";
  const location = india ? (typed.location ?? { digipin: r.digipin ?? "", note: null }) : undefined;
  const summary = await readRecoveryOrder(shop, r, shell.locale);
  return { outcome, shell, view: { kind: "page", state: { orderName: r.orderName ?? "", nonce: issueFormNonce(r), ...dayRange(shop), summary, ...typed, location } } };
}

/**
 * The `location` form: the DIGIPIN found from the phone's position (`intent=locate`, shown for the
 * shopper to send) or sent (typed or found), checked against the order's PIN code's district, kept on
 * the recovery (only the code) and written on the order for the courier by the `digipin.write` job.
 */
async function locationPage(shop: Shop, shell: PageShell, r: Recovery, fields: URLSearchParams): Promise<RecoveryPage> {
  const order = await fetchOrder(shop.domain, r.orderGid);
  const zip = order.ok && order.order?.shippingAddress?.countryCodeV2 === "IN" ? (order.order.shippingAddress.zip ?? null) : null;
  const location = readLocation(fields, zip);
  const shown = { digipin: location.typed, note: location.note };
  if (fields.get("intent") === "locate" || !location.digipin) {
    const failed = location.note?.kind === "invalid" || location.note?.kind === "outside" || !location.digipin;
    return choicesPage(failed ? "invalid" : "page", shop, shell, r, { location: shown });
  }
  const kept = await prisma.deliveryRecovery.updateMany({ where: { id: r.id, status: "open" }, data: { digipin: location.digipin } });
  if (kept.count !== 1) return { outcome: "gone", shell, view: { kind: "message", message: "answered", orderName: r.orderName ?? "" } };
  await enqueueDigipinWrite(shop.domain, r.orderGid, { recoveryId: r.id });
  return choicesPage("page", shop, shell, { ...r, digipin: location.digipin }, { location: { ...shown, sent: true } });
}

export async function showRecoveryPage(shop: Shop, token: string | undefined, queryLocale: string | null): Promise<RecoveryPage> {
  const opened = await openPage(shop, token, queryLocale);
  return opened.ok ? await choicesPage("page", shop, opened.shell, opened.recovery) : opened.page;
}

/**
 * "Correct my address": a correction of the order opened for the shopper (the app's address form,
 * reached at once from this page, not by another text). After dispatch Shopify usually refuses to edit
 * the address; the form then keeps it on the order's `cod_verify.requested_address` metafield and tag.
 * An open correction of the order (another way in opened it first) is reused: its link is issued anew
 * and shown here, since the one texted before cannot be rebuilt. Null when Shopify cannot be read;
 * `link` null when no form can be offered (the order is gone, no phone, or its correction is being
 * saved this moment): the page then says the shop will be in touch.
 */
async function openAddressForm(shop: Shop, r: Recovery, pathPrefix: string | null): Promise<{ link: string | null } | null> {
  const found = await fetchOrder(shop.domain, r.orderGid);
  if (!found.ok) return null;
  if (!found.order || !r.phone) return { link: null };
  const token = randomToken(24);
  const now = clock.now();
  const opened = await openOnce(
    {
      shopId: shop.id,
      orderGid: r.orderGid,
      orderName: r.orderName,
      phone: r.phone,
      tokenHash: hashToken(token),
      source: "delivery",
      reason: null,
      locale: pickLocale(r.locale, shop.locale),
      before: JSON.stringify(fromMailingAddress(found.order.shippingAddress)),
      expiresAt: new Date(now.getTime() + shop.addressCorrectionTtlHours * 3600_000),
    },
    now,
  );
  const usable = opened.ok || (opened.winner !== null && (await reissueCorrectionLink(opened.winner, hashToken(token), now)));
  return { link: usable ? correctionLink(shop, token, pathPrefix) : null };
}

export async function submitRecoveryPage(shop: Shop, token: string | undefined, queryLocale: string | null, posted: PostedForm, pathPrefix: string | null): Promise<RecoveryPage> {
  const opened = await openPage(shop, token, queryLocale);
  if (!opened.ok) return opened.page;
  const { shell, recovery: r } = opened;
  const t = RECOVERY_TEXTS[shell.locale];
  const orderName = r.orderName ?? "";
  const refused = (outcome: PageOutcome): RecoveryPage => ({ outcome, shell, view: { kind: "message", message: "forbidden" } });
  if (!posted.ok) return refused(posted.refused);
  if (!formNonceIsValid(r, posted.fields.get("nonce"))) return refused("forged");
  if (posted.fields.get("choice") === "location") return locationPage(shop, shell, r, posted.fields);
  const choice = posted.fields.get("choice") as DeliveryChoice | null;
  if (!choice || !DELIVERY_CHOICES.includes(choice)) return choicesPage("invalid", shop, shell, r);

  let date: string | null = null;
  let phone: string | null = null;
  let link: { href: string; label: string } | undefined;
  let addressByShop = false;
  if (choice === "pick_day") {
    const day = (posted.fields.get("day") ?? "").trim().slice(0, 20);
    const { minDay, maxDay } = dayRange(shop);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || day < minDay || day > maxDay) return choicesPage("invalid", shop, shell, r, { alert: t.invalidDay, day });
    date = day;
  } else if (choice === "fix_phone") {
    const typed = (posted.fields.get("phone") ?? "").slice(0, 40);
    phone = normalizePhoneIn(typed, r.phone ? phoneCountry(r.phone) : shop.country);
    if (!phone) return choicesPage("invalid", shop, shell, r, { alert: t.invalidPhone, phone: typed });
  } else if (choice === "fix_address") {
    const form = await openAddressForm(shop, r, pathPrefix);
    if (!form) return { outcome: "unavailable", shell, view: { kind: "message", message: "unavailable" } };
    if (form.link) link = { href: form.link, label: t.fixAddress };
    else addressByShop = true;
  } else if (choice === "pay_online") {
    // Shopify's own payment page for the balance, where it gives the order one; else the shop sends a link.
    const balance = await readOrderBalance(shop.domain, r.orderGid);
    const url = balance.ok ? balance.data?.paymentCollectionDetails?.additionalPaymentCollectionUrl : null;
    if (url) link = { href: url, label: t.payOnline };
  }

  const answered = await answerDeliveryRecovery(shop, r, { choice, date, phone });
  if (!answered.ok) return { outcome: "gone", shell, view: { kind: "message", message: "answered", orderName } };
  const done = ({ tomorrow: "tomorrow", pick_day: "pickDay", fix_phone: "phone", pay_online: "payOnline", fix_address: addressByShop ? "addressByShop" : "address" } as const)[choice];
  const shown = answered.recovery.choiceDate
    ? new Intl.DateTimeFormat(shell.locale, { dateStyle: "full", timeZone: "UTC" }).format(new Date(`${answered.recovery.choiceDate}T12:00:00Z`))
    : undefined;
  return { outcome: "page", shell, view: { kind: "message", message: "done", orderName, done, date: shown, link } };
}
