import { LINK_TEXTS } from "~/shared/hosted-texts";
import type { Locale } from "~/shared/locales";
import type { AddressField, FieldProblem } from "~/core/places/address";

/**
 * Texts of the correction page and its SMS in the five languages the shops ask for. The page picks
 * `?locale=`, then the language stored with the request, then the shop's, then English.
 */

type Texts = {
  title: string;
  intro: string; // {order}
  /** The province's and postal code's labels here are the general ones; `countryLabels` names them as a country does. */
  labels: Record<AddressField, string>;
  countryLabels: { pin: string; zipCode: string; state: string; province: string };
  hintPhone: string; // {example}: a number of the address's country
  hintZip: string; // {example}
  submit: string;
  errorSummary: string;
  problems: Record<FieldProblem, string>;
  doneTitle: string;
  doneBody: string; // {order}
  usedTitle: string;
  usedBody: string;
  expiredTitle: string;
  expiredBody: string;
  notFoundTitle: string;
  notFoundBody: string;
  notEditableTitle: string;
  notEditableBody: string; // {order}
  forbiddenTitle: string;
  forbiddenBody: string;
  backToStore: string; // {shop}
  unavailableTitle: string;
  unavailableBody: string;
  optional: string;
  /** The button that shows the chosen country's provinces (the page runs no script). */
  updateCountry: string;
  /** The province list's empty first choice. */
  choose: string;
  sms: string; // {shop} {order} {link}
};

const en: Texts = {
  title: "Confirm your delivery address",
  intro: "Please check the delivery address of order {order} and correct anything that is wrong, so the courier can find you.",
  labels: {
    firstName: "First name",
    lastName: "Last name",
    phone: "Phone",
    address1: "Address (house number and street)",
    address2: "Apartment, floor, landmark",
    city: "City",
    province: "State / province",
    zip: "Postal code",
    countryCode: "Country",
  },
  countryLabels: { pin: "PIN code", zipCode: "ZIP code", state: "State", province: "Province" },
  hintPhone: "With the country code, e.g. {example}",
  hintZip: "For example {example}",
  submit: "Save address",
  errorSummary: "Please correct the highlighted fields.",
  problems: {
    required: "This field is required.",
    too_long: "This is too long.",
    too_short: "This is too short.",
    invalid_phone: "Enter the number with its country code, e.g. {example}.",
    invalid_zip: "This postal code does not look right for the country.",
    invalid_province: "Choose a state or province of this country.",
    invalid_country: "Choose a country.",
    rejected: "This value was not accepted for the address; please check it.",
  },
  doneTitle: "Thank you, your address is saved",
  doneBody: "Order {order} will be delivered to the address below.",
  usedTitle: "This link has already been used",
  usedBody: "The address for this order was already confirmed. If something is still wrong, please contact the shop.",
  ...LINK_TEXTS.en,
  expiredBody: "Please contact the shop to update your delivery address.",
  notEditableTitle: "This order can no longer be changed",
  notEditableBody: "Order {order} is already on its way or was cancelled. We passed your address to the shop, who will contact you if needed.",
  backToStore: "Back to {shop}",
  unavailableTitle: "We could not save your address right now",
  unavailableBody: "Nothing was lost: please try again in a minute.",
  optional: "optional",
  updateCountry: "Show this country's states and provinces",
  choose: "Choose…",
  sms: "{shop}: please confirm the delivery address of order {order}: {link}",
};

const hi: Texts = {
  title: "अपना डिलीवरी पता पुष्टि करें",
  intro: "कृपया ऑर्डर {order} का डिलीवरी पता जाँचें और जो गलत है उसे ठीक करें, ताकि कूरियर आप तक पहुँच सके।",
  labels: {
    firstName: "पहला नाम",
    lastName: "उपनाम",
    phone: "फ़ोन",
    address1: "पता (मकान नंबर और गली)",
    address2: "फ़्लैट, मंज़िल, लैंडमार्क",
    city: "शहर",
    province: "राज्य / प्रांत",
    zip: "पोस्टल कोड",
    countryCode: "देश",
  },
  countryLabels: { pin: "पिन कोड", zipCode: "ज़िप कोड", state: "राज्य", province: "प्रांत" },
  hintPhone: "देश कोड के साथ, जैसे {example}",
  hintZip: "उदाहरण: {example}",
  submit: "पता सहेजें",
  errorSummary: "कृपया चिह्नित फ़ील्ड ठीक करें।",
  problems: {
    required: "यह फ़ील्ड आवश्यक है।",
    too_long: "यह बहुत लंबा है।",
    too_short: "यह बहुत छोटा है।",
    invalid_phone: "देश कोड के साथ नंबर लिखें, जैसे {example}।",
    invalid_zip: "यह पिन/पोस्टल कोड इस देश के लिए सही नहीं लगता।",
    invalid_province: "इस देश का कोई राज्य चुनें।",
    invalid_country: "देश चुनें।",
    rejected: "पते के लिए यह मान स्वीकार नहीं हुआ; कृपया जाँचें।",
  },
  doneTitle: "धन्यवाद, आपका पता सहेज लिया गया है",
  doneBody: "ऑर्डर {order} नीचे दिए गए पते पर डिलीवर होगा।",
  usedTitle: "यह लिंक पहले ही इस्तेमाल हो चुका है",
  usedBody: "इस ऑर्डर का पता पहले ही पुष्टि हो चुका है। अगर अब भी कुछ गलत है, तो कृपया दुकान से संपर्क करें।",
  ...LINK_TEXTS.hi,
  expiredBody: "डिलीवरी पता बदलने के लिए कृपया दुकान से संपर्क करें।",
  notEditableTitle: "यह ऑर्डर अब बदला नहीं जा सकता",
  notEditableBody: "ऑर्डर {order} भेजा जा चुका है या रद्द हो गया है। हमने आपका पता दुकान को भेज दिया है, ज़रूरत होने पर वे आपसे संपर्क करेंगे।",
  backToStore: "{shop} पर वापस जाएँ",
  unavailableTitle: "अभी आपका पता सहेजा नहीं जा सका",
  unavailableBody: "कुछ भी खोया नहीं है: कृपया एक मिनट बाद फिर कोशिश करें।",
  optional: "वैकल्पिक",
  updateCountry: "इस देश के राज्य दिखाएँ",
  choose: "चुनें…",
  sms: "{shop}: कृपया ऑर्डर {order} का डिलीवरी पता पुष्टि करें: {link}",
};

