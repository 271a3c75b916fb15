import { fill, pickLocale, type Locale } from "~/shared/locales";

/**
 * The pay-now offer's words, in every language the app writes: the text with the link ({shop} {order}
 * {amount} {link}, and {reward} when the merchant gives an amount back), the note in Shopify's invoice
 * email, and the pages the link shows when it cannot take the shopper to Shopify's payment page.
 */
const SMS: Record<Locale, { plain: string; reward: string }> = {
  en: {
    plain: "{shop}: pay {amount} for order {order} now and nothing is due on delivery: {link}",
    reward: "{shop}: pay {amount} for order {order} now and get {reward} back; nothing is due on delivery: {link}",
  },
  hi: {
    plain: "{shop}: ऑर्डर {order} के {amount} अभी चुकाएँ, डिलीवरी पर कुछ नहीं देना होगा: {link}",
    reward: "{shop}: ऑर्डर {order} के {amount} अभी चुकाएँ और {reward} वापस पाएँ; डिलीवरी पर कुछ नहीं देना होगा: {link}",
  },
  ar: {
    plain: "{shop}: ادفع {amount} للطلب {order} الآن ولن تدفع شيئًا عند الاستلام: {link}",
    reward: "{shop}: ادفع {amount} للطلب {order} الآن واسترد {reward}؛ لن تدفع شيئًا عند الاستلام: {link}",
  },
  fr: {
    plain: "{shop} : payez {amount} pour la commande {order} maintenant, rien à régler à la livraison : {link}",
    reward: "{shop} : payez {amount} pour la commande {order} maintenant et récupérez {reward} ; rien à régler à la livraison : {link}",
  },
  es: {
    plain: "{shop}: paga {amount} del pedido {order} ahora y no pagarás nada en la entrega: {link}",
    reward: "{shop}: paga {amount} del pedido {order} ahora y te devolvemos {reward}; no pagarás nada en la entrega: {link}",
  },
};

export function prepaidOfferSms(locales: (string | null | undefined)[], values: { shop: string; order: string; amount: string; link: string; reward: string | null }): string {
  const t = SMS[pickLocale(...locales)];
  return values.reward ? fill(t.reward, { ...values, reward: values.reward }) : fill(t.plain, { ...values, reward: "" });
}

/** The note in Shopify's invoice email (English: Shopify writes the rest of that email in the shop's language). */
export function invoiceNote(reward: string | null): string {
  return reward
    ? `Pay now and nothing is due on delivery. Once paid, ${reward} is refunded to you.`
    : "Pay now and nothing is due on delivery.";
}

export type OfferPage = "paid" | "closed" | "unknown" | "unavailable";

const PAGES: Record<Locale, Record<OfferPage, { title: string; body: string }>> = {
  en: {
    paid: { title: "Order paid", body: "Order {order} is paid. Nothing is due on delivery." },
    closed: { title: "Pay on delivery", body: "Order {order} can no longer be paid online. Pay on delivery as planned." },
    unknown: { title: "Link not valid", body: "This payment link is not valid." },
    unavailable: { title: "Try again", body: "The payment page could not be opened just now. Try again in a minute." },
  },
  hi: {
    paid: { title: "ऑर्डर का भुगतान हो गया", body: "ऑर्डर {order} का भुगतान हो चुका है। डिलीवरी पर कुछ नहीं देना है।" },
    closed: { title: "डिलीवरी पर भुगतान करें", body: "ऑर्डर {order} का अब ऑनलाइन भुगतान नहीं हो सकता। डिलीवरी पर भुगतान करें।" },
    unknown: { title: "लिंक मान्य नहीं है", body: "यह भुगतान लिंक मान्य नहीं है।" },
    unavailable: { title: "फिर से कोशिश करें", body: "भुगतान पेज अभी नहीं खुल सका। एक मिनट बाद फिर कोशिश करें।" },
  },
  ar: {
    paid: { title: "تم دفع الطلب", body: "تم دفع الطلب {order}. لا شيء مستحق عند الاستلام." },
    closed: { title: "الدفع عند الاستلام", body: "لم يعد من الممكن دفع الطلب {order} عبر الإنترنت. ادفع عند الاستلام كما هو مخطط." },
    unknown: { title: "رابط غير صالح", body: "رابط الدفع هذا غير صالح." },
    unavailable: { title: "حاول مرة أخرى", body: "تعذر فتح صفحة الدفع الآن. حاول مرة أخرى بعد دقيقة." },
  },
  fr: {
    paid: { title: "Commande payée", body: "La commande {order} est payée. Rien à régler à la livraison." },
    closed: { title: "Paiement à la livraison", body: "La commande {order} ne peut plus être payée en ligne. Réglez-la à la livraison comme prévu." },
    unknown: { title: "Lien non valide", body: "Ce lien de paiement n'est pas valide." },
    unavailable: { title: "Réessayez", body: "La page de paiement n'a pas pu s'ouvrir. Réessayez dans une minute." },
  },
  es: {
    paid: { title: "Pedido pagado", body: "El pedido {order} está pagado. No hay nada que pagar en la entrega." },
    closed: { title: "Pago en la entrega", body: "El pedido {order} ya no se puede pagar en línea. Paga en la entrega como estaba previsto." },
    unknown: { title: "Enlace no válido", body: "Este enlace de pago no es válido." },
    unavailable: { title: "Inténtalo de nuevo", body: "No se pudo abrir la página de pago. Inténtalo de nuevo en un minuto." },
  },
};

export function offerPageText(locale: Locale, page: OfferPage) {
  return PAGES[locale][page];
}
