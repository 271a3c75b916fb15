import * as requestRoute from "~/routes/proxy.api.address-correction[.]request";
import * as formRoute from "~/routes/proxy.ac.$token";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { lastCorrectionLink, useOutbox } from "../helpers/correction-sms";

/**
 * The address form's "where you are" (India): the phone's position turned into a DIGIPIN and dropped,
 * a DIGIPIN typed, the PIN code's places and a mismatch shown once, and the DIGIPIN written on the
 * order where the merchant chose, through the real form route, the real database and the fake Shopify.
 */
let store = new FakeOrderStore();
const fake = useFakeShopify();
const outbox = useOutbox();
beforeEach(() => {
  store = new FakeOrderStore();
  store.install(fake);
});

// Dak Bhawan, New Delhi (the technical document's example): 39J-49L-L8T4.
const DAK_BHAWAN = { lat: "28.622788", lon: "77.213033" };
const DELHI = { firstName: "Asha", lastName: "Verma", phone: "+91 98765 43210", address1: "Dak Bhawan, Sansad Marg", address2: "", city: "New Delhi", province: "DL", zip: "110001", countryCode: "IN" };

async function opened(shopOverrides: Record<string, unknown> = {}) {
  await installShop(shopOverrides);
  const order = store.add(fakeOrder({ shippingAddress: { ...fakeOrder().shippingAddress!, zip: "110001", city: "New Delhi", province: "Delhi", provinceCode: "DL" } }));
  const res = await callRoute(requestRoute, signedRequest("/api/address-correction.request", { body: { orderId: order.id } }));
  expect(res.status).toBe(200);
  return { order, token: lastCorrectionLink(outbox.dir, order.phone!).token };
}

const form = (token: string) => callRoute(formRoute, signedRequest(`/ac/${token}`), { token });
const post = (token: string, fields: Record<string, string>) =>
  callRoute(formRoute, signedRequest(`/ac/${token}`, { method: "POST", body: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } }), { token });
const nonceIn = (html: string) => /name="nonce" value="([^"]+)"/.exec(html)![1];
const work = async () => {
  for (let i = 0; i < 5; i++) if (!(await runDueJobs(JOB_KINDS, 50)).claimed) break;
};

describe("the address form's DIGIPIN", () => {
  it("turns the phone's position into its DIGIPIN, in the PIN code's district, and keeps no coordinate", async () => {
    const { token } = await opened();
    const page = await (await form(token)).text();
    expect(page).toContain("Use my location");
    expect(page).toContain("PIN code <bdi dir=\"ltr\">110001</bdi>: <bdi dir=\"ltr\">New Delhi, Delhi; Central Delhi, Delhi</bdi>");
    const located = await post(token, { ...DELHI, nonce: nonceIn(page), intent: "locate", ...DAK_BHAWAN });
    expect(located.status).toBe(200);
    const html = await located.text();
    expect(html).toContain('value="39J-49L-L8T4"');
    expect(html).toMatch(/Your DIGIPIN is <bdi dir="ltr">39J-49L-L8T4<\/bdi>, in <bdi dir="ltr">(Central|New) Delhi<\/bdi>\./);
    expect(html).not.toContain("28.622788");
    // Nothing was saved yet, and the position is nowhere in the database.
    const row = await prisma.addressCorrection.findFirstOrThrow();
    expect(row).toMatchObject({ status: "pending", digipin: null });
    const dump = JSON.stringify(await Promise.all([prisma.addressCorrection.findMany(), prisma.job.findMany()]));
    expect(dump).not.toContain("28.6227");
    expect(dump).not.toContain("77.2130");
  });

  it("says when the position is outside India's box, and when a typed DIGIPIN is not one", async () => {
    const { token } = await opened();
    const nonce = nonceIn(await (await form(token)).text());
    const london = await post(token, { ...DELHI, nonce, intent: "locate", lat: "51.5072", lon: "-0.1276" });
    expect(london.status).toBe(422);
    expect(await london.text()).toContain("This location is outside India: DIGIPIN covers India only.");
    const typo = await post(token, { ...DELHI, nonce, intent: "save", digipin: "39J-49L-L8TA" });
    expect(typo.status).toBe(422);
    const html = await typo.text();
    expect(html).toContain("This is not a DIGIPIN");
    expect(html).toMatch(/id="digipin"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="digipin"/);
    expect((await prisma.addressCorrection.findFirstOrThrow()).status).toBe("pending");
  });

  it("warns when the DIGIPIN lies far from the PIN code's district", async () => {
    const { token } = await opened();
    const nonce = nonceIn(await (await form(token)).text());
    // Koramangala, Bengaluru, with a New Delhi PIN code.
    const html = await (await post(token, { ...DELHI, nonce, intent: "locate", lat: "12.9352", lon: "77.6245" })).text();
    expect(html).toMatch(/km from <bdi dir="ltr">(Central|New) Delhi<\/bdi>, where the PIN code is/);
  });

  it("saves a typed DIGIPIN with the address and writes it in the order's metafields with its map link, and Flow's trigger carries it", async () => {
    const { order, token } = await opened();
    const nonce = nonceIn(await (await form(token)).text());
    const saved = await post(token, { ...DELHI, nonce, intent: "save", digipin: "39j 49l l8t4" });
    expect(saved.status).toBe(200);
    expect(await prisma.addressCorrection.findFirstOrThrow()).toMatchObject({ status: "completed", digipin: "39J-49L-L8T4" });
    const flow = (await prisma.job.findMany({ where: { kind: "flow.trigger" } })).map((j) => JSON.parse(j.payload));
    expect(flow).toContainEqual(expect.objectContaining({ handle: "cod-address-corrected", fields: { applied: true, digipin: "39J-49L-L8T4", "map link": expect.stringContaining("query=28.6227") } }));
    await work();
    const stored = store.get(order.id)!;
    expect(stored.metafields).toEqual(
      expect.arrayContaining([
        { namespace: "cod_verify", key: "digipin", type: "single_line_text_field", value: "39J-49L-L8T4" },
        { namespace: "cod_verify", key: "digipin_map", type: "url", value: expect.stringMatching(/^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=28\.6227\d\d,77\.2130\d\d$/) },
      ]),
    );
    expect(stored.shippingAddress!.address2).toBeNull();
  });

  it("puts it on the shipping address's second line in the same orderUpdate when the merchant chose so", async () => {
    const { order, token } = await opened({ digipinTarget: "address2" });
    const nonce = nonceIn(await (await form(token)).text());
    expect((await post(token, { ...DELHI, address2: "Gate 3", nonce, intent: "save", digipin: "39J-49L-L8T4" })).status).toBe(200);
    expect(store.get(order.id)!.shippingAddress!.address2).toBe("Gate 3, DIGIPIN 39J-49L-L8T4");
    await work();
    expect(store.get(order.id)!.metafields.filter((m) => m.key.startsWith("digipin"))).toEqual([]);
  });

  it("shows a PIN code of another state once, then takes the shopper at their word", async () => {
    const { token } = await opened();
    const nonce = nonceIn(await (await form(token)).text());
    const wrong = { ...DELHI, zip: "560029", city: "New Delhi", province: "DL" };
    const first = await post(token, { ...wrong, nonce, intent: "save" });
    expect(first.status).toBe(422);
    const html = await first.text();
    expect(html).toContain("PIN code <bdi dir=\"ltr\">560029</bdi> is in <bdi dir=\"ltr\">Bengaluru, Karnataka</bdi>, not where the address says.");
    expect((await prisma.addressCorrection.findFirstOrThrow()).status).toBe("pending");
    const ack = /name="pinAck" value="([^"]+)"/.exec(html)![1];
    const second = await post(token, { ...wrong, nonce: nonceIn(html), intent: "save", pinAck: ack });
    expect(second.status).toBe(200);
    expect((await prisma.addressCorrection.findFirstOrThrow()).status).toBe("completed");
  });
});

