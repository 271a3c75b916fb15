import crypto from "node:crypto";
import { env, type Env } from "~/core/env.server";
import { LOCAL_DEFAULTS } from "~/server/app-proxy-signature.mjs";

/**
 * Local mode's way into the embedded admin: with no Shopify store around the app, nobody hands it the
 * session token Shopify's admin adds to every request. In a local development server (local mode and
 * NODE_ENV=development, never in production or under the tests' NODE_ENV=test), an admin request that
 * carries no token gets one for the demo shop, signed with the app's secret exactly as Shopify signs
 * it, so the library's own `authenticate.admin` runs unchanged. Everywhere else this changes nothing,
 * and a request without a token is refused as usual (redirected to /auth/login).
 *
 * Only in a development build (`npm run build:dev`): it is what `#admin-access` resolves to under the
 * `cod-local-tools` condition (package.json "imports", remix.config.js); a production build gets
 * app/core/shopify/admin-access.server.ts, which changes nothing.
 */
export function devAdminAccessEnabled(e: Pick<Env, "localMode" | "NODE_ENV"> = env): boolean {
  return e.localMode && e.NODE_ENV === "development";
}

/** The shop local mode installs (`npm run setup`). */
export function demoShopDomain(): string {
  return process.env.DEMO_SHOP || LOCAL_DEFAULTS.shop;
}

type AccessEnv = Pick<Env, "localMode" | "NODE_ENV" | "SHOPIFY_API_KEY" | "SHOPIFY_API_SECRET">;

export function withDevSessionToken(request: Request, e: AccessEnv = env): Request {
  if (!devAdminAccessEnabled(e)) return request;
  if (request.headers.has("authorization") || new URL(request.url).searchParams.has("id_token")) return request;
  // Set on the request itself: a copy would take over its body, which the route's action still reads.
  request.headers.set("authorization", `Bearer ${sessionToken(demoShopDomain(), e.SHOPIFY_API_KEY, e.SHOPIFY_API_SECRET)}`);
  return request;
}

/** An App Bridge session token (HS256 JWT) for `shop`, valid for one minute, as Shopify's admin issues it. */
export function sessionToken(shop: string, apiKey: string, secret: string, now = Date.now()): string {
  const seconds = Math.floor(now / 1000);
  const payload = {
    iss: `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: apiKey,
    sub: "1",
    exp: seconds + 60,
    nbf: seconds - 5,
    iat: seconds,
    jti: crypto.randomUUID(),
    sid: "local-development",
  };
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString("base64url");
  const unsigned = `${encode({ alg: "HS256", typ: "JWT" })}.${encode(payload)}`;
  return `${unsigned}.${crypto.createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
}

/** `#admin-access`: the library's authentication, with `admin` given the stand-in's token first. */
export function withAdminAccess<T extends { admin: (request: Request) => unknown }>(authenticate: T): T {
  return { ...authenticate, admin: (request: Request) => authenticate.admin(withDevSessionToken(request)) };
}

/** True in a local development server: no Shopify admin around the app, so no App Bridge either. */
export function adminStandIn(): boolean {
  return devAdminAccessEnabled();
}
