import fs from "node:fs";
import path from "node:path";

/**
 * The sentence the modal shows under the phone field (locale key `cod_verify.privacy_note`) names, in every
 * language the theme app extension ships, each kind of record the app keeps about a shopper (docs/privacy.md,
 * "What the shopper is told"): texts and calls, the orders with their products and where the shopper came from,
 * the checkout experiment's group, a request to stop texts or calls, and the two periods (a year, two years).
 */
const LOCALES = path.resolve(__dirname, "../../extensions/cod-verify/locales");

/** Each kind of record, as each language says it. */
const KINDS: Record<string, Record<string, RegExp>> = {
  "en.default": { calls: /texts and calls/, products: /products/, source: /site you came from/, experiment: /checkout test/, optOut: /stop texts or calls/, year: /up to a year/, twoYears: /two years/, browser: /browser/ },
  fr: { calls: /SMS et appels/, products: /produits/, source: /site d'où vous venez/, experiment: /test du paiement/, optOut: /arrêt des SMS ou des appels/, year: /jusqu'à un an/, twoYears: /deux ans/, browser: /navigateur/ },
  es: { calls: /SMS y llamadas/, products: /productos/, source: /sitio del que vienes/, experiment: /prueba del pago/, optOut: /no recibir SMS o llamadas/, year: /hasta un año/, twoYears: /dos años/, browser: /navegador/ },
  hi: { calls: /SMS और कॉल/, products: /प्रोडक्ट/, source: /जिस साइट से आप आए/, experiment: /चेकआउट टेस्ट/, optOut: /SMS या कॉल बंद करने/, year: /एक साल तक/, twoYears: /दो साल/, browser: /ब्राउज़र/ },
  ar: { calls: /والرسائل والمكالمات/, products: /منتجاتها/, source: /الموقع الذي أتيت منه/, experiment: /اختبار للدفع/, optOut: /إيقاف الرسائل أو المكالمات/, year: /حتى سنة/, twoYears: /سنتين/, browser: /المتصفح/ },
};

const note = (locale: string) => (JSON.parse(fs.readFileSync(path.join(LOCALES, `${locale}.json`), "utf8")) as { cod_verify: { privacy_note: string } }).cod_verify.privacy_note;

describe("the shopper's privacy sentence", () => {
  it("is checked in every language the extension ships", () => {
    const shipped = fs.readdirSync(LOCALES).filter((f) => f.endsWith(".json") && !f.includes(".schema.")).map((f) => f.replace(/\.json$/, ""));
    expect(shipped.sort()).toEqual(Object.keys(KINDS).sort());
  });

  it.each(Object.entries(KINDS))("%s names every kind of record kept and both periods", (locale, kinds) => {
    const text = note(locale);
    expect(Object.entries(kinds).filter(([, pattern]) => !pattern.test(text)).map(([kind]) => kind)).toEqual([]);
  });

  it("a sentence that leaves a kind out fails (the check is real)", () => {
    const without = note("en.default").replace(/, and the group a checkout test put you in/, "");
    expect(KINDS["en.default"].experiment.test(without)).toBe(false);
  });
});
