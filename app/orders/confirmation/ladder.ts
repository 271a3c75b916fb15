import { fill, pickLocale, type Locale } from "~/shared/locales";
import { spokenMoney, spokenOrderName, type Money } from "~/shared/money-words";

/**
 * The confirmation ladder, pure: the rungs a shop climbs when an unverified COD order is not confirmed
 * (WhatsApp buttons, the SMS link, a voice call, then "needs a person"), each at its delay after the
 * order, and the quiet hours (shop time) during which no text or call goes.
 */
export const RUNGS = ["whatsapp", "sms", "voice", "person"] as const;
export type Rung = (typeof RUNGS)[number];
export type LadderStep = { rung: Rung; minutes: number };

/** The tag of an order confirmed on a rung, e.g. `cod-confirmed-by:voice`. */
export const confirmedByTag = (rung: Rung) => `cod-confirmed-by:${rung}`;

export type LadderShop = {
  ladderWhatsappMinutes: number | null;
  ladderSmsMinutes: number | null;
  ladderVoiceMinutes: number | null;
  ladderPersonMinutes: number | null;
};

/** The shop's ladder, rungs in the order they come (by delay; equal delays in RUNGS order), or null when no rung is set. */
export function shopLadder(shop: LadderShop): LadderStep[] | null {
  const minutes: Record<Rung, number | null> = {
    whatsapp: shop.ladderWhatsappMinutes,
    sms: shop.ladderSmsMinutes,
    voice: shop.ladderVoiceMinutes,
    person: shop.ladderPersonMinutes,
  };
  const steps = RUNGS.flatMap((rung) => (minutes[rung] === null ? [] : [{ rung, minutes: minutes[rung]! }]));
  if (!steps.length) return null;
  return steps.sort((a, b) => a.minutes - b.minutes || RUNGS.indexOf(a.rung) - RUNGS.indexOf(b.rung));
}

/** A confirmation's stored ladder (JSON), or null: none, or not one we can read. */
export function parseLadder(json: string | null): LadderStep[] | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return null;
    const steps = value.filter(
      (s): s is LadderStep => typeof s === "object" && s !== null && RUNGS.includes((s as LadderStep).rung) && Number.isInteger((s as LadderStep).minutes),
    );
    return steps.length ? steps : null;
  } catch {
    return null;
  }
}

/** The rung after `rung` in the ladder, or null (the last one, or not in it). */
export function rungAfter(ladder: LadderStep[], rung: Rung): LadderStep | null {
  const i = ladder.findIndex((s) => s.rung === rung);
  return i >= 0 && i + 1 < ladder.length ? ladder[i + 1] : null;
}

/** The minute of the day (0-1439) at `at` in `timeZone` (UTC when unknown). */
export function minuteOfDay(at: Date, timeZone: string | null): number {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: timeZone ?? "UTC", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === "hour")?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === "minute")?.value ?? 0);
  return hour * 60 + minute;
}

export type QuietHours = { quietHoursStart: number | null; quietHoursEnd: number | null; timezone: string | null };

/**
 * When the quiet hours around `at` end (the first minute a text or call may go), or null when `at` is
 * outside them. Quiet hours may wrap midnight (21:00-09:00). Computed in whole minutes from the local
 * minute of the day, so a daylight-saving change shifts the end by at most its hour, never skips it.
 */
export function quietUntil(at: Date, q: QuietHours): Date | null {
  if (q.quietHoursStart === null || q.quietHoursEnd === null || q.quietHoursStart === q.quietHoursEnd) return null;
  const now = minuteOfDay(at, q.timezone);
  const { quietHoursStart: start, quietHoursEnd: end } = q;
  const quiet = start < end ? now >= start && now < end : now >= start || now < end;
  if (!quiet) return null;
  const left = (end - now + 1440) % 1440;
  const next = new Date(at.getTime() + left * 60_000);
  next.setUTCSeconds(0, 0);
  return next;
}

