import { callRoute, jsonOf, signedRequest, unsignedRequest } from "./proxy";
import { installShop } from "./shops";

type Route = Parameters<typeof callRoute>[0];

/**
 * The failure cases every signed storefront route gets (STYLE.md): no signature, a wrong signature,
 * a stale timestamp, a repeated `shop`, a shop that has not installed the app, and for JSON routes a
 * malformed body, a wrong content type, an oversized body and each missing required field.
 */
export function describeProxyEdge(
  name: string,
  route: Route,
  options: {
    path: string;
    method: "GET" | "POST";
    /** A body the route accepts, for POST routes. */
    validBody?: Record<string, unknown>;
    /** Fields whose absence must give 400 invalid_request. */
    requiredFields?: string[];
    params?: Record<string, string>;
    /** The success answer's Cache-Control: no-store unless the answer is the same for every shopper. */
    cacheControl?: string;
  },
) {
  const { path, method, validBody, requiredFields = [], params = {}, cacheControl = "no-store" } = options;
  const body = method === "POST" ? (validBody ?? {}) : undefined;

  describe(`${name}: the app-proxy edge`, () => {
    beforeEach(async () => {
      await installShop();
    });

    it("rejects a request with no signature (401 invalid_signature)", async () => {
      const res = await callRoute(
        route,
        unsignedRequest(path, { method, headers: { "content-type": "application/json" }, body: body && JSON.stringify(body) }),
        params,
      );
      expect(res.status).toBe(401);
      expect(await jsonOf(res)).toMatchObject({ code: "invalid_signature", error: expect.any(String) });
    });

    it("rejects a wrong signature", async () => {
      const res = await callRoute(route, signedRequest(path, { method, body, secret: "not-the-secret" }), params);
      expect(res.status).toBe(401);
      expect((await jsonOf(res)).code).toBe("invalid_signature");
    });

    it("rejects a signature whose timestamp is older than 90 seconds", async () => {
      const res = await callRoute(
        route,
        signedRequest(path, { method, body, timestamp: Math.floor(Date.now() / 1000) - 300 }),
        params,
      );
      expect(res.status).toBe(401);
      expect((await jsonOf(res)).code).toBe("invalid_signature");
    });

    it("rejects a request with the shop parameter repeated", async () => {
      const res = await callRoute(
        route,
        signedRequest(path, { method, body, mutate: (p) => p.append("shop", "other-shop.myshopify.com") }),
        params,
      );
      expect(res.status).toBe(401);
      expect((await jsonOf(res)).code).toBe("invalid_signature");
    });

    it("answers 403 app_not_installed to a signed request from a shop without the app", async () => {
      const res = await callRoute(route, signedRequest(path, { method, body, shop: "stranger.myshopify.com" }), params);
      expect(res.status).toBe(403);
      expect((await jsonOf(res)).code).toBe("app_not_installed");
    });

    if (method === "POST") {
      it("answers 400 invalid_request to malformed JSON", async () => {
        const res = await callRoute(route, signedRequest(path, { method, body: "{not json" }), params);
        expect(res.status).toBe(400);
        expect(await jsonOf(res)).toMatchObject({ code: "invalid_request", fields: expect.any(Object) });
      });

      it("answers 400 invalid_request to a body that is not JSON by content type", async () => {
        const res = await callRoute(
          route,
          signedRequest(path, { method, body: "phone=1", headers: { "content-type": "application/x-www-form-urlencoded" } }),
          params,
        );
        expect(res.status).toBe(400);
        expect((await jsonOf(res)).code).toBe("invalid_request");
      });

      it("answers 413 to a body over 16 KiB", async () => {
        const res = await callRoute(route, signedRequest(path, { method, body: { ...body, pad: "x".repeat(17 * 1024) } }), params);
        expect(res.status).toBe(413);
        expect((await jsonOf(res)).code).toBe("payload_too_large");
      });

      for (const field of requiredFields) {
        it(`answers 400 invalid_request naming "${field}" when it is missing`, async () => {
          const partial = { ...body };
          delete partial[field];
          const res = await callRoute(route, signedRequest(path, { method, body: partial }), params);
          expect(res.status).toBe(400);
          const json = await jsonOf(res);
          expect(json.code).toBe("invalid_request");
          expect(Object.keys(json.fields as object)).toContain(field);
        });
      }
    }

    it(`marks its answers Cache-Control: ${cacheControl}`, async () => {
      const res = await callRoute(route, signedRequest(path, { method, body }), params);
      expect(res.headers.get("cache-control")).toBe(cacheControl);
    });
  });
}
