import path from "node:path";
import type { BrowserContextOptions, Page } from "playwright-core";
import { ROOT } from "../setup/databases";

/** A phone's, a tablet's and a laptop's screen: the hosted pages are read on each. */
export const HOSTED_SIZES: { name: string; device: BrowserContextOptions }[] = [
  { name: "360x640", device: { viewport: { width: 360, height: 640 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } },
  { name: "768x1024", device: { viewport: { width: 768, height: 1024 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true } },
  { name: "1280x800", device: { viewport: { width: 1280, height: 800 } } },
];

const AXE = path.join(ROOT, "node_modules", "axe-core", "axe.min.js");

/** Every axe-core WCAG 2.x A/AA violation on the page, whatever its impact, as "rule: selectors". */
export async function allViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] }, resultTypes: ["violations"] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

/** Presses Tab until the focused element's text (or label) is `name`; fails when 30 presses do not reach it. */
export async function tabTo(page: Page, name: string | RegExp): Promise<void> {
  const matches = (text: string) => (typeof name === "string" ? text === name : name.test(text));
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return "";
      const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
      return (label ?? el.textContent ?? "").trim();
    });
    if (matches(focused)) return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}
