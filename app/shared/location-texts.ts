import type { Locale } from "./locales";

/**
 * The words of "where you are" on the hosted pages (the address form, the failed-delivery page), in the
 * five languages: a DIGIPIN from the phone's location, asked for only on a tap, or typed.
 */
export type LocationTexts = {
  legend: string;
  /** Why the page asks, before the browser does. */
  why: string;
  useLocation: string;
  waiting: string;
  denied: string;
  failed: string;
  digipinLabel: string;
  digipinHint: string;
  invalidDigipin: string;
  outsideIndia: string;
  /** {digipin} {district} */
  found: string;
  /** {digipin} {district} {km} */
  far: string;
  /** {digipin} */
  foundNoPin: string;
  /** The failed-delivery page's own button: the DIGIPIN sent on its own. */
  send: string;
  /** {digipin} */
  sent: string;
  /** The form's places for a PIN code: {pin} {places} */
  pinPlaces: string;
  /** A PIN code that does not match the state or city typed: {pin} {places}; the shopper may save again as it is. */
  pinMismatch: string;
  /** {pin} */
  pinUnknown: string;
};

const en: LocationTexts = {
  legend: "Where you are (optional)",
  why: "If the courier may have trouble finding your door, share where you are. Your phone's location becomes a DIGIPIN, India Post's code for a spot of about 4 × 4 m; only that code is kept, with your order. Your browser will ask you first.",
  useLocation: "Use my location",
  waiting: "Finding your location…",
  denied: "Location was not shared. You can type your DIGIPIN instead.",
  failed: "Your location could not be found. You can type your DIGIPIN instead.",
  digipinLabel: "DIGIPIN",
  digipinHint: "10 characters, e.g. 39J-49L-L8T4",
  invalidDigipin: "This is not a DIGIPIN: 10 characters from 2–9, C, F, J, K, L, M, P, T.",
  outsideIndia: "This location is outside India: DIGIPIN covers India only.",
  found: "Your DIGIPIN is {digipin}, in {district}.",
  far: "Your DIGIPIN is {digipin}, {km} km from {district}, where the PIN code is. Check the PIN code, or the location.",
  foundNoPin: "Your DIGIPIN is {digipin}.",
  send: "Send my DIGIPIN to the courier",
  sent: "Thank you. The courier will see your DIGIPIN {digipin} on the order.",
  pinPlaces: "PIN code {pin}: {places}",
  pinMismatch: "PIN code {pin} is in {places}, not where the address says. Correct the PIN code, the city or the state, or save again if it is right.",
  pinUnknown: "PIN code {pin} is not in India Post's directory. Check it, or save again if it is right.",
};

const hi: LocationTexts = {
  legend: "आप कहाँ हैं (वैकल्पिक)",
  why: "अगर कूरियर को आपका दरवाज़ा ढूँढने में मुश्किल हो सकती है, तो अपनी जगह बताएँ। आपके फ़ोन की लोकेशन एक DIGIPIN बन जाती है, जो इंडिया पोस्ट का लगभग 4 × 4 मीटर की जगह का कोड है; केवल वही कोड आपके ऑर्डर के साथ रखा जाता है। आपका ब्राउज़र पहले आपसे पूछेगा।",
  useLocation: "मेरी लोकेशन इस्तेमाल करें",
  waiting: "आपकी लोकेशन ढूँढी जा रही है…",
  denied: "लोकेशन साझा नहीं की गई। आप अपना DIGIPIN टाइप कर सकते हैं।",
  failed: "आपकी लोकेशन नहीं मिल सकी। आप अपना DIGIPIN टाइप कर सकते हैं।",
  digipinLabel: "DIGIPIN",
  digipinHint: "10 अक्षर, जैसे 39J-49L-L8T4",
  invalidDigipin: "यह DIGIPIN नहीं है: 2–9, C, F, J, K, L, M, P, T में से 10 अक्षर।",
  outsideIndia: "यह लोकेशन भारत के बाहर है: DIGIPIN केवल भारत के लिए है।",
  found: "आपका DIGIPIN {digipin} है, {district} में।",
  far: "आपका DIGIPIN {digipin} है, {district} से {km} किमी दूर, जहाँ पिन कोड है। पिन कोड या लोकेशन जाँचें।",
  foundNoPin: "आपका DIGIPIN {digipin} है।",
  send: "मेरा DIGIPIN कूरियर को भेजें",
  sent: "धन्यवाद। कूरियर ऑर्डर पर आपका DIGIPIN {digipin} देखेगा।",
  pinPlaces: "पिन कोड {pin}: {places}",
  pinMismatch: "पिन कोड {pin} {places} में है, पते में लिखी जगह में नहीं। पिन कोड, शहर या राज्य ठीक करें, या सही हो तो फिर से सहेजें।",
  pinUnknown: "पिन कोड {pin} इंडिया पोस्ट की सूची में नहीं है। इसे जाँचें, या सही हो तो फिर से सहेजें।",
};

