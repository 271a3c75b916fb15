import { CODE_MESSAGES, messageLocale, originHost, renderCodeMessage } from "./templates";

describe("the one-tap line (WebOTP, Apple's security-code autofill)", () => {
  it("ends every code message with @<shop's domain> #<code> on its own last line", () => {
    const text = renderCodeMessage({ code: "042917", shopName: "Acme", domain: "Shop.Example.com", minutes: 10, locales: ["ar"] });
    expect(text.split("\n").at(-1)).toBe("@shop.example.com #042917");
    expect(text.split("\n")[0]).toBe(CODE_MESSAGES.ar.replace("{code}", "042917").replace("{shop}", "Acme").replace("{minutes}", "10"));
  });

  it("keeps the line last under a merchant's template, replacing a line the template wrote itself", () => {
    const text = renderCodeMessage({ code: "1234", shopName: "A", domain: "a.example", minutes: 5, locales: [], template: "Code {code} for {shop}\n@old.example #{code}" });
    expect(text).toBe("Code 1234 for A\n\n@a.example #1234");
  });

  it("leaves the line out when the domain is not a plain host name", () => {
    expect(renderCodeMessage({ code: "1", shopName: "A", domain: "not a host/#x", minutes: 5, locales: [] })).not.toContain("@");
    expect(originHost("https://x.com")).toBeNull();
    expect(originHost("acme.myshopify.com")).toBe("acme.myshopify.com");
  });
});

describe("renderCodeMessage", () => {
  it("puts the code, the shop's name and the lifetime into the English text by default", () => {
    expect(renderCodeMessage({ code: "042917", shopName: "Acme", minutes: 10, locales: [] })).toBe(
      "042917 is your Acme verification code. It expires in 10 minutes. Do not share it.",
    );
  });

  it.each(["hi", "ar", "fr", "es"] as const)("speaks %s when the shopper asks for it", (locale) => {
    const text = renderCodeMessage({ code: "123456", shopName: "Acme", minutes: 10, locales: [`${locale}-XX`, "en"] });
    expect(text).toContain("123456");
    expect(text).toContain("Acme");
    expect(text).toBe(CODE_MESSAGES[locale].replace("{code}", "123456").replace("{shop}", "Acme").replace("{minutes}", "10"));
  });

  it("falls back from an unknown shopper language to the shop's, then to English", () => {
    expect(renderCodeMessage({ code: "1", shopName: "A", minutes: 5, locales: ["de", "fr"] })).toMatch(/^1 est votre code/);
    expect(renderCodeMessage({ code: "1", shopName: "A", minutes: 5, locales: ["de", null] })).toMatch(/^1 is your/);
  });

  it("uses the shop's template, and adds the code when the template forgot it", () => {
    expect(renderCodeMessage({ code: "999000", shopName: "Acme", minutes: 10, locales: ["fr"], template: "Acme: {code}" })).toBe("Acme: 999000");
    expect(renderCodeMessage({ code: "999000", shopName: "Acme", minutes: 10, locales: [], template: "Hello from {shop}" })).toBe(
      "999000 Hello from Acme",
    );
  });

  it("does not let a shop name inject a second code placeholder", () => {
    expect(renderCodeMessage({ code: "111111", shopName: "{code} shop", minutes: 10, locales: [] })).toMatch(/^111111 is your \{code\} shop/);
  });

  it("reads languages loosely", () => {
    expect(messageLocale("ES_mx")).toBe("es");
    expect(messageLocale("de")).toBeNull();
    expect(messageLocale(undefined)).toBeNull();
  });
});
