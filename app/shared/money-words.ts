import { pickLocale, type Locale } from "./locales";

/**
 * Money and order names as a shopper reads and hears them, in their language, with the shop's currency.
 * Written: Intl in the shopper's language and the shop's country ("es-IN"), the currency's symbol always
 * (narrowSymbol: Spanish writes "1299 ₹", never "1299,00 INR"), no ".00" on a whole amount.
 * Spoken (the confirmation call's text-to-speech): digits the voice reads as a number in its language,
 * no decimals on a whole amount, no grouping commas, and the currency's name in words ("499 rupees",
 * never "499.00 INR", which a voice reads as "point zero zero I N R").
 */
export type Money = { amount: number; currency: string | null };

const whole = (amount: number) => Math.abs(amount - Math.round(amount)) < 0.005;

/** The Intl locale: the shopper's language in the shop's country, when the runtime knows the pair. */
function intlLocale(language: Locale, country: string | null | undefined): string {
  if (!country || !/^[A-Za-z]{2}$/.test(country)) return language;
  const tag = `${language}-${country.toUpperCase()}`;
  return Intl.NumberFormat.supportedLocalesOf([tag]).length ? tag : language;
}

/** "₹1,299", "1299 ₹" (es), "‏1,299.50 ₹" (ar): the amount as the shopper reads money, in the shop's currency. */
export function writtenMoney(money: Money, language: string | null | undefined, country?: string | null): string {
  const locale = intlLocale(pickLocale(language), country);
  const digits = whole(money.amount) ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {};
  if (!money.currency) return new Intl.NumberFormat(locale, digits).format(money.amount);
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: money.currency, currencyDisplay: "narrowSymbol", ...digits }).format(money.amount);
  } catch {
    return `${money.amount.toFixed(2)} ${money.currency}`;
  }
}

/**
 * The rupee by the word people use in each language (Intl's name is the formal "Indian rupees",
 * "भारतीय रुपए"), by plural category; other currencies take Intl's name, which Intl declines.
 */
const SPOKEN_CURRENCY: Record<string, Partial<Record<Locale, Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }>>> = {
  INR: {
    en: { one: "rupee", other: "rupees" },
    hi: { one: "रुपया", other: "रुपये" },
    ar: { other: "روبية" },
    fr: { one: "roupie", other: "roupies" },
    es: { one: "rupia", other: "rupias" },
  },
};

/** "499 rupees", "1299 रुपये", "12.50 US dollars": what the call says for the amount. */
export function spokenMoney(money: Money, language: string | null | undefined): string {
  const lang = pickLocale(language);
  const fraction = whole(money.amount) ? { maximumFractionDigits: 0 } : { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  const number = new Intl.NumberFormat(lang, { useGrouping: false, ...fraction }).format(money.amount);
  if (!money.currency) return number;
  const names = SPOKEN_CURRENCY[money.currency.toUpperCase()]?.[lang];
  if (names) {
    const category = whole(money.amount) ? new Intl.PluralRules(lang).select(Math.round(money.amount)) : "other";
    return `${number} ${names[category] ?? names.other}`;
  }
  try {
    return new Intl.NumberFormat(lang, { style: "currency", currency: money.currency, currencyDisplay: "name", useGrouping: false, ...fraction }).format(money.amount);
  } catch {
    return number;
  }
}

/**
 * An order's name as a person reads it aloud: without "#"; letters apart from digits ("L19239" →
 * "L 1 9 2 3 9"); up to four digits said as a number ("1002"), longer runs digit by digit, as people
 * read out a reference rather than "nineteen thousand two hundred thirty-nine".
 */
export function spokenOrderName(name: string): string {
  return name
    .replace(/^#/, "")
    .split(/(\d+)/)
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? (part.length <= 4 ? part : part.split("").join(" ")) : part.replace(/[-_/]+/g, " ").trim()))
    .filter(Boolean)
    .join(" ");
}
