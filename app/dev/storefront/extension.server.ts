import fs from "node:fs";
import path from "node:path";

/** The theme app extension's folder, read from disk by the dev routes (the app runs from the repository root). */
export const EXTENSION_DIR = path.resolve(process.cwd(), "extensions", "cod-verify");

const ASSET_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

/** An asset file as Shopify's CDN would serve it, or null for anything that is not a plain asset name. */
export function readAsset(name: string): { body: string; type: string } | null {
  if (!/^[a-z0-9][a-z0-9._-]*\.(js|css|svg)$/i.test(name) || name.includes("..")) return null;
  const file = path.join(EXTENSION_DIR, "assets", name);
  if (!fs.existsSync(file)) return null;
  return { body: fs.readFileSync(file, "utf8"), type: ASSET_TYPES[path.extname(name)] };
}

export function readBlock(name: string): string {
  return fs.readFileSync(path.join(EXTENSION_DIR, "blocks", `${name}.liquid`), "utf8");
}

/** Locale files by language: "en" (the default file), "fr", ... */
export function readLocales(): Record<string, Record<string, unknown>> {
  const dir = path.join(EXTENSION_DIR, "locales");
  const out: Record<string, Record<string, unknown>> = {};
  for (const file of fs.readdirSync(dir)) {
    const m = /^([a-z]{2}(?:-[A-Z]{2})?)(\.default)?\.json$/.exec(file);
    if (m) out[m[1]] = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  }
  return out;
}

export function defaultLocale(): string {
  const file = fs.readdirSync(path.join(EXTENSION_DIR, "locales")).find((f) => f.endsWith(".default.json"));
  return file ? file.split(".")[0] : "en";
}
