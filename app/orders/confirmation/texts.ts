import { fill } from "~/address-correction/i18n";
import { pickLocale } from "~/shared/locales";

/** The order tags of verification after purchase (the verified tag is the shop's own setting). */
export const PENDING_TAG = "cod-pending";
export const UNCONFIRMED_TAG = "cod-unconfirmed";

/** The SMS with the link, in the shopper's language where we have it ({shop} {order} {link}). */
const SMS: Record<string, string> = {
  en: "{shop}: please confirm your cash-on-delivery order {order}: {link}",
  hi: "{shop}: कृपया अपना कैश-ऑन-डिलीवरी ऑर्डर {order} पुष्टि करें: {link}",
  ar: "{shop}: يرجى تأكيد طلب الدفع عند الاستلام {order}: {link}",
  fr: "{shop} : confirmez votre commande en paiement à la livraison {order} : {link}",
  es: "{shop}: confirma tu pedido contra reembolso {order}: {link}",
};

export function confirmationSms(locales: (string | null | undefined)[], values: { shop: string; order: string; link: string }): string {
  return fill(SMS[pickLocale(...locales)] ?? SMS.en, values);
}

/** The hosted page's texts (English; the SMS above is localised). */
export const PAGE = {
  title: "Confirm your order",
  intro: "To ship order {order} with payment on delivery, confirm the phone number it was placed with. We will text a code to {phone}.",
  send: "Text me a code",
  codeLabel: "6-digit code",
  codeHint: "Sent to {phone}. It expires in a few minutes.",
  confirm: "Confirm my order",
  resend: "Text me a new code",
  wrongCode: "That code is not right. {n} attempts left.",
  incompleteCode: "Enter the 6-digit code from the text message.",
  exhausted: "Too many wrong codes. Ask for a new code.",
  expiredCode: "This code has expired. Ask for a new code.",
  rateLimited: "Too many codes were sent to this number. Try again in {minutes} minutes.",
  cannotSend: "We could not send a code right now. Try again in a moment.",
  unreachable: "This number cannot receive text messages. Contact the shop to confirm your order.",
  confirmedTitle: "Order confirmed",
  confirmedBody: "Thank you: order {order} is confirmed and will be prepared for delivery.",
  closedTitle: "This link has expired",
  closedBody: "Order {order} was not confirmed in time. Contact the shop if you still want it.",
  notFoundTitle: "Link not found",
  notFoundBody: "Check the link in your text message, or contact the shop.",
  forbiddenTitle: "This page could not be opened",
  forbiddenBody: "Open the link from your text message again.",
} as const;
