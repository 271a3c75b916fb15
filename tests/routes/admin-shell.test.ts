import * as appRoute from "~/routes/app";
import { env } from "~/core/env.server";
import { devAdminAccessEnabled, sessionToken, withDevSessionToken } from "~/dev/admin-access.server";
import { callAdminRoute } from "../helpers/admin";
import { installShop, SHOP } from "../helpers/shops";

/**
 * The admin's way in. Shopify's admin hands the app a session token on every request; a local
 * development server, with no Shopify admin around it, signs one for the demo shop itself. Nowhere else.
 */
const DEV = { localMode: true, NODE_ENV: "development" as const, SHOPIFY_API_KEY: env.SHOPIFY_API_KEY, SHOPIFY_API_SECRET: env.SHOPIFY_API_SECRET };

describe("local development access to the admin", () => {
  beforeEach(() => {
    process.env.DEMO_SHOP = SHOP;
  });
  afterEach(() => {
    delete process.env.DEMO_SHOP;
  });

  it("is on only in a local development server: never in production, in tests, or outside local mode", () => {
    expect(devAdminAccessEnabled({ localMode: true, NODE_ENV: "development" })).toBe(true);
    expect(devAdminAccessEnabled({ localMode: true, NODE_ENV: "production" })).toBe(false);
    expect(devAdminAccessEnabled({ localMode: true, NODE_ENV: "test" })).toBe(false);
    expect(devAdminAccessEnabled({ localMode: false, NODE_ENV: "development" })).toBe(false);
  });

  it("opens the admin for the demo shop through the library's own authentication", async () => {
    await installShop();
    const request = withDevSessionToken(new Request(`${env.SHOPIFY_APP_URL}/app`), DEV);
    expect(request.headers.get("authorization")).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    const answer = await callAdminRoute<{ apiKey: string; embedded: boolean }>(appRoute, request);
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ apiKey: env.SHOPIFY_API_KEY });
  });

  it("leaves a request alone in production: without a token it goes to the login page", async () => {
    await installShop();
    const production = { ...DEV, NODE_ENV: "production" as const };
    const request = withDevSessionToken(new Request(`${env.SHOPIFY_APP_URL}/app`), production);
    expect(request.headers.has("authorization")).toBe(false);
    const answer = await callAdminRoute(appRoute, request);
    expect(answer.status).toBe(302);
    expect(answer.response!.headers.get("location")).toMatch(/\/auth\/login/);
  });

  it("keeps a token Shopify's admin sent, and the library refuses a token signed with another secret", async () => {
    await installShop();
    const forged = sessionToken(SHOP, env.SHOPIFY_API_KEY, "not-the-app-secret");
    const request = withDevSessionToken(new Request(`${env.SHOPIFY_APP_URL}/app`, { headers: { authorization: `Bearer ${forged}` } }), DEV);
    expect(request.headers.get("authorization")).toBe(`Bearer ${forged}`);
    const answer = await callAdminRoute(appRoute, request);
    expect(answer.status).toBe(401);
  });
});
