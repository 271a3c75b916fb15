/**
 * Just enough Liquid to render the theme app extension's blocks the way a theme would, for the local
 * storefront emulation (GET /dev/storefront). It supports what our blocks use and throws on anything
 * else, so a block that grows beyond it fails a test instead of rendering wrong:
 *   {{ expr | filter: arg }}, {% assign x = expr %}, {% comment %}, {% schema %}, whitespace control (-).
 *   Filters: t, json, escape, default, asset_url, map. Expressions: 'strings', "strings", numbers, dotted.paths.
 */
export type LiquidContext = Record<string, unknown>;
export type Translations = Record<string, unknown>;

export type RenderOptions = {
  /** The storefront language's locale file, then the default one (Shopify falls back to it). */
  translations: Translations[];
  /** Where the extension's assets are served, for `asset_url` (Shopify's CDN in a real store). */
  assetBase?: string;
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** The block's `{% schema %}` JSON (settings, javascript, stylesheet), or null. */
export function blockSchema(source: string): { settings?: { id: string; default?: unknown }[]; javascript?: string; stylesheet?: string } | null {
  const m = /{%-?\s*schema\s*-?%}([\s\S]*?){%-?\s*endschema\s*-?%}/.exec(source);
  return m ? JSON.parse(m[1]) : null;
}

function lookup(context: LiquidContext, path: string): unknown {
  let value: unknown = context;
  for (const part of path.split(".")) {
    if (value == null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function translate(key: string, options: RenderOptions): string {
  for (const file of options.translations) {
    const found = lookup(file, key);
    if (typeof found === "string") return key.endsWith("_html") ? found : escapeHtml(found);
  }
  return `translation missing: ${key}`;
}

function parseValue(token: string, context: LiquidContext): unknown {
  const t = token.trim();
  if (/^'[^']*'$|^"[^"]*"$/.test(t)) return t.slice(1, -1);
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (/^[a-z_][\w.]*$/i.test(t)) return lookup(context, t);
  throw new Error(`unsupported Liquid expression: ${t}`);
}

/** Splits on `|` outside quotes. */
function splitFilters(expr: string): string[] {
  return expr.match(/(?:'[^']*'|"[^"]*"|[^|])+/g)?.map((s) => s.trim()) ?? [];
}

function evaluate(expr: string, context: LiquidContext, options: RenderOptions): unknown {
  const [head, ...filters] = splitFilters(expr);
  let value = parseValue(head, context);
  for (const filter of filters) {
    const m = /^(\w+)\s*(?::\s*([\s\S]+))?$/.exec(filter);
    if (!m) throw new Error(`unsupported Liquid filter: ${filter}`);
    const arg = m[2] === undefined ? undefined : parseValue(m[2], context);
    switch (m[1]) {
      case "t":
        value = translate(String(value), options);
        break;
      case "json":
        value = JSON.stringify(value ?? null);
        break;
      case "escape":
        value = value == null ? "" : escapeHtml(String(value));
        break;
      case "default":
        value = value == null || value === "" || value === false ? arg : value;
        break;
      case "map":
        value = Array.isArray(value) ? value.map((item) => (item && typeof item === "object" ? (item as Record<string, unknown>)[String(arg)] : undefined)) : [];
        break;
      case "asset_url":
        value = `${options.assetBase ?? "/assets"}/${encodeURIComponent(String(value))}`;
        break;
      default:
        throw new Error(`unsupported Liquid filter: ${m[1]}`);
    }
  }
  return value;
}

export function renderLiquid(source: string, context: LiquidContext, options: RenderOptions): string {
  const scope: LiquidContext = { ...context };
  const withoutBlocks = source
    .replace(/{%-?\s*comment\s*-?%}[\s\S]*?{%-?\s*endcomment\s*-?%}/g, (m) => marker(m))
    .replace(/{%-?\s*schema\s*-?%}[\s\S]*?{%-?\s*endschema\s*-?%}/g, (m) => marker(m));
  const out = withoutBlocks;
  let html = "";
  const tag = /({{-?|{%-?)([\s\S]*?)(-?}}|-?%})/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = tag.exec(out))) {
    let text = out.slice(last, m.index);
    if (m[1].endsWith("-")) text = text.replace(/\s+$/, "");
    html += text;
    const body = m[2].trim();
    if (m[1].startsWith("{{")) {
      const value = evaluate(body, scope, options);
      html += value == null ? "" : String(value);
    } else if (body.startsWith("#marker")) {
      // a removed comment or schema
    } else {
      const assign = /^assign\s+(\w+)\s*=\s*([\s\S]+)$/.exec(body);
      if (!assign) throw new Error(`unsupported Liquid tag: {% ${body} %}`);
      scope[assign[1]] = evaluate(assign[2], scope, options);
    }
    last = tag.lastIndex;
    if (m[3].startsWith("-")) {
      const rest = out.slice(last);
      last += rest.length - rest.replace(/^\s+/, "").length;
    }
  }
  return html + out.slice(last);
}

/** A removed `{% comment %}`/`{% schema %}` keeps its whitespace control so the output spacing matches. */
function marker(block: string): string {
  const open = block.startsWith("{%-") ? "{%-" : "{%";
  const close = /-%}$/.test(block) ? "-%}" : "%}";
  return `${open} #marker ${close}`;
}
