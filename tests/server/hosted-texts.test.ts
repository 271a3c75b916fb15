import { LINK_TEXTS } from "~/shared/hosted-texts";
import { LOCALES } from "~/shared/locales";
import { TEXTS } from "~/address-correction/i18n";
import { RECOVERY_TEXTS } from "~/delivery/texts";
import { PAGE_TEXTS } from "~/orders/confirmation/texts";

/** The hosted pages' link errors come from one table (app/shared/hosted-texts.ts), in every language. */
describe("the hosted pages' error texts", () => {
  it.each(LOCALES)("are the shared ones on the address form, the failed-delivery page and the confirmation (%s)", (locale) => {
    const link = LINK_TEXTS[locale];
    for (const [page, t] of [["address form", TEXTS[locale]], ["failed delivery", RECOVERY_TEXTS[locale]], ["confirmation", PAGE_TEXTS[locale]]] as const) {
      expect({ title: t.notFoundTitle, body: t.notFoundBody }, page).toEqual({ title: link.notFoundTitle, body: link.notFoundBody });
      expect({ title: t.forbiddenTitle, body: t.forbiddenBody }, page).toEqual({ title: link.forbiddenTitle, body: link.forbiddenBody });
    }
    expect(TEXTS[locale].expiredTitle).toBe(link.expiredTitle);
    expect(RECOVERY_TEXTS[locale].goneTitle).toBe(link.expiredTitle);
    expect(PAGE_TEXTS[locale].closedTitle).toBe(link.expiredTitle);
    expect([RECOVERY_TEXTS[locale].unavailableTitle, PAGE_TEXTS[locale].unavailableTitle]).toEqual([link.unavailableTitle, link.unavailableTitle]);
    // Written in the language, not left in English (English itself excepted).
    if (locale !== "en") expect(link.notFoundTitle).not.toBe(LINK_TEXTS.en.notFoundTitle);
  });
});
