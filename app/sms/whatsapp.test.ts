import { contentSidFor, whatsappCodeTemplate } from "./whatsapp";

const EN = "HX0123456789abcdef0123456789abcdef";
const AR = "HXfedcba9876543210fedcba9876543210";

describe("the WhatsApp code template", () => {
  it("is the one content SID for every language, with the code as variable 1", () => {
    expect(whatsappCodeTemplate("042917", ["ar"], EN)).toEqual({ contentSid: EN, variables: { "1": "042917" } });
  });

  it("picks the shopper's language, then the shop's, then the default (* or en)", () => {
    const setting = `en:${EN},ar:${AR}`;
    expect(contentSidFor(setting, ["ar-MA", "en"])).toBe(AR);
    expect(contentSidFor(setting, ["de", "ar"])).toBe(AR);
    expect(contentSidFor(setting, ["de", null])).toBe(EN);
    expect(contentSidFor(`*:${AR},en:${EN}`, ["fr"])).toBe(AR);
  });

  it("is null without a template: WhatsApp refuses free text outside a session, so the code goes by SMS", () => {
    expect(whatsappCodeTemplate("1", ["en"], undefined)).toBeNull();
    expect(contentSidFor(`ar:${AR}`, ["en"])).toBeNull();
  });
});
