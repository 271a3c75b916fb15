import "@shopify/shopify-api/adapters/node";
import { ApiVersion, shopifyApi } from "@shopify/shopify-api";
import { appProxySignature } from "~/server/app-proxy-signature.mjs";
import { verifyAppProxySignature } from "./app-proxy.server";

// The app checks app-proxy signatures itself (node:crypto, synchronous); the library's validateHmac
// is the reference. Both must give the same verdict on every input below.
const secret = "signature-test-secret";
const api = shopifyApi({
  apiKey: "key",
  apiSecretKey: secret,
  apiVersion: ApiVersion.October26,
  hostName: "app.example.com",
  isEmbeddedApp: true,
  logger: { level: 0, log: async () => {} },
});

async function libraryVerdict(params: URLSearchParams): Promise<boolean> {
  try {
    const query = new URLSearchParams(params);
    if (!query.get("index")) query.delete("index");
    return await api.utils.validateHmac(query, { signator: "appProxy" });
  } catch {
    return false;
  }
}

const now = Math.trunc(Date.now() / 1000);

function signed(entries: [string, string][], key = secret): URLSearchParams {
  const params = new URLSearchParams(entries);
  params.append("signature", appProxySignature(params, key));
  return params;
}

const base: [string, string][] = [
  ["shop", "demo-shop.myshopify.com"],
  ["logged_in_customer_id", ""],
  ["path_prefix", "/apps/cod"],
  ["timestamp", String(now)],
];

const cases: Record<string, URLSearchParams> = {
  "a good signature": signed(base),
  "the storefront's own params, signed along": signed([["token", "abc"], ["Zeta", "1"], ["_x", "é ü"], ...base]),
  "keys that sort differently by locale than by code point": signed([...base, ["Zeta", "1"], ["alpha", "2"], ["_under", "3"], ["Äpfel", "4"]]),
  "a __proto__ param": signed([...base, ["__proto__", "x"], ["constructor", "y"]]),
  "a repeated ordinary param (joined with a comma)": signed([["ids", "1"], ["ids", "2"], ...base]),
  "an empty index param": signed([["index", ""], ...base]),
  "a non-empty index param": signed([["index", "1"], ...base]),
  "the wrong key": signed(base, "another-secret"),
  "a changed value": (() => {
    const p = signed(base);
    p.set("path_prefix", "/apps/other");
    return p;
  })(),
  "no signature": new URLSearchParams(base),
  "an empty signature": new URLSearchParams([...base, ["signature", ""]]),
  "a timestamp 91 s old": signed(base.map(([k, v]) => [k, k === "timestamp" ? String(now - 91) : v])),
  "a timestamp 80 s old": signed(base.map(([k, v]) => [k, k === "timestamp" ? String(now - 80) : v])),
  "a timestamp 91 s ahead": signed(base.map(([k, v]) => [k, k === "timestamp" ? String(now + 91) : v])),
  "a timestamp that is not an integer": signed(base.map(([k, v]) => [k, k === "timestamp" ? `${now}.5` : v])),
  "no timestamp": signed(base.filter(([k]) => k !== "timestamp")),
  "a repeated shop": signed([["shop", "other.myshopify.com"], ...base]),
  "a repeated timestamp": signed([["timestamp", String(now)], ...base]),
  "a repeated signature": (() => {
    const p = signed(base);
    p.append("signature", p.get("signature")!);
    return p;
  })(),
  "an hmac param beside the signature": signed([["hmac", "x"], ...base]),
  "an upper-case signature": (() => {
    const p = signed(base);
    p.set("signature", p.get("signature")!.toUpperCase());
    return p;
  })(),
};

describe("verifyAppProxySignature agrees with @shopify/shopify-api's validateHmac (appProxy)", () => {
  for (const [name, params] of Object.entries(cases)) {
    it(name, async () => {
      const expected = await libraryVerdict(params);
      expect(verifyAppProxySignature(params, secret, Math.trunc(Date.now() / 1000))).toBe(expected);
    });
  }

  it("accepts a good signature and refuses a bad one (the reference is not vacuous)", async () => {
    expect(await libraryVerdict(cases["a good signature"])).toBe(true);
    expect(await libraryVerdict(cases["the wrong key"])).toBe(false);
    expect(await libraryVerdict(cases["keys that sort differently by locale than by code point"])).toBe(true);
    expect(await libraryVerdict(cases["a __proto__ param"])).toBe(true);
  });
});
