import type { Locale } from "~/shared/locales";
import { provinceListFor } from "./address";

/**
 * India's states and union territories in Hindi and Arabic, by Shopify's zone code (address.ts IN_STATES):
 * Intl.DisplayNames names countries, not their subdivisions, and a shopper reading Hindi or Arabic should
 * find their state in their script. French and Spanish write India's states as English does.
 */
const IN_STATE_NAMES: Partial<Record<Locale, Record<string, string>>> = {
  hi: {
    AN: "अंडमान और निकोबार द्वीपसमूह", AP: "आंध्र प्रदेश", AR: "अरुणाचल प्रदेश", AS: "असम", BR: "बिहार", CH: "चंडीगढ़",
    CG: "छत्तीसगढ़", DN: "दादरा और नगर हवेली और दमन और दीव", DL: "दिल्ली", GA: "गोवा", GJ: "गुजरात", HR: "हरियाणा",
    HP: "हिमाचल प्रदेश", JK: "जम्मू और कश्मीर", JH: "झारखंड", KA: "कर्नाटक", KL: "केरल", LA: "लद्दाख", LD: "लक्षद्वीप",
    MP: "मध्य प्रदेश", MH: "महाराष्ट्र", MN: "मणिपुर", ML: "मेघालय", MZ: "मिज़ोरम", NL: "नागालैंड", OR: "ओडिशा",
    PY: "पुडुचेरी", PB: "पंजाब", RJ: "राजस्थान", SK: "सिक्किम", TN: "तमिलनाडु", TS: "तेलंगाना", TR: "त्रिपुरा",
    UP: "उत्तर प्रदेश", UK: "उत्तराखंड", WB: "पश्चिम बंगाल",
  },
  ar: {
    AN: "جزر أندامان ونيكوبار", AP: "أندرا براديش", AR: "أروناتشال براديش", AS: "آسام", BR: "بيهار", CH: "شانديغار",
    CG: "تشاتيسغار", DN: "دادرا وناغار هافيلي ودامان وديو", DL: "دلهي", GA: "غوا", GJ: "غوجارات", HR: "هاريانا",
    HP: "هيماتشال براديش", JK: "جامو وكشمير", JH: "جهارخاند", KA: "كارناتاكا", KL: "كيرالا", LA: "لاداخ", LD: "لاكشادويب",
    MP: "ماديا براديش", MH: "ماهاراشترا", MN: "مانيبور", ML: "ميغالايا", MZ: "ميزورام", NL: "ناغالاند", OR: "أوديشا",
    PY: "بودوتشيري", PB: "البنجاب", RJ: "راجستان", SK: "سيكيم", TN: "تاميل نادو", TS: "تيلانغانا", TR: "تريبورا",
    UP: "أوتار براديش", UK: "أوتاراخند", WB: "البنغال الغربية",
  },
};

const LOCALIZED: Record<string, Partial<Record<Locale, Record<string, string>>>> = { IN: IN_STATE_NAMES };

/** The country's provinces (code → name) in `locale` where the app has their names in it, else as the list writes them. */
export function localizedProvinces(countryCode: string, locale: Locale): Record<string, string> | undefined {
  const list = provinceListFor(countryCode);
  const names = LOCALIZED[countryCode]?.[locale];
  if (!list || !names) return list;
  return Object.fromEntries(Object.entries(list).map(([code, name]) => [code, names[code] ?? name]));
}

/** One province's name in `locale` (a code not in the list is shown as it was typed). */
export function provinceName(countryCode: string, province: string, locale: Locale): string {
  return localizedProvinces(countryCode, locale)?.[province] ?? province;
}
