import { LINK_TEXTS } from "~/shared/hosted-texts";
import { localizedText, type Locale, type LocalizedText } from "~/shared/locales";

/**
 * What the shopper reads after dispatch, in the languages of the other messages: the out-for-delivery
 * reminder, the failed-delivery text with its link, and the hosted page where they choose what happens
 * next (/apps/<subpath>/dr/<token>). Values: {shop} {order} {amount} {contact} {link} {date}.
 */
const REMINDER: LocalizedText = {
  en: "{shop}: order {order} is out for delivery today. Please keep {amount} ready to pay on delivery. Questions: {contact}",
  hi: "{shop}: ऑर्डर {order} आज डिलीवरी के लिए निकल चुका है। कृपया डिलीवरी पर भुगतान के लिए {amount} तैयार रखें। सवाल: {contact}",
  ar: "{shop}: الطلب {order} في طريقه إليك اليوم. يرجى تجهيز {amount} للدفع عند الاستلام. للاستفسار: {contact}",
  fr: "{shop} : la commande {order} est en cours de livraison aujourd'hui. Préparez {amount} à payer à la livraison. Questions : {contact}",
  es: "{shop}: el pedido {order} sale hoy a reparto. Ten preparados {amount} para pagar al recibirlo. Dudas: {contact}",
};

/** The reminder without an amount (the order's balance could not be read): the rest still helps. */
const REMINDER_NO_AMOUNT: LocalizedText = {
  en: "{shop}: order {order} is out for delivery today. Please keep the amount due ready to pay on delivery. Questions: {contact}",
  hi: "{shop}: ऑर्डर {order} आज डिलीवरी के लिए निकल चुका है। कृपया डिलीवरी पर देय राशि तैयार रखें। सवाल: {contact}",
  ar: "{shop}: الطلب {order} في طريقه إليك اليوم. يرجى تجهيز المبلغ المستحق للدفع عند الاستلام. للاستفسار: {contact}",
  fr: "{shop} : la commande {order} est en cours de livraison aujourd'hui. Préparez le montant dû à la livraison. Questions : {contact}",
  es: "{shop}: el pedido {order} sale hoy a reparto. Ten preparado el importe a pagar al recibirlo. Dudas: {contact}",
};

const RECOVERY: LocalizedText = {
  en: "{shop}: we could not deliver order {order}. Choose what happens next (another day, your address or phone, or pay online): {link}",
  hi: "{shop}: हम ऑर्डर {order} डिलीवर नहीं कर सके। आगे क्या करें, चुनें (दूसरा दिन, पता या फ़ोन, या ऑनलाइन भुगतान): {link}",
  ar: "{shop}: لم نتمكن من توصيل الطلب {order}. اختر ما يحدث بعد ذلك (يوم آخر، عنوانك أو هاتفك، أو الدفع عبر الإنترنت): {link}",
  fr: "{shop} : nous n'avons pas pu livrer la commande {order}. Choisissez la suite (un autre jour, votre adresse ou téléphone, ou payer en ligne) : {link}",
  es: "{shop}: no pudimos entregar el pedido {order}. Elige qué hacemos (otro día, tu dirección o teléfono, o pagar en línea): {link}",
};

export function reminderText(locales: (string | null | undefined)[], values: { shop: string; order: string; amount: string | null; contact: string }): string {
  const { amount, ...rest } = values;
  return amount ? localizedText(REMINDER, locales, { ...rest, amount }) : localizedText(REMINDER_NO_AMOUNT, locales, rest);
}

export function recoveryText(locales: (string | null | undefined)[], values: { shop: string; order: string; link: string }): string {
  return localizedText(RECOVERY, locales, values);
}

/** The hosted page's texts. */
const en = {
  title: "We could not deliver your order",
  intro: "The courier could not deliver order {order}. Tell us what to do next.",
  tomorrow: "Deliver again tomorrow",
  pickDay: "Deliver on this day",
  dayLabel: "Day",
  fixAddress: "Correct my address",
  fixPhone: "Use this phone number",
  phoneLabel: "Phone number for the courier",
  payOnline: "Pay online now",
  itemsLabel: "Items",
  amountLabel: "To pay on delivery",
  addressLabel: "Delivery address",
  currentPhoneLabel: "Phone the courier calls",
  phoneHint: "The courier calls {phone} now. Give another number if that one cannot be reached.",
  invalidDay: "Choose a day within the next 7 days.",
  invalidPhone: "Enter the phone number with its country code, e.g. +91 98765 43210.",
  doneTitle: "Thank you",
  doneTomorrow: "We will try to deliver order {order} again tomorrow.",
  donePickDay: "We will try to deliver order {order} on {date}.",
  donePhone: "The courier will call the number you gave for order {order}.",
  donePayOnline: "The shop will send you a link to pay for order {order} online.",
  doneAddress: "Open the address form to correct the address of order {order}.",
  doneAddressByShop: "The shop will contact you to correct the address of order {order}.",
  answeredTitle: "Your answer is recorded",
  answeredBody: "You already told us what to do with order {order}. Contact the shop to change it.",
  goneTitle: LINK_TEXTS.en.expiredTitle,
  goneBody: "Contact the shop about order {order}.",
  ...LINK_TEXTS.en,
};

