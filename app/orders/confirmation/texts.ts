import { LINK_TEXTS } from "~/shared/hosted-texts";
import { fill, inLanguage, localizedText, type Locale, type LocalizedText } from "~/shared/locales";

/** The order tags of verification after purchase (the verified tag is the shop's own setting). */
export const PENDING_TAG = "cod-pending";
export const UNCONFIRMED_TAG = "cod-unconfirmed";
/** A COD order with no phone to text: the shopper cannot confirm, so the merchant decides (never auto-cancelled). */
export const NO_PHONE_TAG = "cod-no-phone";
/** The shopper pressed Cancel on the WhatsApp confirmation (the order is cancelled too when the shop allows it). */
export const SHOPPER_CANCELLED_TAG = "cod-cancelled-by-shopper";

/** The SMS with the link, in the shopper's language where we have it ({shop} {order} {link}). */
const SMS: LocalizedText = {
  en: "{shop}: please confirm your cash-on-delivery order {order}: {link}",
  hi: "{shop}: कृपया अपना कैश-ऑन-डिलीवरी ऑर्डर {order} पुष्टि करें: {link}",
  ar: "{shop}: يرجى تأكيد طلب الدفع عند الاستلام {order}: {link}",
  fr: "{shop} : confirmez votre commande en paiement à la livraison {order} : {link}",
  es: "{shop}: confirma tu pedido contra reembolso {order}: {link}",
};

export function confirmationSms(locales: (string | null | undefined)[], values: { shop: string; order: string; link: string }): string {
  return localizedText(SMS, locales, values);
}

/** The hosted page's texts, in the same languages as its SMS ({order} {phone} {n} {minutes}). */
const en = {
  title: "Confirm your order",
  intro: "To ship order {order} with payment on delivery, confirm the phone number it was placed with. We will text a code to {phone}.",
  send: "Text me a code",
  codeLabel: "{length}-digit code",
  codeHint: "Sent to {phone}. It expires in a few minutes.",
  confirm: "Confirm my order",
  resend: "Text me a new code",
  wrongCode: "That code is not right. {n} attempts left.",
  incompleteCode: "Enter the {length}-digit code from the text message.",
  exhausted: "Too many wrong codes. Ask for a new code.",
  expiredCode: "This code has expired. Ask for a new code.",
  rateLimited: "Too many codes were sent to this number. Try again in {minutes} minutes.",
  cannotSend: "We could not send a code right now. Try again in a moment.",
  unreachable: "This number cannot receive text messages. Contact the shop to confirm your order.",
  confirmedTitle: "Order confirmed",
  confirmedBody: "Thank you: order {order} is confirmed and will be prepared for delivery.",
  cancelledTitle: "Order cancelled",
  cancelledBody: "You cancelled order {order} on WhatsApp. Contact the shop if this was a mistake.",
  closedTitle: LINK_TEXTS.en.expiredTitle,
  closedBody: "Order {order} was not confirmed in time. Contact the shop if you still want it.",
  ...LINK_TEXTS.en,
  notMine: "I did not place this order",
  disputedTitle: "Thank you for telling us",
  disputedBody: "We told the shop that you did not place order {order}. Nothing will be sent to you for it unless the shop contacts you.",
  summaryTitle: "Your order",
  summaryOrder: "Order",
  summaryPlaced: "Placed",
  summaryPayment: "Payment",
  paymentCod: "Cash on delivery",
  paymentPartial: "Part now, rest on delivery",
};

export type PageTexts = typeof en;