const ar: LocationTexts = {
  legend: "مكانك (اختياري)",
  why: "إذا كان قد يصعب على المندوب إيجاد بابك، شارك مكانك. يتحول موقع هاتفك إلى DIGIPIN، رمز البريد الهندي لبقعة مساحتها نحو 4 × 4 م؛ ولا يُحفظ إلا هذا الرمز مع طلبك. سيسألك متصفحك أولًا.",
  useLocation: "استخدم موقعي",
  waiting: "جارٍ تحديد موقعك…",
  denied: "لم تتم مشاركة الموقع. يمكنك كتابة رمز DIGIPIN بدلًا من ذلك.",
  failed: "تعذّر تحديد موقعك. يمكنك كتابة رمز DIGIPIN بدلًا من ذلك.",
  digipinLabel: "DIGIPIN",
  digipinHint: "10 رموز، مثل 39J-49L-L8T4",
  invalidDigipin: "هذا ليس رمز DIGIPIN: 10 رموز من 2–9 وC وF وJ وK وL وM وP وT.",
  outsideIndia: "هذا الموقع خارج الهند: رمز DIGIPIN للهند فقط.",
  found: "رمز DIGIPIN الخاص بك {digipin}، في {district}.",
  far: "رمز DIGIPIN الخاص بك {digipin}، على بعد {km} كم من {district} حيث الرمز البريدي. تحقّق من الرمز البريدي أو من الموقع.",
  foundNoPin: "رمز DIGIPIN الخاص بك {digipin}.",
  send: "أرسل رمز DIGIPIN إلى المندوب",
  sent: "شكرًا. سيرى المندوب رمز DIGIPIN {digipin} على الطلب.",
  pinPlaces: "الرمز البريدي {pin}: {places}",
  pinMismatch: "الرمز البريدي {pin} يقع في {places}، لا حيث يقول العنوان. صحّح الرمز البريدي أو المدينة أو الولاية، أو احفظ مرة أخرى إن كان صحيحًا.",
  pinUnknown: "الرمز البريدي {pin} غير موجود في دليل البريد الهندي. تحقّق منه، أو احفظ مرة أخرى إن كان صحيحًا.",
};

const fr: LocationTexts = {
  legend: "Où vous êtes (facultatif)",
  why: "Si le livreur risque d'avoir du mal à trouver votre porte, indiquez où vous êtes. La position de votre téléphone devient un DIGIPIN, le code d'India Post pour un emplacement d'environ 4 × 4 m ; seul ce code est conservé, avec votre commande. Votre navigateur vous le demandera d'abord.",
  useLocation: "Utiliser ma position",
  waiting: "Recherche de votre position…",
  denied: "La position n'a pas été partagée. Vous pouvez saisir votre DIGIPIN à la place.",
  failed: "Votre position est introuvable. Vous pouvez saisir votre DIGIPIN à la place.",
  digipinLabel: "DIGIPIN",
  digipinHint: "10 caractères, par ex. 39J-49L-L8T4",
  invalidDigipin: "Ce n'est pas un DIGIPIN : 10 caractères parmi 2–9, C, F, J, K, L, M, P, T.",
  outsideIndia: "Cette position est hors de l'Inde : le DIGIPIN ne couvre que l'Inde.",
  found: "Votre DIGIPIN est {digipin}, à {district}.",
  far: "Votre DIGIPIN est {digipin}, à {km} km de {district}, où se trouve le code PIN. Vérifiez le code PIN ou la position.",
  foundNoPin: "Votre DIGIPIN est {digipin}.",
  send: "Envoyer mon DIGIPIN au livreur",
  sent: "Merci. Le livreur verra votre DIGIPIN {digipin} sur la commande.",
  pinPlaces: "Code PIN {pin} : {places}",
  pinMismatch: "Le code PIN {pin} est à {places}, pas là où le dit l'adresse. Corrigez le code PIN, la ville ou l'État, ou enregistrez à nouveau s'il est juste.",
  pinUnknown: "Le code PIN {pin} n'est pas dans l'annuaire d'India Post. Vérifiez-le, ou enregistrez à nouveau s'il est juste.",
};

const es: LocationTexts = {
  legend: "Dónde está (opcional)",
  why: "Si al repartidor le puede costar encontrar su puerta, comparta dónde está. La ubicación de su teléfono se convierte en un DIGIPIN, el código de India Post para un punto de unos 4 × 4 m; solo se guarda ese código, con su pedido. Su navegador se lo preguntará antes.",
  useLocation: "Usar mi ubicación",
  waiting: "Buscando su ubicación…",
  denied: "No se compartió la ubicación. Puede escribir su DIGIPIN en su lugar.",
  failed: "No se pudo encontrar su ubicación. Puede escribir su DIGIPIN en su lugar.",
  digipinLabel: "DIGIPIN",
  digipinHint: "10 caracteres, p. ej. 39J-49L-L8T4",
  invalidDigipin: "Esto no es un DIGIPIN: 10 caracteres entre 2–9, C, F, J, K, L, M, P, T.",
  outsideIndia: "Esta ubicación está fuera de la India: DIGIPIN solo cubre la India.",
  found: "Su DIGIPIN es {digipin}, en {district}.",
  far: "Su DIGIPIN es {digipin}, a {km} km de {district}, donde está el código PIN. Revise el código PIN o la ubicación.",
  foundNoPin: "Su DIGIPIN es {digipin}.",
  send: "Enviar mi DIGIPIN al repartidor",
  sent: "Gracias. El repartidor verá su DIGIPIN {digipin} en el pedido.",
  pinPlaces: "Código PIN {pin}: {places}",
  pinMismatch: "El código PIN {pin} está en {places}, no donde dice la dirección. Corrija el código PIN, la ciudad o el estado, o guarde de nuevo si es correcto.",
  pinUnknown: "El código PIN {pin} no está en el directorio de India Post. Revíselo, o guarde de nuevo si es correcto.",
};

export const LOCATION_TEXTS: Record<Locale, LocationTexts> = { en, hi, ar, fr, es };