export type RecoveryTexts = typeof en;

const hi: RecoveryTexts = {
  title: "हम आपका ऑर्डर डिलीवर नहीं कर सके",
  intro: "कूरियर ऑर्डर {order} डिलीवर नहीं कर सका। बताइए आगे क्या करें।",
  tomorrow: "कल फिर से डिलीवर करें",
  pickDay: "इस दिन डिलीवर करें",
  dayLabel: "दिन",
  fixAddress: "मेरा पता ठीक करें",
  fixPhone: "यह फ़ोन नंबर इस्तेमाल करें",
  phoneLabel: "कूरियर के लिए फ़ोन नंबर",
  payOnline: "अभी ऑनलाइन भुगतान करें",
  itemsLabel: "सामान",
  amountLabel: "डिलीवरी पर देय",
  addressLabel: "डिलीवरी का पता",
  currentPhoneLabel: "कूरियर इस फ़ोन पर कॉल करता है",
  phoneHint: "कूरियर अभी {phone} पर कॉल करता है। अगर उस पर बात नहीं हो पाती, तो दूसरा नंबर दें।",
  invalidDay: "अगले 7 दिनों में से कोई दिन चुनें।",
  invalidPhone: "देश कोड के साथ फ़ोन नंबर दर्ज करें, जैसे +91 98765 43210।",
  doneTitle: "धन्यवाद",
  doneTomorrow: "हम ऑर्डर {order} कल फिर से डिलीवर करने की कोशिश करेंगे।",
  donePickDay: "हम ऑर्डर {order} {date} को डिलीवर करने की कोशिश करेंगे।",
  donePhone: "कूरियर ऑर्डर {order} के लिए आपके दिए नंबर पर कॉल करेगा।",
  donePayOnline: "दुकान आपको ऑर्डर {order} का ऑनलाइन भुगतान करने के लिए लिंक भेजेगी।",
  doneAddress: "ऑर्डर {order} का पता ठीक करने के लिए पता फ़ॉर्म खोलें।",
  doneAddressByShop: "ऑर्डर {order} का पता ठीक करने के लिए दुकान आपसे संपर्क करेगी।",
  answeredTitle: "आपका जवाब दर्ज है",
  answeredBody: "आप ऑर्डर {order} के बारे में पहले ही बता चुके हैं। बदलने के लिए दुकान से संपर्क करें।",
  goneTitle: LINK_TEXTS.hi.expiredTitle,
  goneBody: "ऑर्डर {order} के बारे में दुकान से संपर्क करें।",
  ...LINK_TEXTS.hi,
};

const ar: RecoveryTexts = {
  title: "لم نتمكن من توصيل طلبك",
  intro: "لم يتمكن المندوب من توصيل الطلب {order}. أخبرنا بما يجب فعله.",
  tomorrow: "التوصيل مرة أخرى غدًا",
  pickDay: "التوصيل في هذا اليوم",
  dayLabel: "اليوم",
  fixAddress: "تصحيح عنواني",
  fixPhone: "استخدام رقم الهاتف هذا",
  phoneLabel: "رقم الهاتف للمندوب",
  payOnline: "الدفع عبر الإنترنت الآن",
  itemsLabel: "المنتجات",
  amountLabel: "المبلغ المطلوب عند الاستلام",
  addressLabel: "عنوان التوصيل",
  currentPhoneLabel: "الهاتف الذي يتصل به المندوب",
  phoneHint: "يتصل المندوب الآن بالرقم {phone}. أعطنا رقمًا آخر إذا تعذر الوصول إليه.",
  invalidDay: "اختر يومًا خلال الأيام السبعة القادمة.",
  invalidPhone: "أدخل رقم الهاتف مع رمز الدولة، مثل ‎+212 600 000 000.",
  doneTitle: "شكرًا لك",
  doneTomorrow: "سنحاول توصيل الطلب {order} مرة أخرى غدًا.",
  donePickDay: "سنحاول توصيل الطلب {order} يوم {date}.",
  donePhone: "سيتصل المندوب بالرقم الذي قدمته للطلب {order}.",
  donePayOnline: "سيرسل لك المتجر رابطًا لدفع ثمن الطلب {order} عبر الإنترنت.",
  doneAddress: "افتح نموذج العنوان لتصحيح عنوان الطلب {order}.",
  doneAddressByShop: "سيتواصل معك المتجر لتصحيح عنوان الطلب {order}.",
  answeredTitle: "تم تسجيل إجابتك",
  answeredBody: "لقد أخبرتنا بالفعل بما يجب فعله بالطلب {order}. تواصل مع المتجر لتغييره.",
  goneTitle: LINK_TEXTS.ar.expiredTitle,
  goneBody: "تواصل مع المتجر بخصوص الطلب {order}.",
  ...LINK_TEXTS.ar,
};