const hi: PageTexts = {
  title: "अपने ऑर्डर की पुष्टि करें",
  intro: "ऑर्डर {order} को कैश-ऑन-डिलीवरी के साथ भेजने के लिए, उस फ़ोन नंबर की पुष्टि करें जिससे ऑर्डर दिया गया था। हम {phone} पर एक कोड भेजेंगे।",
  send: "मुझे कोड भेजें",
  codeLabel: "{length} अंकों का कोड",
  codeHint: "{phone} पर भेजा गया। यह कुछ ही मिनटों में समाप्त हो जाएगा।",
  confirm: "मेरे ऑर्डर की पुष्टि करें",
  resend: "मुझे नया कोड भेजें",
  wrongCode: "यह कोड सही नहीं है। {n} प्रयास बाकी हैं।",
  incompleteCode: "SMS में मिला {length} अंकों का कोड दर्ज करें।",
  exhausted: "बहुत सारे गलत कोड। नया कोड मांगें।",
  expiredCode: "इस कोड की समय-सीमा समाप्त हो गई है। नया कोड मांगें।",
  rateLimited: "इस नंबर पर बहुत सारे कोड भेजे गए हैं। {minutes} मिनट बाद फिर से कोशिश करें।",
  cannotSend: "अभी कोड नहीं भेजा जा सका। थोड़ी देर में फिर से कोशिश करें।",
  unreachable: "इस नंबर पर SMS नहीं आ सकते। अपने ऑर्डर की पुष्टि के लिए दुकान से संपर्क करें।",
  confirmedTitle: "ऑर्डर की पुष्टि हो गई",
  confirmedBody: "धन्यवाद: ऑर्डर {order} की पुष्टि हो गई है और इसे डिलीवरी के लिए तैयार किया जाएगा।",
  cancelledTitle: "ऑर्डर रद्द किया गया",
  cancelledBody: "आपने WhatsApp पर ऑर्डर {order} रद्द किया। अगर यह गलती थी, तो दुकान से संपर्क करें।",
  closedTitle: LINK_TEXTS.hi.expiredTitle,
  closedBody: "ऑर्डर {order} की समय पर पुष्टि नहीं हुई। अगर आप इसे अब भी चाहते हैं, तो दुकान से संपर्क करें।",
  ...LINK_TEXTS.hi,
  notMine: "यह ऑर्डर मैंने नहीं दिया",
  disputedTitle: "बताने के लिए धन्यवाद",
  disputedBody: "हमने दुकान को बता दिया है कि ऑर्डर {order} आपने नहीं दिया। जब तक दुकान आपसे संपर्क न करे, इसके लिए आपको कुछ नहीं भेजा जाएगा।",
  summaryTitle: "आपका ऑर्डर",
  summaryOrder: "ऑर्डर",
  summaryPlaced: "दिया गया",
  summaryPayment: "भुगतान",
  paymentCod: "कैश ऑन डिलीवरी",
  paymentPartial: "अभी कुछ, बाकी डिलीवरी पर",
};

const ar: PageTexts = {
  title: "أكّد طلبك",
  intro: "لشحن الطلب {order} مع الدفع عند الاستلام، أكّد رقم الهاتف الذي قُدّم به الطلب. سنرسل رمزًا في رسالة نصية إلى {phone}.",
  send: "أرسل لي رمزًا",
  codeLabel: "رمز من {length} أرقام",
  codeHint: "أُرسل إلى {phone}. تنتهي صلاحيته خلال دقائق.",
  confirm: "تأكيد طلبي",
  resend: "أرسل لي رمزًا جديدًا",
  wrongCode: "هذا الرمز غير صحيح. المحاولات المتبقية: {n}.",
  incompleteCode: "أدخل الرمز المكوّن من {length} أرقام الوارد في الرسالة النصية.",
  exhausted: "رموز خاطئة كثيرة. اطلب رمزًا جديدًا.",
  expiredCode: "انتهت صلاحية هذا الرمز. اطلب رمزًا جديدًا.",
  rateLimited: "أُرسل عدد كبير من الرموز إلى هذا الرقم. حاول مرة أخرى بعد {minutes} دقيقة.",
  cannotSend: "تعذّر إرسال رمز الآن. حاول مرة أخرى بعد قليل.",
  unreachable: "لا يمكن لهذا الرقم استقبال الرسائل النصية. تواصل مع المتجر لتأكيد طلبك.",
  confirmedTitle: "تم تأكيد الطلب",
  confirmedBody: "شكرًا لك: تم تأكيد الطلب {order} وسيتم تجهيزه للتوصيل.",
  cancelledTitle: "تم إلغاء الطلب",
  cancelledBody: "لقد ألغيت الطلب {order} عبر واتساب. تواصل مع المتجر إذا كان ذلك خطأ.",
  closedTitle: LINK_TEXTS.ar.expiredTitle,
  closedBody: "لم يتم تأكيد الطلب {order} في الوقت المحدد. تواصل مع المتجر إذا كنت لا تزال تريده.",
  ...LINK_TEXTS.ar,
  notMine: "لم أقدّم هذا الطلب",
  disputedTitle: "شكرًا لإخبارنا",
  disputedBody: "أبلغنا المتجر بأنك لم تقدّم الطلب {order}. لن يُرسل إليك شيء بخصوصه ما لم يتواصل معك المتجر.",
  summaryTitle: "طلبك",
  summaryOrder: "الطلب",
  summaryPlaced: "تاريخ الطلب",
  summaryPayment: "الدفع",
  paymentCod: "الدفع عند الاستلام",
  paymentPartial: "جزء الآن والباقي عند الاستلام",
};

