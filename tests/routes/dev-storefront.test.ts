import * as config from "~/routes/proxy.api.config";
import * as notFound from "~/routes/proxy.$";
import * as emulation from "~/routes/apps.$subpath.$";
import * as storefront from "~/routes/dev.storefront";
import * as assets from "~/routes/dev.assets.$file";
import * as themeCart from "~/routes/cart[.]js";
import * as themeCartUpdate from "~/routes/cart.update[.]js";
import { devToolsEnabled } from "~/dev/dev-tools.server";
import { emulatedProxyRequest } from "~/dev/storefront/proxy-emulation.server";
import { loadEnv } from "~/core/env.server";
import { LOCAL_DEFAULTS } from "../../app/server/app-proxy-signature.mjs";
import { callRoute, jsonOf } from "../helpers/proxy";
import { installShop } from "../helpers/shops";

const APP = "https://app.example.com";

describe("the emulated app proxy (/apps/cod/* in local mode)", () => {
  it("signs a storefront request exactly as Shopify does: the real /proxy/api/config route accepts it", async () => {
    await installShop({ domain: LOCAL_DEFAULTS.shop, otpResendCooldownSeconds: 40 });
    const forwarded = await emulatedProxyRequest(new Request("http://localhost:3000/apps/cod/api/config"), "api/config", { appOrigin: APP });
    expect(new URL(forwarded.url).pathname).toBe("/proxy/api/config");
    const res = await callRoute(config, forwarded);
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ otpEnabled: true, resendAfter: 40, modes: ["cod", "prepaid", "partial"] }); // partial on every plan
  });

  it("adds Shopify's parameters, keeps and signs the storefront's own query, and a tampered copy is refused", async () => {
    await installShop({ domain: LOCAL_DEFAULTS.shop });
    const forwarded = await emulatedProxyRequest(new Request("http://localhost:3000/apps/cod/api/config?ref=home"), "api/config", { appOrigin: APP });
    const params = new URL(forwarded.url).searchParams;
    expect(params.get("shop")).toBe(LOCAL_DEFAULTS.shop);
    expect(params.get("path_prefix")).toBe("/apps/cod");
    expect(params.get("logged_in_customer_id")).toBe("");
    expect(params.get("ref")).toBe("home");
    expect(params.get("signature")).toMatch(/^[0-9a-f]{64}$/);
    const tampered = new URL(forwarded.url);
    tampered.searchParams.set("ref", "elsewhere");
    expect((await callRoute(config, new Request(tampered))).status).toBe(401);
  });

  it("forwards the method and body, drops cookies and says who the client is, as Shopify's proxy does", async () => {
    const storefrontRequest = new Request("http://localhost:3000/apps/cod/send-otp", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: "cart=abc; _secure_session_id=x", "x-forwarded-for": "203.0.113.9" },
      body: JSON.stringify({ phone: "+919876543210" }),
    });
    const forwarded = await emulatedProxyRequest(storefrontRequest, "send-otp", { appOrigin: APP });
    expect(forwarded.method).toBe("POST");
    expect(new URL(forwarded.url).pathname).toBe("/proxy/send-otp");
    expect(await forwarded.json()).toEqual({ phone: "+919876543210" });
    expect(forwarded.headers.get("cookie")).toBeNull();
    expect(forwarded.headers.get("content-type")).toBe("application/json");
    expect(forwarded.headers.get("x-forwarded-for")).toBe("203.0.113.9");
    expect(forwarded.headers.get("x-forwarded-host")).toBe("localhost:3000");
  });

  it("reaches the storefront API's JSON 404 for a path no route serves", async () => {
    await installShop({ domain: LOCAL_DEFAULTS.shop });
    const forwarded = await emulatedProxyRequest(new Request("http://localhost:3000/apps/cod/nope", { method: "POST", body: "{}" }), "nope", { appOrigin: APP });
    expect((await jsonOf(await callRoute(notFound, forwarded))).code).toBe("not_found");
  });

  it("answers 404 for another subpath than the app's, and for a path that would leave /proxy", async () => {
    const res = await callRoute(emulation, new Request("http://localhost:3000/apps/other/api/config"), { subpath: "other", "*": "api/config" });
    expect(res.status).toBe(404);
    const climbing = await callRoute(emulation, new Request("http://localhost:3000/apps/cod/x"), { subpath: "cod", "*": "../app" });
    expect(climbing.status).toBe(404);
  });
});

