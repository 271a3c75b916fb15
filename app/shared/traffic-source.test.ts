import { formatTrafficSource, parseSourceList, parseTrafficSource, sourceRuleMatches, trafficSourceFromLanding } from "./traffic-source";

describe("the session's first touch", () => {
  it("reads the block script's value: UTM parameters cleaned to lower case, the referrer's host without www", () => {
    expect(parseTrafficSource("utm_source=Facebook&utm_medium=CPC&utm_campaign=Diwali%20Sale%20%F0%9F%8E%89&ref=www.google.co.in")).toEqual({
      source: "facebook",
      medium: "cpc",
      campaign: "diwali sale",
      referrer: "google.co.in",
    });
  });

  it("a referring site without UTM is the source; nothing at all is direct; junk is not a host", () => {
    expect(parseTrafficSource("ref=l.instagram.com")).toMatchObject({ source: "l.instagram.com", referrer: "l.instagram.com" });
    expect(parseTrafficSource("")).toEqual({ source: "direct", medium: null, campaign: null, referrer: null });
    expect(parseTrafficSource("ref=%3Cscript%3E")).toMatchObject({ source: "direct", referrer: null });
    expect(parseTrafficSource("utm_source=%3Cimg%20src%3Dx%3E")).toMatchObject({ source: "img srcx" });
    expect(parseTrafficSource("x".repeat(1001))).toBeNull();
    expect(parseTrafficSource(null)).toBeNull();
  });

  it("writes back what it reads (the modal's normalised attribute), so the server reads the same source", () => {
    for (const raw of ["utm_source=fb&utm_medium=paid&utm_campaign=c1&ref=m.facebook.com", "ref=google.com", "", "utm_source=newsletter"]) {
      const once = parseTrafficSource(raw)!;
      expect(parseTrafficSource(formatTrafficSource(once))).toEqual(once);
    }
  });

  it("Shopify's landing page and referring site, for an order without our attribute; the store's own domains are not a referrer", () => {
    expect(trafficSourceFromLanding("/products/kurta?utm_source=google&utm_medium=cpc#x", "https://www.google.com/", [])).toEqual({
      source: "google",
      medium: "cpc",
      campaign: null,
      referrer: "google.com",
    });
    expect(trafficSourceFromLanding("/", "https://shop.example.in/collections/all", ["test.myshopify.com", "shop.example.in"])).toMatchObject({ source: "direct", referrer: null });
    expect(trafficSourceFromLanding(null, null)).toBeNull();
  });
});

describe("the merchant's rule", () => {
  it("a source matches any medium of it; source/medium only that medium", () => {
    const t = { source: "facebook", medium: "cpc", campaign: null, referrer: null };
    expect(sourceRuleMatches("facebook", t)).toBe(true);
    expect(sourceRuleMatches("facebook/cpc", t)).toBe(true);
    expect(sourceRuleMatches("facebook/email", t)).toBe(false);
    expect(sourceRuleMatches("google", t)).toBe(false);
  });

  it("a list as pasted: cleaned, deduplicated, one entry a line", () => {
    expect(parseSourceList("Facebook\nfacebook, Instagram.com / Story ;\n\n")).toEqual(["facebook", "instagram.com/story"]);
    expect(parseSourceList("<<>>")).toEqual([]);
  });
});