const fr: PageTexts = {
  title: "Confirmez votre commande",
  intro: "Pour expédier la commande {order} en paiement à la livraison, confirmez le numéro de téléphone avec lequel elle a été passée. Nous enverrons un code par SMS au {phone}.",
  send: "M'envoyer un code par SMS",
  codeLabel: "Code à {length} chiffres",
  codeHint: "Envoyé au {phone}. Il expire dans quelques minutes.",
  confirm: "Confirmer ma commande",
  resend: "M'envoyer un nouveau code",
  wrongCode: "Ce code n'est pas le bon. Tentatives restantes : {n}.",
  incompleteCode: "Saisissez le code à {length} chiffres reçu par SMS.",
  exhausted: "Trop de codes erronés. Demandez un nouveau code.",
  expiredCode: "Ce code a expiré. Demandez un nouveau code.",
  rateLimited: "Trop de codes ont été envoyés à ce numéro. Réessayez dans {minutes} minutes.",
  cannotSend: "Nous n'avons pas pu envoyer de code pour le moment. Réessayez dans un instant.",
  unreachable: "Ce numéro ne peut pas recevoir de SMS. Contactez la boutique pour confirmer votre commande.",
  confirmedTitle: "Commande confirmée",
  confirmedBody: "Merci : la commande {order} est confirmée et sera préparée pour la livraison.",
  cancelledTitle: "Commande annulée",
  cancelledBody: "Vous avez annulé la commande {order} sur WhatsApp. Contactez la boutique s’il s’agit d’une erreur.",
  closedTitle: LINK_TEXTS.fr.expiredTitle,
  closedBody: "La commande {order} n'a pas été confirmée à temps. Contactez la boutique si vous la souhaitez toujours.",
  ...LINK_TEXTS.fr,
  notMine: "Je n'ai pas passé cette commande",
  disputedTitle: "Merci de nous avoir prévenus",
  disputedBody: "Nous avons signalé à la boutique que vous n'avez pas passé la commande {order}. Rien ne vous sera envoyé pour elle, sauf si la boutique vous contacte.",
  summaryTitle: "Votre commande",
  summaryOrder: "Commande",
  summaryPlaced: "Passée le",
  summaryPayment: "Paiement",
  paymentCod: "Paiement à la livraison",
  paymentPartial: "Une partie maintenant, le reste à la livraison",
};

