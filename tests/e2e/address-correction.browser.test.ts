import type { Browser } from "playwright-core";
import { LOCAL_DEFAULTS, signedProxyQuery } from "../../app/server/app-proxy-signature.mjs";
import { FakeShopify } from "../mocks/shopify/server";
import { servingLocalDemoShop } from "../mocks/shopify/tokens";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import { OPERATIONS } from "~/core/shopify/operations";
import { lastCorrectionLink } from "../helpers/correction-sms";
import { postSigned, type RunningServer } from "../helpers/server";
import { PHONE, shot } from "./modal-helpers";
import { useBrowserStore } from "./browser-store";


describe("address correction in Chromium on a phone", () => {
  let server: RunningServer;
  let browser: Browser;
  const fake = servingLocalDemoShop(new FakeShopify());
  const store = new FakeOrderStore();
  store.install(fake);

  useBrowserStore({ fake }, (s, b) => {
    [server, browser] = [s, b];
  });

  it("requested by a signed call, texted, corrected wrong then right, and the order updated", async () => {
    const order = store.add(fakeOrder());

    // 1. The request, signed as Shopify's app proxy signs it.
    const started = performance.now();
    const res = await postSigned(server, "/api/address-correction.request", { orderId: order.id.split("/").pop() });
    const requestMs = performance.now() - started;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "sent" });

    // 2. The SMS, from the server's outbox.
    const { url, token } = lastCorrectionLink(server.dataDir, order.phone!);
    expect(url.pathname).toBe(`/apps/cod/ac/${token}`);

    // 3. The link's path on a phone-sized screen, through the local storefront's app-proxy emulation,
    //    which signs every GET and POST as Shopify does.
    const page = await browser.newPage(PHONE);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const formUrl = `${server.url}${url.pathname}`;
    const loadStarted = performance.now();
    const first = await page.goto(formUrl);
    const loadMs = performance.now() - loadStarted;
    expect(first!.status()).toBe(200);
    const pageBytes = Buffer.byteLength(await first!.text());
    await expect(page.getByRole("heading", { name: "Confirm your delivery address" }).isVisible()).resolves.toBe(true);
    expect(await page.getByLabel("City").inputValue()).toBe("Pune");
    expect(await page.getByLabel("PIN code").inputValue()).toBe("41100");
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // 4. Wrong: a 5-digit PIN code and a phone without its country code.
    await page.getByLabel("Address (house number and street)").fill("Flat 12, 44 MG Road");
    await page.getByLabel("Phone").fill("98765 43210");
    const [wrong] = await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Save address" }).click()]);
    expect(wrong!.status()).toBe(422);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("phone");
    await expect(page.locator("#phone-error").isVisible()).resolves.toBe(true);
    await expect(page.locator("#zip-error").textContent()).resolves.toContain("postal code does not look right");
    expect(await page.getByLabel("Address (house number and street)").inputValue()).toBe("Flat 12, 44 MG Road");
    expect(await page.getByLabel("Phone").inputValue()).toBe("98765 43210");
    await shot(page, "address-correction-errors");
    expect(fake.callsTo(OPERATIONS.orderUpdate)).toHaveLength(0);

    // 5. Right.
    await page.getByLabel("Phone").fill("+91 98765 43210");
    await page.getByLabel("PIN code").fill("411001");
    const [right] = await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Save address" }).click()]);
    expect(right!.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "Thank you, your address is saved" }).isVisible()).resolves.toBe(true);
    await shot(page, "address-correction-done");

    // 6. What Shopify received.
    const [update] = fake.callsTo(OPERATIONS.orderUpdate);
    expect(update.shop).toBe(LOCAL_DEFAULTS.shop);
    expect(update.variables).toEqual({
      input: {
        id: order.id,
        shippingAddress: {
          firstName: "Asha",
          lastName: "Verma",
          phone: "+919876543210",
          address1: "Flat 12, 44 MG Road",
          address2: null,
          city: "Pune",
          provinceCode: "MH",
          zip: "411001",
          countryCode: "IN",
        },
      },
    });
    expect(fake.callsTo(OPERATIONS.tagsAdd)[0].variables).toEqual({ id: order.id, tags: ["address-corrected"] });

    // 7. The link is spent, and the token never reached the logs.
    const again = await page.goto(formUrl);
    expect(again!.status()).toBe(410);
    // (Local mode's outbox prints the message itself to the console: that is the delivery, not a log.)
    const logLines = server.output().split("\n").filter((l) => !l.startsWith("[outbox]"));
    expect(logLines.filter((l) => l.includes(token))).toEqual([]);
    expect(server.output()).toContain('"path":"/proxy/ac/:token"');
    expect(server.output()).toContain('"path":"/apps/cod/ac/:token"');
    expect(errors).toEqual([]);
    console.log(`address correction: request ${requestMs.toFixed(0)} ms, form load ${loadMs.toFixed(0)} ms, page ${pageBytes} bytes`);
  });

  it("renders right to left in Arabic, with the first error focused (opened by a hand-signed /proxy URL)", async () => {
    const order = store.add(fakeOrder({ phone: "+971501234567", customer: null, shippingAddress: null }));
    const res = await postSigned(server, "/api/address-correction.request", { orderId: order.id, locale: "ar" });
    expect(res.status).toBe(200);
    const { token } = lastCorrectionLink(server.dataDir, "+971501234567");
    const page = await browser.newPage(PHONE);
    await page.goto(`${server.url}/proxy/ac/${token}?${signedProxyQuery()}`);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    const [wrong] = await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "حفظ العنوان" }).click()]);
    expect(wrong!.status()).toBe(422);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("firstName");
    const box = await page.getByLabel("الاسم الأول").boundingBox();
    expect(box!.x + box!.width).toBeGreaterThan(300); // the first field of the row sits on the right
    await shot(page, "address-correction-ar");
  });
});
