import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { blockSchema, renderLiquid } from "~/dev/storefront/liquid.server";
import { EXTENSION, localeFiles, readLocale } from "./load-modal";

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
    const js = fs.readFileSync(path.join(EXTENSION, "assets", "cod-modal.js"), "utf8");
    const keys = new Set(Object.keys(readLocale("en.default.json")));
    const called = [...js.matchAll(/\bt\("(\w+)"[,)]/g), ...js.matchAll(/\bsay\("(\w+)"[,)]/g), ...js.matchAll(/key: "(\w+)"/g)].map((m) => m[1]);
    for (const k of called) expect(keys.has(k) || keys.has(`${k}_other`), k).toBe(true);
  });

  it("declare the modal's script and stylesheet in the block schema, within Shopify's size advice", () => {
    const schema = blockSchema(block)!;
    expect(schema).toMatchObject({ target: "section", javascript: "cod-modal.js", stylesheet: "cod-modal.css" });
    const gz = (f: string) => zlib.gzipSync(fs.readFileSync(path.join(EXTENSION, "assets", f))).length;
    expect(gz("cod-modal.js"), "JS under 10 KB compressed").toBeLessThan(10_240);
    expect(gz("cod-modal.css")).toBeLessThan(100_000);
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
