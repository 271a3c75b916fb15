import zlib from "node:zlib";
import * as ping from "~/routes/proxy.api.auth.ping";
import * as config from "~/routes/proxy.api.config";
import * as notFound from "~/routes/proxy.$";
import { prisma, watchQueries } from "~/core/db.server";
import { appProxySignature, signedProxyQuery } from "../../app/server/app-proxy-signature.mjs";
import shopify from "~/core/shopify/app.server";
import { env } from "~/core/env.server";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { describeProxyEdge } from "../helpers/proxy-edge";
import { installShop, SHOP } from "../helpers/shops";

describe("GET /proxy/api/auth/ping", () => {
  it("answers 200 { status: ok } without a signature when the database answers", async () => {
    const res = await callRoute(ping, new Request("https://app.example.com/proxy/api/auth/ping"));
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ status: "ok" });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("GET /proxy/api/config", () => {
  it("gives the modal the shop's settings", async () => {
    await installShop({ otpEnabled: false, otpResendCooldownSeconds: 45, locale: "fr", allowedCountries: "MA,IN", depositsAvailable: true, currency: "INR" });
    const res = await callRoute(config, signedRequest("/api/config"));
    expect(res.status).toBe(200);
    const body = (await jsonOf(res)) as { countries: { iso: string; dial: string; allowed?: boolean }[] };
    expect(body).toEqual({
      otpEnabled: false,
      codeLength: 6,
      resendAfter: 45,
      locale: "fr",
      modes: ["cod", "prepaid", "partial"],
      pricing: { currency: "INR", codFee: null, prepaidDiscount: null, deposit: { type: "percentage", value: 20 } },
      countries: [
        { iso: "MA", dial: "212", allowed: true },
        { iso: "IN", dial: "91", allowed: true },
      ],
      whatsapp: false,
      channelChoice: false,
    });
  });

  it("lists every country libphonenumber-js knows when the shop allows all, each once", async () => {
    await installShop({ allowedCountries: "" });
    const body = (await jsonOf(await callRoute(config, signedRequest("/api/config")))) as { countries: { iso: string; dial: string }[] };
    expect(body.countries.length).toBeGreaterThan(200);
    expect(body.countries).toContainEqual({ iso: "FR", dial: "33" });
    expect(new Set(body.countries.map((c) => c.iso)).size).toBe(body.countries.length);
  });

  it("offers the shopper the channel choice when the shop allows it and WhatsApp can carry codes", async () => {
    await installShop({ otpChannelChoice: true });
    const saved = { from: env.TWILIO_WHATSAPP_FROM, sid: env.TWILIO_WHATSAPP_CONTENT_SID };
    try {
      expect(await jsonOf(await callRoute(config, signedRequest("/api/config")))).toMatchObject({ channelChoice: false });
      Object.assign(env, { TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_CONTENT_SID: `HX${"a".repeat(32)}` });
      expect(await jsonOf(await callRoute(config, signedRequest("/api/config")))).toMatchObject({ whatsapp: true, channelChoice: true });
    } finally {
      Object.assign(env, { TWILIO_WHATSAPP_FROM: saved.from, TWILIO_WHATSAPP_CONTENT_SID: saved.sid });
    }
  });

  it("says a code can go by WhatsApp only when a WhatsApp sender and an approved template are configured", async () => {
    await installShop();
    const saved = { from: env.TWILIO_WHATSAPP_FROM, sid: env.TWILIO_WHATSAPP_CONTENT_SID };
    try {
      Object.assign(env, { TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_CONTENT_SID: undefined });
      expect(await jsonOf(await callRoute(config, signedRequest("/api/config")))).toMatchObject({ whatsapp: false });
      Object.assign(env, { TWILIO_WHATSAPP_CONTENT_SID: `HX${"a".repeat(32)}` });
      expect(await jsonOf(await callRoute(config, signedRequest("/api/config")))).toMatchObject({ whatsapp: true, channelChoice: false });
    } finally {
      Object.assign(env, { TWILIO_WHATSAPP_FROM: saved.from, TWILIO_WHATSAPP_CONTENT_SID: saved.sid });
    }
  });

  it("is compressed when the browser accepts it, and revalidated by ETag (304 without a body) instead of refetched", async () => {
    await installShop({ allowedCountries: "" }); // every country: about 6 KB of JSON
    const plain = await callRoute(config, signedRequest("/api/config"));
    const plainBytes = Buffer.from(await plain.arrayBuffer());
    expect(plainBytes.length).toBeGreaterThan(4000);
    expect(plain.headers.get("cache-control")).toBe("private, no-cache");
    const etag = plain.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");

    for (const [accept, encoding, decode] of [
      ["gzip, deflate, br", "br", zlib.brotliDecompressSync],
      ["gzip, deflate", "gzip", zlib.gunzipSync],
      ["br;q=0, gzip", "gzip", zlib.gunzipSync],
    ] as const) {
      const res = await callRoute(config, signedRequest("/api/config", { headers: { "Accept-Encoding": accept } }));
      expect(res.headers.get("content-encoding"), accept).toBe(encoding);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length, accept).toBeLessThan(plainBytes.length / 2);
      expect(decode(bytes).equals(plainBytes), accept).toBe(true);
      expect(res.headers.get("etag")).toBe(etag);
    }

    const again = await callRoute(config, signedRequest("/api/config", { headers: { "If-None-Match": etag } }));
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);

    // A changed setting is a new ETag: the browser's copy is not reused.
    await prisma.shop.update({ where: { domain: SHOP }, data: { otpResendCooldownSeconds: 90 } });
    const { forgetShop } = await import("~/core/settings/shop.server");
    forgetShop(SHOP);
    const changed = await callRoute(config, signedRequest("/api/config", { headers: { "If-None-Match": etag } }));
    expect(changed.status).toBe(200);
    expect(await jsonOf(changed)).toMatchObject({ resendAfter: 90 });
  });

  it("offers only the modes the merchant chose, partial on every plan (a draft-order deposit or a deposit code)", async () => {
    await installShop({ paymentModes: "cod,partial", depositsAvailable: null });
    expect(await jsonOf(await callRoute(config, signedRequest("/api/config")))).toMatchObject({ modes: ["cod", "partial"] });
    await prisma.shop.update({ where: { domain: SHOP }, data: { depositsAvailable: false, paymentModes: "cod" } });
    const { forgetShop } = await import("~/core/settings/shop.server");
    forgetShop(SHOP);
    expect(await jsonOf(await callRoute(config, signedRequest("/api/config")))).toMatchObject({ modes: ["cod"] });
    await prisma.shop.update({ where: { domain: SHOP }, data: { paymentModes: "cod,prepaid,partial" } });
    forgetShop(SHOP);
    expect(await jsonOf(await callRoute(config, signedRequest("/api/config")))).toMatchObject({ modes: ["cod", "prepaid", "partial"] });
  });

  it("answers 403 once the shop has uninstalled, even with its session still cached", async () => {
    await installShop();
    expect((await callRoute(config, signedRequest("/api/config"))).status).toBe(200);
    await prisma.shop.update({ where: { domain: SHOP }, data: { uninstalledAt: new Date() } });
    const { forgetShop } = await import("~/core/settings/shop.server");
    forgetShop(SHOP);
    const res = await callRoute(config, signedRequest("/api/config"));
    expect(res.status).toBe(403);
  });
});