const ar: Texts = {
  title: "أكّد عنوان التوصيل",
  intro: "يرجى التحقق من عنوان توصيل الطلب {order} وتصحيح أي خطأ، حتى يتمكن المندوب من الوصول إليك.",
  labels: {
    firstName: "الاسم الأول",
    lastName: "اسم العائلة",
    phone: "الهاتف",
    address1: "العنوان (رقم المنزل والشارع)",
    address2: "الشقة، الطابق، علامة مميزة",
    city: "المدينة",
    province: "المنطقة / الولاية",
    zip: "الرمز البريدي",
    countryCode: "الدولة",
  },
  countryLabels: { pin: "الرمز البريدي (PIN)", zipCode: "الرمز البريدي (ZIP)", state: "الولاية", province: "المقاطعة" },
  hintPhone: "مع رمز الدولة، مثل ⁦{example}⁩",
  hintZip: "مثال: {example}",
  submit: "حفظ العنوان",
  errorSummary: "يرجى تصحيح الحقول المحددة.",
  problems: {
    required: "هذا الحقل مطلوب.",
    too_long: "هذا طويل جدًا.",
    too_short: "هذا قصير جدًا.",
    invalid_phone: "أدخل الرقم مع رمز الدولة، مثل ⁦{example}⁩.",
    invalid_zip: "هذا الرمز البريدي لا يبدو صحيحًا لهذه الدولة.",
    invalid_province: "اختر منطقة أو ولاية في هذه الدولة.",
    invalid_country: "اختر دولة.",
    rejected: "لم تُقبل هذه القيمة في العنوان؛ يرجى التحقق منها.",
  },
  doneTitle: "شكرًا، تم حفظ عنوانك",
  doneBody: "سيتم توصيل الطلب {order} إلى العنوان أدناه.",
  usedTitle: "تم استخدام هذا الرابط من قبل",
  usedBody: "تم تأكيد عنوان هذا الطلب بالفعل. إذا كان هناك خطأ، يرجى التواصل مع المتجر.",
  ...LINK_TEXTS.ar,
  expiredBody: "يرجى التواصل مع المتجر لتحديث عنوان التوصيل.",
  notEditableTitle: "لم يعد من الممكن تعديل هذا الطلب",
  notEditableBody: "الطلب {order} في الطريق إليك أو تم إلغاؤه. أرسلنا عنوانك إلى المتجر وسيتواصل معك عند الحاجة.",
  backToStore: "العودة إلى {shop}",
  unavailableTitle: "تعذّر حفظ عنوانك الآن",
  unavailableBody: "لم يضع شيء: يرجى المحاولة بعد دقيقة.",
  optional: "اختياري",
  updateCountry: "اعرض مناطق هذه الدولة",
  choose: "اختر…",
  sms: "{shop}: يرجى تأكيد عنوان توصيل الطلب {order}: {link}",
};

