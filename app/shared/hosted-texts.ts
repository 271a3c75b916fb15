import type { Locale } from "./locales";

/**
 * What every hosted page (the address form, the failed-delivery page, the order confirmation) says when its
 * link cannot be served: not found, opened the wrong way (a POST without the page's nonce, a form that is
 * not one), expired, or the page not available right now. One source, so the pages cannot drift apart;
 * each page adds the sentences of its own case (what an expired link means for that order).
 */
export type LinkTexts = {
  notFoundTitle: string;
  notFoundBody: string;
  forbiddenTitle: string;
  forbiddenBody: string;
  expiredTitle: string;
  unavailableTitle: string;
  unavailableBody: string;
};

export const LINK_TEXTS: Record<Locale, LinkTexts> = {
  en: {
    notFoundTitle: "Link not found",
    notFoundBody: "Check the link in your text message, or contact the shop.",
    forbiddenTitle: "This page could not be opened",
    forbiddenBody: "Open the link from your text message again.",
    expiredTitle: "This link has expired",
    unavailableTitle: "This page is not available right now",
    unavailableBody: "Try again in a few minutes.",
  },
  hi: {
    notFoundTitle: "लिंक नहीं मिला",
    notFoundBody: "अपने SMS में लिंक जाँचें, या दुकान से संपर्क करें।",
    forbiddenTitle: "यह पेज नहीं खुल सका",
    forbiddenBody: "अपने SMS से लिंक फिर से खोलें।",
    expiredTitle: "इस लिंक की समय-सीमा समाप्त हो गई है",
    unavailableTitle: "यह पेज अभी उपलब्ध नहीं है",
    unavailableBody: "कुछ मिनट बाद फिर से कोशिश करें।",
  },
  ar: {
    notFoundTitle: "الرابط غير موجود",
    notFoundBody: "تحقق من الرابط في رسالتك، أو تواصل مع المتجر.",
    forbiddenTitle: "تعذر فتح هذه الصفحة",
    forbiddenBody: "افتح الرابط من رسالتك مرة أخرى.",
    expiredTitle: "انتهت صلاحية هذا الرابط",
    unavailableTitle: "هذه الصفحة غير متاحة الآن",
    unavailableBody: "حاول مرة أخرى بعد بضع دقائق.",
  },
  fr: {
    notFoundTitle: "Lien introuvable",
    notFoundBody: "Vérifiez le lien de votre message, ou contactez la boutique.",
    forbiddenTitle: "Cette page n'a pas pu s'ouvrir",
    forbiddenBody: "Ouvrez de nouveau le lien de votre message.",
    expiredTitle: "Ce lien a expiré",
    unavailableTitle: "Cette page n'est pas disponible pour le moment",
    unavailableBody: "Réessayez dans quelques minutes.",
  },
  es: {
    notFoundTitle: "Enlace no encontrado",
    notFoundBody: "Revisa el enlace de tu mensaje, o contacta con la tienda.",
    forbiddenTitle: "No se pudo abrir esta página",
    forbiddenBody: "Abre de nuevo el enlace de tu mensaje.",
    expiredTitle: "Este enlace ha caducado",
    unavailableTitle: "Esta página no está disponible ahora",
    unavailableBody: "Inténtalo de nuevo en unos minutos.",
  },
};
