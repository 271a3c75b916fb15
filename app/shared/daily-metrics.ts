/**
 * What the daily rollup (DailyStat) counts: a metric and, where it splits, a dimension.
 *   otp_sent             a code went out; dimension: the number's country (ISO alpha-2, "" unknown)
 *   otp_verified         a code was confirmed, the number's first this calendar month (the plan's allowance counts these);
 *                        dimension "" for a code, else a text or call the app sent on its own and counted against the
 *                        allowance like one: ladder | confirmation | reminder | recovery | prepaid_offer (app/billing/contact-allowance.server.ts)
 *   otp_reverified       a code was confirmed for a number that had already verified this month (not counted again)
 *   otp_failed           wrong | expired | locked (the attempt that used up a code's tries, and later ones)
 *   otp_skipped          returning | disabled
 *   otp_refused          a code refused at a limit, by the place whose share ran out: phone | phone_network | ip | network |
 *                        block | spike | cooldown | cap (prepaid only at the daily cap) | cap_fallback (the cap's fallback given)
 *   correction_sent      an address-correction link went out
 *   correction_completed the shopper submitted the corrected address
 *   message_delivered    the provider reported a message delivered (or read); dimension: sms | whatsapp
 *   message_failed       the provider reported it failed, undelivered or cancelled; dimension: sms | whatsapp
 *   cod_refused          cash on delivery not offered to a high-risk shopper (verify-otp, a returning skip) or refused
 *                        by create-checkout; dimension: the deciding reason code (the rule's, else the largest reason)
 * Orders are not counted here: each has its OrderRecord row (state, mode, time), read by an indexed query.
 */
export const METRICS = [
  "otp_sent",
  "otp_verified",
  "otp_reverified",
  "otp_failed",
  "otp_skipped",
  "otp_refused",
  "correction_sent",
  "correction_completed",
  "message_delivered",
  "message_failed",
  "cod_refused",
] as const;

export type Metric = (typeof METRICS)[number];

/** The days formatted lately, by day number: a request asks for today and for days a fixed distance back (the burn watch's 28). */
const dayTexts = new Map<number, string>();
const DAY_TEXTS_KEPT = 64;

/** The UTC day of a moment, as DailyStat stores it ("2026-11-28"); the texts of the last days asked are kept (formatting a date is the dear part). */
export function utcDay(at: Date): string {
  const number = Math.floor(at.getTime() / 86_400_000);
  let text = dayTexts.get(number);
  if (text === undefined) {
    text = new Date(number * 86_400_000).toISOString().slice(0, 10);
    if (dayTexts.size >= DAY_TEXTS_KEPT) dayTexts.clear();
    dayTexts.set(number, text);
  }
  return text;
}