describe("the address form's DIGIPIN against a hostile post", () => {
  it("prints a typed DIGIPIN escaped, reads no coordinate but a plain decimal, and keeps at most 20 characters", async () => {
    const { token } = await opened();
    const nonce = nonceIn(await (await form(token)).text());
    const xss = await post(token, { ...DELHI, nonce, intent: "save", digipin: `"><script>alert(1)</script>` });
    expect(xss.status).toBe(422);
    const html = await xss.text();
    expect(html).not.toContain("<script>alert(1)");
    expect(/id="digipin"[^>]*>/.exec(html)![0]).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/"');
    for (const [lat, lon] of [["1e1", "77"], ["28.6", "Infinity"], ["NaN", "77.2"], ["28.6", ""], ["0x1C", "77"], ["28.6".repeat(50), "77.2"]]) {
      const res = await post(token, { ...DELHI, nonce, intent: "locate", lat, lon });
      expect(res.status, `${lat},${lon}`).toBe(422);
      expect(await res.text()).toContain("This location is outside India");
    }
    expect(await prisma.addressCorrection.findFirstOrThrow()).toMatchObject({ status: "pending", digipin: null });
  });

  it("keeps a DIGIPIN only with an Indian address: another country's saved address carries none", async () => {
    const { order, token } = await opened();
    const nonce = nonceIn(await (await form(token)).text());
    const saved = await post(token, { ...DELHI, countryCode: "FR", province: "", zip: "75001", city: "Paris", nonce, intent: "save", digipin: "39J-49L-L8T4" });
    expect(saved.status).toBe(200);
    expect(store.get(order.id)!.shippingAddress).toMatchObject({ countryCodeV2: "FR", city: "Paris" });
    expect((await prisma.addressCorrection.findFirstOrThrow()).digipin).toBeNull();
    await work();
    expect(store.get(order.id)!.metafields.filter((m) => m.key.startsWith("digipin"))).toEqual([]);
  });
});

describe("the address form's other button", () => {
  it("keeps a typed DIGIPIN when the form comes back for the country's states (Enter in a field presses that button)", async () => {
    const { token } = await opened();
    const nonce = nonceIn(await (await form(token)).text());
    const res = await post(token, { ...DELHI, nonce, intent: "country", digipin: "39j49ll8t4" });
    expect(res.status).toBe(200);
    expect(/id="digipin"[^>]*>/.exec(await res.text())![0]).toContain('value="39J-49L-L8T4"');
  });
});