/** "HH:MM" for a minute of the day. */
export function clockTime(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

/**
 * What the call says, in the shop's language: the order's number and the amount to pay on delivery
 * (never the phone or the address), then the choices; and what it says after each key.
 */
const VOICE: Record<Locale, { prompt: string; amount: string; confirmed: string; cancelled: string; address: string; optedOut: string; noInput: string; settled: string; language: string; voice: string }> = {
  en: {
    prompt: "Hello, this is {shop} about your cash on delivery order {order}.{amount} Press 1 to confirm the order, 2 to cancel it, 3 to change the delivery address. Press 9 if you do not want calls from us.",
    amount: " The amount to pay on delivery is {amount}.",
    confirmed: "Thank you. Your order is confirmed. Goodbye.",
    cancelled: "Your order is cancelled. Goodbye.",
    address: "We are sending you a text message with a link to change the address. Goodbye.",
    optedOut: "You will not be called again. Goodbye.",
    noInput: "We did not receive an answer. Goodbye.",
    settled: "This order was already answered. Thank you. Goodbye.",
    language: "en-US",
    voice: "Polly.Joanna",
  },
  hi: {
    prompt: "नमस्ते, {shop} से आपके कैश ऑन डिलीवरी ऑर्डर {order} के बारे में।{amount} ऑर्डर की पुष्टि के लिए 1 दबाएं, रद्द करने के लिए 2, डिलीवरी का पता बदलने के लिए 3। अगर आप हमारी कॉल नहीं चाहते तो 9 दबाएं।",
    amount: " डिलीवरी पर देय राशि {amount} है।",
    confirmed: "धन्यवाद। आपका ऑर्डर पक्का हो गया है।",
    cancelled: "आपका ऑर्डर रद्द कर दिया गया है।",
    address: "हम आपको पता बदलने का लिंक एसएमएस से भेज रहे हैं।",
    optedOut: "आपको दोबारा कॉल नहीं किया जाएगा।",
    noInput: "हमें कोई जवाब नहीं मिला।",
    settled: "इस ऑर्डर का जवाब पहले ही मिल चुका है। धन्यवाद।",
    language: "hi-IN",
    voice: "Polly.Aditi",
  },
  ar: {
    prompt: "مرحبا، هنا {shop} بخصوص طلبك {order} بالدفع عند الاستلام.{amount} اضغط 1 لتأكيد الطلب، 2 لإلغائه، 3 لتغيير عنوان التوصيل. اضغط 9 إذا كنت لا تريد مكالمات منا.",
    amount: " المبلغ المطلوب عند الاستلام {amount}.",
    confirmed: "شكرا. تم تأكيد طلبك.",
    cancelled: "تم إلغاء طلبك.",
    address: "سنرسل لك رسالة نصية برابط لتغيير العنوان.",
    optedOut: "لن نتصل بك مرة أخرى.",
    noInput: "لم نتلق أي إجابة.",
    settled: "تمت الإجابة على هذا الطلب من قبل. شكرا.",
    language: "arb",
    voice: "Polly.Zeina",
  },
  fr: {
    prompt: "Bonjour, ici {shop} au sujet de votre commande {order} en paiement à la livraison.{amount} Appuyez sur 1 pour confirmer la commande, 2 pour l'annuler, 3 pour changer l'adresse de livraison. Appuyez sur 9 si vous ne voulez plus d'appels.",
    amount: " Le montant à payer à la livraison est de {amount}.",
    confirmed: "Merci. Votre commande est confirmée. Au revoir.",
    cancelled: "Votre commande est annulée. Au revoir.",
    address: "Nous vous envoyons un SMS avec un lien pour changer l'adresse. Au revoir.",
    optedOut: "Vous ne serez plus appelé. Au revoir.",
    noInput: "Nous n'avons pas reçu de réponse. Au revoir.",
    settled: "Cette commande a déjà reçu une réponse. Merci. Au revoir.",
    language: "fr-FR",
    voice: "Polly.Celine",
  },
  es: {
    prompt: "Hola, le llama {shop} por su pedido {order} contra reembolso.{amount} Pulse 1 para confirmar el pedido, 2 para cancelarlo, 3 para cambiar la dirección de entrega. Pulse 9 si no quiere recibir llamadas nuestras.",
    amount: " El importe a pagar en la entrega es {amount}.",
    confirmed: "Gracias. Su pedido está confirmado. Adiós.",
    cancelled: "Su pedido está cancelado. Adiós.",
    address: "Le enviamos un SMS con un enlace para cambiar la dirección. Adiós.",
    optedOut: "No volverá a recibir llamadas. Adiós.",
    noInput: "No hemos recibido respuesta. Adiós.",
    settled: "Este pedido ya tiene respuesta. Gracias. Adiós.",
    language: "es-ES",
    voice: "Polly.Conchita",
  },
};

export type VoiceLine = Exclude<keyof (typeof VOICE)["en"], "prompt" | "amount" | "language" | "voice">;

/** What a <Say> needs: the text, its language and a voice that speaks it (Amazon Polly through Twilio; a pair Twilio refuses fails the <Say>). */
export type Spoken = { text: string; language: string; voice: string };

/** The call's question (spoken inside the <Gather>). */
export function voicePrompt(locales: (string | null | undefined)[], values: { shop: string; order: string; amount: Money | null }): Spoken {
  const language = pickLocale(...locales);
  const t = VOICE[language];
  // As a person says them (app/shared/money-words.ts): "order 1002", "order L 1 9 2 3 9", "499 rupees".
  const order = spokenOrderName(values.order);
  const amount = values.amount ? fill(t.amount, { amount: spokenMoney(values.amount, language) }) : "";
  return { text: fill(t.prompt, { shop: values.shop, order, amount }), language: t.language, voice: t.voice };
}

export function voiceLine(locales: (string | null | undefined)[], line: VoiceLine): Spoken {
  const t = VOICE[pickLocale(...locales)];
  return { text: t[line], language: t.language, voice: t.voice };
}