const fr: Texts = {
  title: "Confirmez votre adresse de livraison",
  intro: "Vérifiez l’adresse de livraison de la commande {order} et corrigez ce qui ne va pas, pour que le livreur vous trouve.",
  labels: {
    firstName: "Prénom",
    lastName: "Nom",
    phone: "Téléphone",
    address1: "Adresse (numéro et rue)",
    address2: "Appartement, étage, repère",
    city: "Ville",
    province: "Région / province",
    zip: "Code postal",
    countryCode: "Pays",
  },
  countryLabels: { pin: "Code PIN (code postal)", zipCode: "Code ZIP", state: "État", province: "Province" },
  hintPhone: "Avec l’indicatif du pays, par ex. {example}",
  hintZip: "Par exemple {example}",
  submit: "Enregistrer l’adresse",
  errorSummary: "Corrigez les champs signalés.",
  problems: {
    required: "Ce champ est obligatoire.",
    too_long: "C’est trop long.",
    too_short: "C’est trop court.",
    invalid_phone: "Saisissez le numéro avec l’indicatif du pays, par ex. {example}.",
    invalid_zip: "Ce code postal ne semble pas valide pour ce pays.",
    invalid_province: "Choisissez une région ou province de ce pays.",
    invalid_country: "Choisissez un pays.",
    rejected: "Cette valeur n’a pas été acceptée pour l’adresse ; vérifiez-la.",
  },
  doneTitle: "Merci, votre adresse est enregistrée",
  doneBody: "La commande {order} sera livrée à l’adresse ci-dessous.",
  usedTitle: "Ce lien a déjà été utilisé",
  usedBody: "L’adresse de cette commande a déjà été confirmée. Si quelque chose ne va pas, contactez la boutique.",
  ...LINK_TEXTS.fr,
  expiredBody: "Contactez la boutique pour modifier votre adresse de livraison.",
  notEditableTitle: "Cette commande ne peut plus être modifiée",
  notEditableBody: "La commande {order} est déjà expédiée ou a été annulée. Nous avons transmis votre adresse à la boutique, qui vous contactera si besoin.",
  backToStore: "Retour à {shop}",
  unavailableTitle: "Impossible d’enregistrer votre adresse pour le moment",
  unavailableBody: "Rien n’est perdu : réessayez dans une minute.",
  optional: "facultatif",
  updateCountry: "Afficher les régions de ce pays",
  choose: "Choisir…",
  sms: "{shop} : confirmez l’adresse de livraison de la commande {order} : {link}",
};

const es: Texts = {
  title: "Confirma tu dirección de entrega",
  intro: "Revisa la dirección de entrega del pedido {order} y corrige lo que esté mal, para que el repartidor te encuentre.",
  labels: {
    firstName: "Nombre",
    lastName: "Apellidos",
    phone: "Teléfono",
    address1: "Dirección (número y calle)",
    address2: "Piso, puerta, referencia",
    city: "Ciudad",
    province: "Estado / provincia",
    zip: "Código postal",
    countryCode: "País",
  },
  countryLabels: { pin: "Código PIN (código postal)", zipCode: "Código ZIP", state: "Estado", province: "Provincia" },
  hintPhone: "Con el prefijo del país, p. ej. {example}",
  hintZip: "Por ejemplo {example}",
  submit: "Guardar dirección",
  errorSummary: "Corrige los campos marcados.",
  problems: {
    required: "Este campo es obligatorio.",
    too_long: "Es demasiado largo.",
    too_short: "Es demasiado corto.",
    invalid_phone: "Escribe el número con el prefijo del país, p. ej. {example}.",
    invalid_zip: "Este código postal no parece válido para el país.",
    invalid_province: "Elige un estado o provincia de este país.",
    invalid_country: "Elige un país.",
    rejected: "Este valor no se aceptó para la dirección; revísalo.",
  },
  doneTitle: "Gracias, tu dirección está guardada",
  doneBody: "El pedido {order} se entregará en la dirección de abajo.",
  usedTitle: "Este enlace ya se ha usado",
  usedBody: "La dirección de este pedido ya se confirmó. Si algo sigue mal, contacta con la tienda.",
  ...LINK_TEXTS.es,
  expiredBody: "Contacta con la tienda para cambiar tu dirección de entrega.",
  notEditableTitle: "Este pedido ya no se puede cambiar",
  notEditableBody: "El pedido {order} ya está en camino o se canceló. Hemos enviado tu dirección a la tienda, que te contactará si hace falta.",
  backToStore: "Volver a {shop}",
  unavailableTitle: "No pudimos guardar tu dirección ahora",
  unavailableBody: "No se ha perdido nada: inténtalo de nuevo en un minuto.",
  optional: "opcional",
  updateCountry: "Mostrar los estados de este país",
  choose: "Elegir…",
  sms: "{shop}: confirma la dirección de entrega del pedido {order}: {link}",
};

export const TEXTS: Record<Locale, Texts> = { en, hi, ar, fr, es };

/** What a country calls its postal code and its first-level region, where the form's general label is not its word. */
const POSTAL_WORD: Record<string, "pin" | "zipCode"> = { IN: "pin", US: "zipCode" };
const REGION_WORD: Record<string, "state" | "province"> = { IN: "state", US: "state", MX: "state", BR: "state", AU: "state", NG: "state", MY: "state", CA: "province", AR: "province", CN: "province" };

/** A field's label on a form for an address in `countryCode` (after another country is chosen too: "ZIP code" for the US, never "PIN code"). */
export function fieldLabel(t: Texts, field: AddressField, countryCode: string): string {
  if (field === "zip" && POSTAL_WORD[countryCode]) return t.countryLabels[POSTAL_WORD[countryCode]];
  if (field === "province" && REGION_WORD[countryCode]) return t.countryLabels[REGION_WORD[countryCode]];
  return t.labels[field];
}