const es: PageTexts = {
  title: "Confirma tu pedido",
  intro: "Para enviar el pedido {order} con pago contra reembolso, confirma el número de teléfono con el que se hizo. Te enviaremos un código por SMS al {phone}.",
  send: "Enviarme un código por SMS",
  codeLabel: "Código de {length} dígitos",
  codeHint: "Enviado al {phone}. Caduca en unos minutos.",
  confirm: "Confirmar mi pedido",
  resend: "Enviarme un código nuevo",
  wrongCode: "Ese código no es correcto. Intentos restantes: {n}.",
  incompleteCode: "Introduce el código de {length} dígitos del SMS.",
  exhausted: "Demasiados códigos incorrectos. Pide un código nuevo.",
  expiredCode: "Este código ha caducado. Pide un código nuevo.",
  rateLimited: "Se han enviado demasiados códigos a este número. Vuelve a intentarlo dentro de {minutes} minutos.",
  cannotSend: "No hemos podido enviar un código ahora mismo. Vuelve a intentarlo en un momento.",
  unreachable: "Este número no puede recibir SMS. Contacta con la tienda para confirmar tu pedido.",
  confirmedTitle: "Pedido confirmado",
  confirmedBody: "Gracias: el pedido {order} está confirmado y se preparará para la entrega.",
  cancelledTitle: "Pedido cancelado",
  cancelledBody: "Cancelaste el pedido {order} en WhatsApp. Contacta con la tienda si fue un error.",
  closedTitle: LINK_TEXTS.es.expiredTitle,
  closedBody: "El pedido {order} no se confirmó a tiempo. Contacta con la tienda si todavía lo quieres.",
  ...LINK_TEXTS.es,
  notMine: "Yo no hice este pedido",
  disputedTitle: "Gracias por avisarnos",
  disputedBody: "Hemos avisado a la tienda de que no hiciste el pedido {order}. No se te enviará nada por él salvo que la tienda se ponga en contacto contigo.",
  summaryTitle: "Tu pedido",
  summaryOrder: "Pedido",
  summaryPlaced: "Realizado",
  summaryPayment: "Pago",
  paymentCod: "Contra reembolso",
  paymentPartial: "Una parte ahora, el resto a la entrega",
};

export const PAGE_TEXTS: Record<Locale, PageTexts> = { en, hi, ar, fr, es };

/**
 * WhatsApp confirmation: the order's one-line summary ({{3}} of the template: {order} {amount}) and the
 * answers to a pressed button, sent as free text inside the session the press opened.
 */
type WhatsappTexts = {
  summary: string;
  summaryNoAmount: string;
  confirmed: string;
  cancelled: string;
  cancelledKept: string;
  addressLink: string;
  addressPending: string;
  addressUnavailable: string;
  alreadyConfirmed: string;
  alreadyCancelled: string;
  closed: string;
};

