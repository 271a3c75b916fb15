import { formNonceIsValid, issueFormNonce } from "~/address-correction/address-correction.server";
import type { Shop } from "~/core/settings/shop.server";
import type { PageShell, PostedForm } from "~/shared/hosted-page";
import { fill, pickLocale } from "~/shared/locales";
import { maskPhone } from "~/shared/phone-mask";
import { CODE_LENGTH, CODE_PATTERN } from "~/shared/otp-code";
import { prisma } from "~/core/db.server";
import { confirmWithCode, findConfirmationByToken, sendConfirmationCode, stateOf, type Confirmation } from "./confirmation.server";
import { clock } from "~/core/utils/clock.server";
import { reportNotMine, undoNotMine, undoUntil } from "./dispute.server";
import { DISPUTE_TEXTS } from "./dispute-texts";
import type { ConfirmView, OrderSummary } from "./page";
import { PAGE_TEXTS } from "./texts";

/**
 * GET and POST /vc/:token as the shopper meets them: the page to show, in the shopper's language (the
 * order's, else the shop's), and the outcome it stands for (app/http/outcomes.server.ts gives each its
 * status). GET shows the order and a button that texts a code; POST intent=send texts it,
 * intent=confirm checks it. "I did not place this order" takes two posts (intent=not_mine_ask asks
 * again, intent=not_mine records it) and can be taken back while the shop is not told yet
 * (intent=not_mine_undo, app/orders/confirmation/dispute.server.ts).
 */
export type ConfirmPage = {
  outcome: "page" | "invalid" | "gone" | "not_found" | "forged" | "bad_form" | "form_too_large" | "rate_limited" | "attempts_exhausted" | "unreachable" | "code_expired" | "unavailable";
  shell: PageShell;
  view: ConfirmView;
};

type Opened = { ok: true; shell: PageShell; confirmation: Confirmation } | { ok: false; page: ConfirmPage };

async function openConfirmation(shop: Shop, token: string | undefined, queryLocale: string | null): Promise<Opened> {
  const confirmation = token ? await findConfirmationByToken(shop, token) : null;
  const shell: PageShell = { locale: pickLocale(queryLocale, confirmation?.locale, shop.locale), shopName: shop.name ?? shop.domain };
  const message = (outcome: ConfirmPage["outcome"], message: "notFound" | "confirmed" | "closed" | "cancelled" | "disputed"): Opened => ({
    ok: false,
    page: { outcome, shell, view: { kind: "message", message, orderName: confirmation?.orderName ?? "" } },
  });
  if (!confirmation) return message("not_found", "notFound");
  if (confirmation.disputedAt) {
    // While the shop is not told yet, the shopper may take it back (the POST of the undo goes on below).
    const until = undoUntil(confirmation)!.getTime() - clock.now().getTime();
    if (until <= 0) return message("page", "disputed");
    return { ok: true, shell, confirmation };
  }
  const state = stateOf(confirmation);
  if (state === "confirmed") return message("page", "confirmed");
  if (state === "unconfirmed") return message("gone", "closed");
  if (state === "cancelled") return message("gone", "cancelled");
  return { ok: true, shell, confirmation };
}

/** The order as the app recorded it when it arrived (orders/create): its number, date and payment. */
async function summaryOf(c: Confirmation): Promise<OrderSummary> {
  const record = await prisma.orderRecord.findUnique({ where: { shopId_orderGid: { shopId: c.shopId, orderGid: c.orderGid } } });
  const payment = record?.mode === "partial" ? "partial" : record?.cod ? "cod" : null;
  return { orderName: record?.orderName ?? c.orderName ?? "", placedAt: record?.placedAt ?? null, payment };
}

async function step(outcome: ConfirmPage["outcome"], shell: PageShell, c: Confirmation, at: "start" | "code" | "ask_not_mine", alert?: string, notice?: string): Promise<ConfirmPage> {
  const state = { orderName: c.orderName ?? "", maskedPhone: maskPhone(c.phone), nonce: issueFormNonce(c), step: at, alert, notice, summary: await summaryOf(c) };
  return { outcome, shell, view: { kind: "page", state } };
}

