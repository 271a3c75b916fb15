import type { Browser } from "playwright-core";
import { LINK_TEXTS } from "~/shared/hosted-texts";
import type { RunningServer } from "../helpers/server";
import { shot } from "./modal-helpers";
import { allViolations, HOSTED_SIZES } from "./hosted-helpers";
import { useBrowserStore } from "./browser-store";

/**
 * A link that is not (or no longer) a page says the same on every hosted page (the address form /ac, the
 * failed-delivery page /dr, the order confirmation /vc), in the page's language, from one table
 * (app/shared/hosted-texts.ts): read at a phone's, a tablet's and a laptop's size, axe clean, nothing wider
 * than the screen.
 */
describe("the hosted pages' link errors (Chromium)", () => {
  let server: RunningServer;
  let browser: Browser;
  useBrowserStore({}, (s, b) => {
    [server, browser] = [s, b];
  });

  HOSTED_SIZES.forEach((size) => {
    it(`says "link not found" alike on /ac, /dr and /vc, in English, Hindi and Arabic (${size.name})`, async () => {
      const context = await browser.newContext({ ...size.device, bypassCSP: true }); // axe-core is injected as a script
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      for (const locale of ["en", "hi", "ar"] as const) {
        const said: string[] = [];
        for (const kind of ["ac", "dr", "vc"]) {
          const answer = await page.goto(`${server.url}/apps/cod/${kind}/no-such-token-0123456789?locale=${locale}`);
          expect(answer!.status(), `${kind} ${locale}`).toBe(404);
          said.push(`${await page.locator("h1").textContent()} | ${await page.locator("h1 + p").textContent()}`);
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
          expect(await allViolations(page), `${kind} ${locale}`).toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.device.viewport!.width);
          if (locale !== "en" || kind === "ac") await shot(page, `hosted-not-found-${kind}-${locale}-${size.name}`);
        }
        const { notFoundTitle, notFoundBody } = LINK_TEXTS[locale];
        expect(said).toEqual([0, 1, 2].map(() => `${notFoundTitle} | ${notFoundBody}`));
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
