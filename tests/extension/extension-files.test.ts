import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { blockSchema, renderLiquid } from "~/dev/storefront/liquid.server";
import { EXTENSION, localeFiles, readLocale, schemaLocaleFiles } from "./load-modal";

const block = fs.readFileSync(path.join(EXTENSION, "blocks", "cod-button.liquid"), "utf8");

describe("the theme app extension's files", () => {
  it("declare a theme extension", () => {
    expect(fs.readFileSync(path.join(EXTENSION, "shopify.extension.toml"), "utf8")).toMatch(/^type = "theme"$/m);
  });

  it("have one default locale and the same keys in every language (en, fr, es, hi, ar)", () => {
    const files = localeFiles().sort();
    expect(files).toEqual(["ar.json", "en.default.json", "es.json", "fr.json", "hi.json"]);
    const keys = Object.keys(readLocale("en.default.json")).sort();
    for (const f of files) {
      expect(Object.keys(readLocale(f)).sort(), f).toEqual(keys);
      expect(fs.statSync(path.join(EXTENSION, "locales", f)).size, `${f} under Shopify's 15 KB`).toBeLessThan(15_000);
    }
  });

  it("translate the block's theme-editor labels through schema locale files in the same languages", () => {
    const schema = blockSchema(block) as unknown as { name: string; settings: { label: string; info?: string; options?: { label: string }[] }[] };
    const labels = [schema.name, ...schema.settings.flatMap((s) => [s.label, s.info, ...(s.options ?? []).map((o) => o.label)])].filter((l): l is string => Boolean(l));
    for (const label of labels) expect(label).toMatch(/^t:blocks\.cod_button\./);
    expect(schemaLocaleFiles().sort()).toEqual(["ar.schema.json", "en.default.schema.json", "es.schema.json", "fr.schema.json", "hi.schema.json"]);
    const lookup = (file: string, key: string) =>
      key.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], JSON.parse(fs.readFileSync(path.join(EXTENSION, "locales", file), "utf8")));
    for (const file of schemaLocaleFiles()) {
      for (const label of labels) expect(lookup(file, label.slice(2)), `${file} ${label}`).toEqual(expect.any(String));
    }
    expect(lookup("hi.schema.json", "blocks.cod_button.name")).toBe("COD Verify बटन");
  });

  it("keep every placeholder of the default language in each translation", () => {
    const en = readLocale("en.default.json");
    for (const f of localeFiles()) {
      const strings = readLocale(f);
      for (const [key, text] of Object.entries(en)) {
        // Arabic spells out one and two ("محاولة واحدة", "محاولتان") instead of showing the count.
        const wanted = f === "ar.json" && /^error_attempts_left_(one|two)$/.test(key) ? [] : (text.match(/\{\w+\}/g) ?? []);
        for (const p of wanted) expect(strings[key], `${f} ${key}`).toContain(p);
      }
    }
  });

  it("hand the modal every text of the default locale, through the block's t filter", () => {
    const used = [...block.matchAll(/'cod_verify\.(\w+)' \| t \| json/g)].map((m) => m[1]).sort();
    expect(used).toEqual(Object.keys(readLocale("en.default.json")).sort());
  });

  it("use only keys the modal script knows it reads from the block", () => {
    const js = fs.readFileSync(path.join(EXTENSION, "assets", "cod-modal-ui.js"), "utf8");
    const keys = new Set(Object.keys(readLocale("en.default.json")));
    const called = [...js.matchAll(/\bt\("(\w+)"[,)]/g), ...js.matchAll(/\bsay\("(\w+)"[,)]/g), ...js.matchAll(/key: "(\w+)"/g)].map((m) => m[1]);
    for (const k of called) expect(keys.has(k) || keys.has(`${k}_other`), k).toBe(true);
  });

  it("declare a small page script in the block schema (Shopify's 10,000-byte app block limit) that loads the modal on demand", () => {
    const schema = blockSchema(block)!;
    expect(schema).toMatchObject({ target: "section", javascript: "cod-modal.js" });
    // No stylesheet that holds up every product page's first render: the modal's comes with the modal.
    expect(schema.stylesheet).toBeUndefined();
    expect(block).toContain(`data-css-src="{{ 'cod-modal.css' | asset_url }}"`);
    expect(/<style>([\s\S]*?)<\/style>/.exec(block)![1].length, "the button's inline styles").toBeLessThan(2_000);
    const size = (f: string) => fs.statSync(path.join(EXTENSION, "assets", f)).size;
    expect(size("cod-modal.js"), "what loads with the page").toBeLessThan(10_000);
    expect(size("cod-modal.css")).toBeLessThan(100_000);
    expect(block).toContain(`data-ui-src="{{ 'cod-modal-ui.js' | asset_url }}"`);
    const gz = zlib.gzipSync(fs.readFileSync(path.join(EXTENSION, "assets", "cod-modal-ui.js"))).length;
    expect(gz, "the modal, fetched on demand, under 15 KB compressed").toBeLessThan(15_000);
  });

  it("render with the storefront's settings, escaped, and the translations as valid JSON", () => {
    const html = renderLiquid(
      block,
      {
        block: { settings: { proxy_path: "/apps/cod-x", source: "product", button_label: 'Pay "cash"' }, shopify_attributes: "" },
        product: { title: "Tee <b>", selected_or_first_available_variant: { id: 42 } },
        routes: { root_url: "/fr" },
        request: { locale: { iso_code: "fr" } },
        localization: { country: { iso_code: "MA" } },
      },
      { translations: [{ cod_verify: readLocale("fr.json") }, { cod_verify: readLocale("en.default.json") }] },
    );
    expect(html).toContain('data-base-path="/apps/cod-x"');
    expect(html).toContain('data-root="/fr"');
    expect(html).toContain('data-default-country="MA"');
    expect(html).toContain('data-variant-id="42"');
    expect(html).toContain('data-product-title="Tee &lt;b&gt;"');
    expect(html).toContain("Pay &quot;cash&quot;");
    const json = /<script type="application\/json" data-cod-i18n>([\s\S]*?)<\/script>/.exec(html)![1];
    const strings = JSON.parse(json);
    expect(strings.send_code).toBe("Envoyer le code");
    expect(strings.error_phone_unreachable).toBe(readLocale("fr.json").error_phone_unreachable);
    expect(html).not.toContain("{{");
    expect(html).not.toContain("{%");
  });
});

describe("the dev Liquid renderer", () => {
  it("refuses Liquid it does not implement instead of rendering it wrong", () => {
    expect(() => renderLiquid("{% if x %}y{% endif %}", {}, { translations: [] })).toThrow(/unsupported Liquid tag/);
    expect(() => renderLiquid("{{ x | upcase }}", {}, { translations: [] })).toThrow(/unsupported Liquid filter/);
  });

  it("applies whitespace control and falls back to the default locale", () => {
    expect(renderLiquid("a  {{- 'k.x' | t -}}  b", {}, { translations: [{}, { k: { x: "X" } }] })).toBe("aXb");
  });

  it("HTML-escapes what t returns, as Shopify does (the modal unescapes it)", () => {
    expect(renderLiquid("{{ 'k' | t | json }}", {}, { translations: [{ k: "l'été <b>" }] })).toBe('"l&#39;été &lt;b&gt;"');
  });
});
