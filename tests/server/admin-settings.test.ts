import { getJwt } from "@shopify/shopify-api/test-helpers";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * The settings page as the merchant's browser gets it from the built server: the HTML shows the
 * stored values, a refused save shows each error beside its field with what was typed, a save the
 * success banner. Requests carry the session token App Bridge adds (local mode's demo shop).
 */
const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

async function adminFetch(server: RunningServer, form?: Record<string, string>) {
  const { token } = await getJwt("demo-shop", "local-dev-api-key", "local-dev-api-secret");
  return fetch(`${server.url}/app/settings`, {
    method: form ? "POST" : "GET",
    // A browser's user agent: the library answers 410 to what it takes for a bot (fetch says "node").
    headers: { authorization: `Bearer ${token}`, "user-agent": BROWSER, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
}

/** The attributes of the <input> or <textarea> or <select> named `name`. */
function control(html: string, name: string): string {
  const m = new RegExp(`<(?:input|textarea|select)[^>]*name="${name}"[^>]*>`).exec(html);
  if (!m) throw new Error(`no control named ${name}`);
  return m[0];
}

/** The form's values as the page would post them, read from its hidden inputs, inputs and selects. */
function formValues(html: string, names: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of names) {
    const tag = control(html, name);
    if (tag.startsWith("<select")) {
      const select = new RegExp(`<select[^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(html)![1];
      values[name] = /<option[^>]*value="([^"]*)"[^>]*selected/.exec(select)?.[1] ?? /<option[^>]*value="([^"]*)"/.exec(select)![1];
    } else if (tag.startsWith("<textarea")) {
      values[name] = new RegExp(`<textarea[^>]*name="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html)![1];
    } else {
      values[name] = /value="([^"]*)"/.exec(tag)?.[1] ?? "";
    }
  }
  return values;
}

const FIELDS = [
  "otpEnabled", "returningSkipDays", "otpSendLimit", "otpSendWindowSeconds", "otpTtlSeconds", "otpResendCooldownSeconds",
  "otpMaxAttempts", "dailySendCap", "allowedCountries", "smsChannel", "smsTemplate", "locale", "discountCodeCod",
  "discountCodePrepaid", "discountCodePartial", "depositType", "depositValue", "tagOrders", "tagVerified", "tagUnverified",
  "tagModePrefix", "addressCorrectionTtlHours", "autoAddressCorrection", "enforceAtCheckout", "keepCodHiddenWhenPaused", "capFallback", "usageChargesEnabled", "codMethodNames", "holdUnverifiedCod",
  "confirmDeadlineHours", "cancelUnconfirmed", "paymentModes", "prepaidDiscountType",
  "prepaidDiscountValue", "codFeeType", "codFeeValue", "codFeeVariantId", "recordRetentionDays", "whatsappConfirmation",
  "whatsappReplyMinutes", "cancelOnWhatsappCancel", "otpChannelChoice", "linksOnWhatsapp", "linkDomain",
  "prepaidOffer", "prepaidOfferIncentiveType", "prepaidOfferIncentiveValue", "prepaidOfferIncentiveCap",
  "ladderWhatsappMinutes", "ladderSmsMinutes", "ladderVoiceMinutes", "ladderPersonMinutes", "quietHoursStart", "quietHoursEnd",
];

describe("the settings page in the built app", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("renders every setting with its stored value; a refused save shows the error beside its field and keeps what was typed; a save shows the banner", async () => {
    const page = await adminFetch(server);
    expect(page.status).toBe(200);
    const html = await page.text();
    const form = formValues(html, FIELDS);
    expect(form).toMatchObject({ otpEnabled: "true", otpTtlSeconds: "600", otpResendCooldownSeconds: "30", smsChannel: "sms", locale: "en", depositType: "percentage", tagVerified: "cod-verified" });

    const refused = await adminFetch(server, { ...form, otpTtlSeconds: "9", tagVerified: "typed, with comma" });
    expect(refused.status).toBe(422);
    const refusedHtml = await refused.text();
    for (const [name, message] of [["otpTtlSeconds", "Enter a whole number from 60 to 3,600."], ["tagVerified", "Shopify separates tags with commas"]]) {
      const tag = control(refusedHtml, name);
      expect(tag).toContain('aria-invalid="true"');
      const describedBy = /aria-describedby="([^"]*)"/.exec(tag)![1].split(" ");
      const errorId = describedBy.find((id) => id.endsWith("Error"))!;
      const errorBlock = new RegExp(`id="${errorId.replace(/[:]/g, "\\$&")}"[\\s\\S]*?</div></div>`).exec(refusedHtml)![0];
      expect(errorBlock).toContain(message);
    }
    expect(formValues(refusedHtml, ["otpTtlSeconds", "tagVerified"])).toEqual({ otpTtlSeconds: "9", tagVerified: "typed, with comma" });
    expect(refusedHtml).not.toContain("Settings saved");

    const saved = await adminFetch(server, { ...form, otpTtlSeconds: "900", otpEnabled: "false" });
    expect(saved.status).toBe(200);
    const savedHtml = await saved.text();
    expect(savedHtml).toContain("Settings saved");
    expect(formValues(savedHtml, ["otpTtlSeconds", "otpEnabled"])).toEqual({ otpTtlSeconds: "900", otpEnabled: "false" });
    expect(formValues(await (await adminFetch(server)).text(), ["otpTtlSeconds"])).toEqual({ otpTtlSeconds: "900" });
  });
});
