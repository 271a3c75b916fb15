import fs from "node:fs";
import path from "node:path";
import { FIXED_RESOURCE_ROUTES } from "~/server-build";
import { fixedResourceRoutes } from "../../app/server/resource-routes.mjs";

/**
 * app/server-build.ts is kept by hand: it must list every route file of app/routes/ that Remix
 * serves at a fixed path without a UI, at that path, with that very module (so server.mjs answers
 * such a path exactly as Remix would route it), and nothing else.
 */
const routesDir = path.resolve(__dirname, "../../app/routes");
// remix.config.js LOCAL_MODE_ROUTES: left out of the production build, so out of the table too.
const localModeOnly = (file: string) => file.startsWith("dev.") || file.startsWith("cart") || file === "apps.$subpath.$.ts";

/** The URL path Remix's flat routes give a route file (`a.b[.]c.ts` → `/a/b.c`), or null when a segment is dynamic. */
function urlPathOf(file: string): string | null {
  const name = file.replace(/\.(tsx?|jsx?)$/, "");
  const segments = name.match(/(?:\[[^\]]*\]|[^.])+/g) ?? [];
  if (segments.some((s) => s.startsWith("$") || s.startsWith("_") || s.startsWith("("))) return null;
  return `/${segments.map((s) => s.replace(/\[([^\]]*)\]/g, "$1")).join("/")}`;
}

describe("the fixed-path resource route table", () => {
  const files = fs.readdirSync(routesDir).filter((f) => /\.(tsx?|jsx?)$/.test(f) && !f.includes(".test."));

  it("lists every fixed-path resource route of app/routes/ at its path, with its own module", async () => {
    const expected: Record<string, unknown> = {};
    for (const file of files) {
      const url = urlPathOf(file);
      if (!url || localModeOnly(file)) continue;
      const mod = await import(path.join(routesDir, file));
      if (mod.default) continue; // a page: Remix renders it
      expected[url] = mod;
    }
    expect(Object.keys(FIXED_RESOURCE_ROUTES).sort()).toEqual(Object.keys(expected).sort());
    for (const [url, mod] of Object.entries(expected)) expect(FIXED_RESOURCE_ROUTES[url], url).toBe(mod);
  });

  it("names no page, no dynamic path and no local-mode tool", () => {
    for (const [url, mod] of Object.entries(FIXED_RESOURCE_ROUTES)) {
      expect(url).not.toMatch(/[:$*?]/);
      expect((mod as { default?: unknown }).default).toBeUndefined();
      expect(url).not.toMatch(/^\/(dev|cart|apps)\b/);
    }
  });

  it("is what the server dispatches by (the server build's own export, no Remix internals)", () => {
    const table = fixedResourceRoutes({ FIXED_RESOURCE_ROUTES, routes: { bogus: { path: "x", module: {} } } });
    expect([...table.keys()].sort()).toEqual(Object.keys(FIXED_RESOURCE_ROUTES).sort());
    expect(table.get("/x")).toBeUndefined();
  });
});