describe("the local storefront page and its assets", () => {
  it("render the extension's block with the proxy path, and serve the modal's files", async () => {
    const page = await callRoute(storefront, new Request("http://localhost:3000/dev/storefront?locale=ar"));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('data-base-path="/apps/cod"');
    expect(html).toContain('<script src="/dev/assets/cod-modal.js" defer=""></script>');
    expect(html).toContain("اشترِ والدفع عند الاستلام");
    const js = await callRoute(assets, new Request("http://localhost:3000/dev/assets/cod-modal.js"), { file: "cod-modal.js" });
    expect(js.headers.get("content-type")).toMatch(/javascript/);
    expect(await js.text()).toContain("CodVerify");
  });

  it("serve nothing outside the extension's assets", async () => {
    for (const file of ["../blocks/cod-button.liquid", "..", "cod-modal.js.map", ".env"]) {
      expect((await callRoute(assets, new Request("http://localhost:3000/dev/assets/x"), { file })).status, file).toBe(404);
    }
  });
});

describe("the local storefront's own cart (/cart.js, /cart/update.js)", () => {
  const update = (cookie: string, body: string) =>
    callRoute(themeCartUpdate, new Request("http://localhost:3000/cart/update.js", { method: "POST", headers: { "content-type": "application/json", cookie }, body }));

  it("keeps one cart per browser: the proof written through update.js is in the attributes /cart.js answers, and an empty value removes it", async () => {
    const first = await callRoute(themeCart, new Request("http://localhost:3000/cart.js"));
    expect(first.status).toBe(200);
    const cookie = first.headers.get("set-cookie")!.split(";")[0];
    const cart = await jsonOf(first);
    expect(cart).toMatchObject({ token: cookie.split("=")[1], attributes: {}, item_count: 1, items: [{ variant_id: 44000000000002, quantity: 1 }] });

    const written = await update(cookie, JSON.stringify({ attributes: { _cod_proof: "v1.919876543210.cod.abc" } }));
    expect(written.status).toBe(200);
    expect(written.headers.get("set-cookie")).toBeNull();
    expect(await jsonOf(written)).toMatchObject({ token: cart.token, attributes: { _cod_proof: "v1.919876543210.cod.abc" } });
    const again = await callRoute(themeCart, new Request("http://localhost:3000/cart.js", { headers: { cookie } }));
    expect(await jsonOf(again)).toMatchObject({ attributes: { _cod_proof: "v1.919876543210.cod.abc" } });
    // Another browser's cart is its own.
    expect(await jsonOf(await callRoute(themeCart, new Request("http://localhost:3000/cart.js")))).toMatchObject({ attributes: {} });

    expect(await jsonOf(await update(cookie, JSON.stringify({ attributes: { _cod_proof: "" } })))).toMatchObject({ attributes: {} });
  });

  it("answers bad input with a JSON error and a read of update.js with 405", async () => {
    expect((await update("", "{not json")).status).toBe(400);
    const wrong = await update("", JSON.stringify({ attributes: { _cod_proof: 7 } }));
    expect(wrong.status).toBe(400);
    expect(await jsonOf(wrong)).toMatchObject({ code: "invalid_request", fields: { "attributes._cod_proof": expect.any(String) } });
    const read = await callRoute(themeCartUpdate, new Request("http://localhost:3000/cart/update.js"));
    expect(read.status).toBe(405);
    expect(read.headers.get("allow")).toBe("POST");
  });
});

describe("where the dev tools exist", () => {
  it("only in local mode outside production", () => {
    expect(devToolsEnabled(loadEnv({}))).toBe(true);
    expect(devToolsEnabled(loadEnv({ LOCAL_MODE: "false" }))).toBe(false);
    const production = {
      NODE_ENV: "production",
      LOCAL_MODE: "true",
      SHOPIFY_API_KEY: "k",
      SHOPIFY_API_SECRET: "s",
      SHOPIFY_APP_URL: "https://cod.example.com",
      OTP_HASH_SECRET: "x".repeat(32),
      SMS_PROVIDER: "outbox",
    };
    expect(devToolsEnabled(loadEnv(production))).toBe(false);
  });
});
