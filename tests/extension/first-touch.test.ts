import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { parseTrafficSource, TOUCH_STORAGE_KEY } from "~/shared/traffic-source";
import { EXTENSION } from "./load-modal";

/**
 * The block script that loads with the page (assets/cod-modal.js) keeps the session's first touch
 * (docs/traffic-source.md): run as the theme runs it, in a sandbox window with the page's URL, its
 * referrer and session storage, then read as the server reads it.
 */
function landOn(url: string, referrer: string, storage = new Map<string, string>(), blocked = false) {
  const sessionStorage = {
    getItem: (k: string) => {
      if (blocked) throw new Error("SecurityError");
      return storage.has(k) ? storage.get(k)! : null;
    },
    setItem: (k: string, v: string) => void storage.set(k, v),
  };
  const location = new URL(url);
  const document = { referrer, readyState: "complete", querySelectorAll: () => [], addEventListener: () => {} };
  const window: Record<string, unknown> = { document, location, sessionStorage, URL, URLSearchParams };
  vm.runInNewContext(fs.readFileSync(path.join(EXTENSION, "assets", "cod-modal.js"), "utf8"), { window, URL, URLSearchParams });
  return storage;
}

describe("the block script's first touch", () => {
  it("keeps the landing page's UTM parameters and an outside referrer, read by the server as the same source", () => {
    const kept = landOn("https://shop.example.in/products/kurta?utm_source=Facebook&utm_medium=cpc&utm_campaign=diwali&fbclid=x", "https://m.facebook.com/");
    expect(parseTrafficSource(kept.get(TOUCH_STORAGE_KEY))).toEqual({ source: "facebook", medium: "cpc", campaign: "diwali", referrer: "m.facebook.com" });
  });

  it("first touch only: a later page of the session changes nothing", () => {
    const storage = landOn("https://shop.example.in/?utm_source=google", "https://www.google.com/");
    landOn("https://shop.example.in/products/kurta?utm_source=newsletter", "https://mail.example.com/", storage);
    expect(parseTrafficSource(storage.get(TOUCH_STORAGE_KEY))).toMatchObject({ source: "google" });
  });

  it("no referrer and no tag is a direct visit; a page reached from the store itself is no landing", () => {
    expect(landOn("https://shop.example.in/products/kurta", "").get(TOUCH_STORAGE_KEY)).toBe("");
    expect(landOn("https://shop.example.in/products/kurta", "https://shop.example.in/collections/all").has(TOUCH_STORAGE_KEY)).toBe(false);
  });

  it("blocked storage loses the source, never the page", () => {
    expect(() => landOn("https://shop.example.in/?utm_source=x", "", new Map(), true)).not.toThrow();
  });
});