const fr: RecoveryTexts = {
  title: "Nous n'avons pas pu livrer votre commande",
  intro: "Le livreur n'a pas pu livrer la commande {order}. Dites-nous quoi faire.",
  tomorrow: "Livrer de nouveau demain",
  pickDay: "Livrer ce jour-là",
  dayLabel: "Jour",
  fixAddress: "Corriger mon adresse",
  fixPhone: "Utiliser ce numéro",
  phoneLabel: "Numéro de téléphone pour le livreur",
  payOnline: "Payer en ligne maintenant",
  itemsLabel: "Articles",
  amountLabel: "À payer à la livraison",
  addressLabel: "Adresse de livraison",
  currentPhoneLabel: "Téléphone appelé par le livreur",
  phoneHint: "Le livreur appelle actuellement le {phone}. Donnez un autre numéro s'il est injoignable.",
  invalidDay: "Choisissez un jour dans les 7 prochains jours.",
  invalidPhone: "Saisissez le numéro avec l'indicatif du pays, par ex. +33 6 12 34 56 78.",
  doneTitle: "Merci",
  doneTomorrow: "Nous essaierons de livrer la commande {order} demain.",
  donePickDay: "Nous essaierons de livrer la commande {order} le {date}.",
  donePhone: "Le livreur appellera le numéro donné pour la commande {order}.",
  donePayOnline: "La boutique vous enverra un lien pour payer la commande {order} en ligne.",
  doneAddress: "Ouvrez le formulaire pour corriger l'adresse de la commande {order}.",
  doneAddressByShop: "La boutique vous contactera pour corriger l'adresse de la commande {order}.",
  answeredTitle: "Votre réponse est enregistrée",
  answeredBody: "Vous nous avez déjà dit quoi faire de la commande {order}. Contactez la boutique pour la changer.",
  goneTitle: LINK_TEXTS.fr.expiredTitle,
  goneBody: "Contactez la boutique au sujet de la commande {order}.",
  ...LINK_TEXTS.fr,
};

const es: RecoveryTexts = {
  title: "No pudimos entregar tu pedido",
  intro: "El repartidor no pudo entregar el pedido {order}. Dinos qué hacer.",
  tomorrow: "Entregar de nuevo mañana",
  pickDay: "Entregar este día",
  dayLabel: "Día",
  fixAddress: "Corregir mi dirección",
  fixPhone: "Usar este teléfono",
  phoneLabel: "Teléfono para el repartidor",
  payOnline: "Pagar en línea ahora",
  itemsLabel: "Artículos",
  amountLabel: "A pagar en la entrega",
  addressLabel: "Dirección de entrega",
  currentPhoneLabel: "Teléfono al que llama el repartidor",
  phoneHint: "El repartidor llama ahora al {phone}. Danos otro número si no se puede contactar.",
  invalidDay: "Elige un día dentro de los próximos 7 días.",
  invalidPhone: "Escribe el teléfono con el prefijo del país, p. ej. +34 612 34 56 78.",
  doneTitle: "Gracias",
  doneTomorrow: "Intentaremos entregar el pedido {order} mañana.",
  donePickDay: "Intentaremos entregar el pedido {order} el {date}.",
  donePhone: "El repartidor llamará al número que diste para el pedido {order}.",
  donePayOnline: "La tienda te enviará un enlace para pagar el pedido {order} en línea.",
  doneAddress: "Abre el formulario para corregir la dirección del pedido {order}.",
  doneAddressByShop: "La tienda te contactará para corregir la dirección del pedido {order}.",
  answeredTitle: "Tu respuesta está registrada",
  answeredBody: "Ya nos dijiste qué hacer con el pedido {order}. Contacta con la tienda para cambiarlo.",
  goneTitle: LINK_TEXTS.es.expiredTitle,
  goneBody: "Contacta con la tienda sobre el pedido {order}.",
  ...LINK_TEXTS.es,
};

export const RECOVERY_TEXTS: Record<Locale, RecoveryTexts> = { en, hi, ar, fr, es };