/** The dispute sent, its undo offered for the minutes left of its window. */
function disputed(shell: PageShell, c: Confirmation, disputedAt: Date): ConfirmPage {
  const left = undoUntil({ disputedAt })!.getTime() - clock.now().getTime();
  if (left <= 0) return { outcome: "page", shell, view: { kind: "message", message: "disputed", orderName: c.orderName ?? "" } };
  const state = { orderName: c.orderName ?? "", nonce: issueFormNonce(c), minutesLeft: Math.max(1, Math.ceil(left / 60_000)) };
  return { outcome: "page", shell, view: { kind: "disputed", state } };
}

export async function showConfirmationPage(shop: Shop, token: string | undefined, queryLocale: string | null): Promise<ConfirmPage> {
  const opened = await openConfirmation(shop, token, queryLocale);
  if (!opened.ok) return opened.page;
  const c = opened.confirmation;
  return c.disputedAt ? disputed(opened.shell, c, c.disputedAt) : step("page", opened.shell, c, "start");
}

/** `ip`: the shopper's, as send-otp reads it (null when unknown): "send me a code" counts against its shares. */
export async function submitConfirmationPage(shop: Shop, token: string | undefined, queryLocale: string | null, posted: PostedForm, ip: string | null): Promise<ConfirmPage> {
  const opened = await openConfirmation(shop, token, queryLocale);
  if (!opened.ok) return opened.page;
  const { shell, confirmation: c } = opened;
  const t = PAGE_TEXTS[shell.locale];
  const refused = (outcome: ConfirmPage["outcome"]): ConfirmPage => ({ outcome, shell, view: { kind: "message", message: "forbidden" } });
  if (!posted.ok) return refused(posted.refused);
  if (!formNonceIsValid(c, posted.fields.get("nonce"))) return refused("forged");

  const intent = posted.fields.get("intent");
  if (intent === "not_mine") {
    const at = await reportNotMine(shop, c);
    return at ? disputed(shell, c, at) : { outcome: "page", shell, view: { kind: "message", message: "disputed", orderName: c.orderName ?? "" } };
  }
  if (intent === "not_mine_undo") {
    const undone = await undoNotMine(shop, c);
    if (!undone) return { outcome: "gone", shell, view: { kind: "message", message: "disputed", orderName: c.orderName ?? "" } };
    return step("page", shell, { ...c, disputedAt: null }, "start", undefined, DISPUTE_TEXTS[shell.locale].undone);
  }
  // Any other answer waits while a dispute stands: its undo comes first.
  if (c.disputedAt) return disputed(shell, c, c.disputedAt);
  if (intent === "not_mine_ask") return step("page", shell, c, "ask_not_mine");
  if (intent === "back") return step("page", shell, c, "start");

  if (intent === "send") {
    const sent = await sendConfirmationCode(shop, c, shell.locale, ip);
    if (sent.ok) return step("page", shell, c, "code");
    switch (sent.code) {
      case "rate_limited":
      case "shop_daily_cap":
        return step("rate_limited", shell, c, "start", fill(t.rateLimited, { minutes: String(Math.max(1, Math.ceil(sent.retryAfter / 60))) }));
      case "phone_unreachable":
      case "phone_blocked":
      case "country_not_allowed":
        return step("unreachable", shell, c, "start", t.unreachable);
      default:
        return step("unavailable", shell, c, "start", t.cannotSend);
    }
  }

  const code = (posted.fields.get("code") ?? "").replace(/\D/g, "");
  if (!CODE_PATTERN.test(code)) return step("invalid", shell, c, "code", fill(t.incompleteCode, { length: String(CODE_LENGTH) }));
  const outcome = await confirmWithCode(shop, c, code);
  if (outcome.ok) return { outcome: "page", shell, view: { kind: "message", message: "confirmed", orderName: c.orderName ?? "" } };
  switch (outcome.code) {
    case "invalid_code":
      return step("invalid", shell, c, "code", fill(t.wrongCode, { n: String(outcome.attemptsRemaining) }));
    case "attempts_exhausted":
      return step("attempts_exhausted", shell, c, "start", t.exhausted);
    case "code_expired":
      return step("code_expired", shell, c, "start", t.expiredCode);
    case "closed":
      return { outcome: "gone", shell, view: { kind: "message", message: "closed", orderName: c.orderName ?? "" } };
    case "already_verified":
      // The same right code sent twice (a double tap): the first confirms the order.
      return { outcome: "page", shell, view: { kind: "message", message: "confirmed", orderName: c.orderName ?? "" } };
  }
}