describe("what a signed request costs the database", () => {
  it("is two reads when cold (session, shop) and none once warm", async () => {
    await installShop();
    await callRoute(config, signedRequest("/api/config")); // prepares the connection (SQLite pragmas)
    const { clearShopCache } = await import("~/core/settings/shop.server");
    const { sessionStorage } = await import("~/core/shopify/app.server");
    clearShopCache();
    sessionStorage.clear();
    const cold = watchQueries();
    expect((await callRoute(config, signedRequest("/api/config"))).status).toBe(200);
    cold.stop();
    expect(cold.queries).toHaveLength(2);
    const warm = watchQueries();
    for (let i = 0; i < 3; i++) expect((await callRoute(config, signedRequest("/api/config"))).status).toBe(200);
    warm.stop();
    expect(warm.queries).toEqual([]);
  });
});

// The config is the same for every shopper of the shop: revalidated, not no-store (docs/storefront-api.md).
describeProxyEdge("GET /proxy/api/config", config, { path: "/api/config", method: "GET", cacheControl: "private, no-cache" });

describe("unknown storefront routes", () => {
  it("answer a JSON 404", async () => {
    const res = await callRoute(notFound, signedRequest("/nope"));
    expect(res.status).toBe(404);
    expect((await jsonOf(res)).code).toBe("not_found");
  });
});

describe("the request signer used by tests and `npm run proxy`", () => {
  it("produces signatures the Shopify library accepts, and only those", async () => {
    const params = signedProxyQuery({ shop: SHOP, secret: env.SHOPIFY_API_SECRET, extra: [["extra", "1"]] });
    await expect(shopify.authenticate.public.appProxy(new Request(`https://x/proxy/a?${params}`))).resolves.toBeDefined();
    params.set("extra", "2");
    await expect(shopify.authenticate.public.appProxy(new Request(`https://x/proxy/a?${params}`))).rejects.toBeInstanceOf(
      Response,
    );
  });

  it("joins repeated values with commas, as Shopify does", () => {
    const a = appProxySignature(
      [
        ["b", "1"],
        ["a", "x"],
        ["b", "2"],
      ],
      "s",
    );
    const b = appProxySignature(
      [
        ["a", "x"],
        ["b", "1,2"],
      ],
      "s",
    );
    expect(a).toBe(b);
  });
});
