import { startServer, type RunningServer } from "../helpers/server";

describe("the local storefront emulation in the running server", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ NODE_ENV: "development" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("serves the product page, the modal's assets and the signed proxy to the real routes", async () => {
    const page = await fetch(`${server.url}/dev/storefront`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("data-cod-verify");
    expect((await fetch(`${server.url}/dev/assets/cod-modal.css`)).headers.get("content-type")).toMatch(/text\/css/);
    const cfg = await fetch(`${server.url}/apps/cod/api/config`);
    expect(cfg.status).toBe(200);
    expect(cfg.headers.get("cache-control")).toBe("private, no-cache");
    expect(await cfg.json()).toMatchObject({ otpEnabled: true, codeLength: 6 });
    // The browser revalidates its copy: unchanged, a 304 without a body through the production server.
    const again = await fetch(`${server.url}/apps/cod/api/config`, { headers: { "If-None-Match": cfg.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const post = await fetch(`${server.url}/apps/cod/no-such-route`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(post.status).toBe(404);
    expect((await post.json()).code).toBe("not_found");
  });
});

describe("the local storefront emulation in production", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(); // NODE_ENV=production, even with LOCAL_MODE=true
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("does not exist: the page, the assets, the signing proxy and the fake Shopify's controls all answer 404", async () => {
    for (const [path, method] of [
      ["/dev/storefront", "GET"],
      ["/dev/assets/cod-modal.js", "GET"],
      ["/apps/cod/api/config", "GET"],
      ["/apps/cod/send-otp", "POST"],
      ["/dev/fake-shopify", "GET"],
      ["/dev/fake-shopify", "POST"],
    ]) {
      const res = await fetch(`${server.url}${path}`, { method, ...(method === "POST" ? { body: "{}", headers: { "content-type": "application/json" } } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.text()).not.toContain("otpEnabled");
    }
    // The real storefront API is still there.
    expect((await fetch(`${server.url}/proxy/api/auth/ping`)).status).toBe(200);
  });
});