const WHATSAPP: Record<Locale, WhatsappTexts> = {
  en: {
    summary: "Order {order}, {amount} to pay in cash on delivery.",
    summaryNoAmount: "Order {order}, to pay in cash on delivery.",
    confirmed: "Thank you: order {order} is confirmed and will be prepared for delivery.",
    cancelled: "Order {order} is cancelled. Nothing will be delivered.",
    cancelledKept: "We told the shop that you want to cancel order {order}.",
    addressLink: "Correct the delivery address of order {order} here: {link}",
    addressPending: "A link to correct the address of order {order} was already sent to you.",
    addressUnavailable: "The address of order {order} cannot be changed here. Please contact the shop.",
    alreadyConfirmed: "Order {order} is already confirmed. Thank you.",
    alreadyCancelled: "Order {order} was already cancelled. Contact the shop if you still want it.",
    closed: "Order {order} can no longer be confirmed here. Contact the shop if you still want it.",
  },
  hi: {
    summary: "ऑर्डर {order}, डिलीवरी पर नकद {amount} देना है।",
    summaryNoAmount: "ऑर्डर {order}, डिलीवरी पर नकद भुगतान।",
    confirmed: "धन्यवाद: ऑर्डर {order} की पुष्टि हो गई है और इसे डिलीवरी के लिए तैयार किया जाएगा।",
    cancelled: "ऑर्डर {order} रद्द कर दिया गया है। कुछ भी डिलीवर नहीं होगा।",
    cancelledKept: "हमने दुकान को बताया कि आप ऑर्डर {order} रद्द करना चाहते हैं।",
    addressLink: "ऑर्डर {order} का डिलीवरी पता यहाँ ठीक करें: {link}",
    addressPending: "ऑर्डर {order} का पता ठीक करने का लिंक आपको पहले ही भेजा जा चुका है।",
    addressUnavailable: "ऑर्डर {order} का पता यहाँ नहीं बदला जा सकता। कृपया दुकान से संपर्क करें।",
    alreadyConfirmed: "ऑर्डर {order} की पुष्टि पहले ही हो चुकी है। धन्यवाद।",
    alreadyCancelled: "ऑर्डर {order} पहले ही रद्द हो चुका है। अगर आप इसे अब भी चाहते हैं, तो दुकान से संपर्क करें।",
    closed: "ऑर्डर {order} की पुष्टि अब यहाँ नहीं हो सकती। अगर आप इसे अब भी चाहते हैं, तो दुकान से संपर्क करें।",
  },
  ar: {
    summary: "الطلب {order}، {amount} تُدفع نقدًا عند الاستلام.",
    summaryNoAmount: "الطلب {order}، الدفع نقدًا عند الاستلام.",
    confirmed: "شكرًا لك: تم تأكيد الطلب {order} وسيتم تجهيزه للتوصيل.",
    cancelled: "تم إلغاء الطلب {order}. لن يتم توصيل أي شيء.",
    cancelledKept: "أبلغنا المتجر أنك تريد إلغاء الطلب {order}.",
    addressLink: "صحّح عنوان توصيل الطلب {order} من هنا: {link}",
    addressPending: "تم إرسال رابط تصحيح عنوان الطلب {order} إليك بالفعل.",
    addressUnavailable: "لا يمكن تغيير عنوان الطلب {order} من هنا. يرجى التواصل مع المتجر.",
    alreadyConfirmed: "تم تأكيد الطلب {order} بالفعل. شكرًا لك.",
    alreadyCancelled: "تم إلغاء الطلب {order} بالفعل. تواصل مع المتجر إذا كنت لا تزال تريده.",
    closed: "لم يعد من الممكن تأكيد الطلب {order} هنا. تواصل مع المتجر إذا كنت لا تزال تريده.",
  },
  fr: {
    summary: "Commande {order}, {amount} à payer en espèces à la livraison.",
    summaryNoAmount: "Commande {order}, à payer en espèces à la livraison.",
    confirmed: "Merci : la commande {order} est confirmée et sera préparée pour la livraison.",
    cancelled: "La commande {order} est annulée. Rien ne sera livré.",
    cancelledKept: "Nous avons dit à la boutique que vous voulez annuler la commande {order}.",
    addressLink: "Corrigez l’adresse de livraison de la commande {order} ici : {link}",
    addressPending: "Un lien pour corriger l’adresse de la commande {order} vous a déjà été envoyé.",
    addressUnavailable: "L’adresse de la commande {order} ne peut pas être modifiée ici. Contactez la boutique.",
    alreadyConfirmed: "La commande {order} est déjà confirmée. Merci.",
    alreadyCancelled: "La commande {order} a déjà été annulée. Contactez la boutique si vous la voulez encore.",
    closed: "La commande {order} ne peut plus être confirmée ici. Contactez la boutique si vous la voulez encore.",
  },
  es: {
    summary: "Pedido {order}, {amount} a pagar en efectivo contra reembolso.",
    summaryNoAmount: "Pedido {order}, a pagar en efectivo contra reembolso.",
    confirmed: "Gracias: el pedido {order} está confirmado y se preparará para la entrega.",
    cancelled: "El pedido {order} está cancelado. No se entregará nada.",
    cancelledKept: "Hemos avisado a la tienda de que quieres cancelar el pedido {order}.",
    addressLink: "Corrige la dirección de entrega del pedido {order} aquí: {link}",
    addressPending: "Ya te enviamos un enlace para corregir la dirección del pedido {order}.",
    addressUnavailable: "La dirección del pedido {order} no se puede cambiar aquí. Contacta con la tienda.",
    alreadyConfirmed: "El pedido {order} ya está confirmado. Gracias.",
    alreadyCancelled: "El pedido {order} ya se canceló. Contacta con la tienda si todavía lo quieres.",
    closed: "El pedido {order} ya no se puede confirmar aquí. Contacta con la tienda si todavía lo quieres.",
  },
};

export function confirmationSummary(locales: (string | null | undefined)[], values: { order: string; amount: string | null }): string {
  const t = inLanguage(WHATSAPP, locales);
  return values.amount ? fill(t.summary, { order: values.order, amount: values.amount }) : fill(t.summaryNoAmount, { order: values.order });
}

export type WhatsappAnswer = Exclude<keyof WhatsappTexts, "summary" | "summaryNoAmount">;

export function whatsappAnswer(locales: (string | null | undefined)[], answer: WhatsappAnswer, values: { order: string; link?: string }): string {
  return fill(inLanguage(WHATSAPP, locales)[answer], { order: values.order, link: values.link ?? "" });
}
