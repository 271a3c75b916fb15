import { env } from "~/core/env.server";
import type { FakeShopify } from "./server";

/**
 * Shopify's token exchange (https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/token-exchange),
 * as the fake answers it for a shop: POST /admin/oauth/access_token with the admin's session token gives an
 * offline access token and the granted scopes when Shopify installed the app on the shop (managed install);
 * otherwise 400 `invalid_subject_token`, Shopify's answer to a session token it will not trade.
 */
export function tokenExchange(fake: FakeShopify, shop: string, options: { installed: boolean; scope?: string } = { installed: true }): FakeShopify {
  return fake.page(`/${shop}/admin/oauth/access_token`, ({ method, body }) => {
    const request = JSON.parse(body || "{}") as { client_id?: string; subject_token?: string; grant_type?: string; requested_token_type?: string };
    const wellFormed =
      method === "POST" &&
      request.client_id === env.SHOPIFY_API_KEY &&
      typeof request.subject_token === "string" &&
      request.grant_type === "urn:ietf:params:oauth:grant-type:token-exchange" &&
      request.requested_token_type === "urn:shopify:params:oauth:token-type:offline-access-token";
    if (!options.installed || !wellFormed) {
      return { status: 400, type: "application/json", body: JSON.stringify({ error: "invalid_subject_token", error_description: "The subject token could not be exchanged." }) };
    }
    const token = `shpat_exchanged_${shop.split(".")[0]}`;
    fake.issueToken(shop, token);
    return { status: 200, type: "application/json", body: JSON.stringify({ access_token: token, scope: options.scope ?? env.SCOPES }) };
  });
}
