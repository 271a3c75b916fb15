import { getJwt } from "@shopify/shopify-api/test-helpers";
import { SETTINGS_FIELDS, SETTINGS_SECTIONS, sectionFields, type SettingsSectionId } from "~/core/settings/registry";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * The settings pages as the merchant's browser gets them from the built server: each section's page shows
 * its stored values and no other section's, a refused save shows each error beside its field with what
 * was typed, a save says that section was saved. Requests carry the session token App Bridge adds (local mode's demo shop).
 */
const BROWSER = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

async function adminFetch(server: RunningServer, section: SettingsSectionId, form?: Record<string, string>) {
  const { token } = await getJwt("demo-shop", "local-dev-api-key", "local-dev-api-secret");
  return fetch(`${server.url}/app/settings/${section}`, {
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


describe("the settings page in the built app", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("renders each setting on its section's page only, with its stored value", async () => {
    for (const { id } of SETTINGS_SECTIONS) {
      const page = await adminFetch(server, id);
      expect(page.status, id).toBe(200);
      const html = await page.text();
      if (id !== "experiment") expect(Object.keys(formValues(html, sectionFields(id)))).toEqual(sectionFields(id));
      for (const other of SETTINGS_FIELDS.filter((f) => !sectionFields(id).includes(f))) expect(() => control(html, other), `${other} on ${id}`).toThrow(/no control/);
    }
  });

  it("a refused save shows the error beside its field and keeps what was typed; a save says that section was saved", async () => {
    const form = formValues(await (await adminFetch(server, "codes")).text(), sectionFields("codes"));
    expect(form).toMatchObject({ otpEnabled: "true", otpTtlSeconds: "600", otpResendCooldownSeconds: "30", smsChannel: "sms" });
    const tags = formValues(await (await adminFetch(server, "orders")).text(), sectionFields("orders"));

    const refusals: [SettingsSectionId, Record<string, string>, string, string][] = [
      ["codes", { ...form, otpTtlSeconds: "9" }, "otpTtlSeconds", "Enter a whole number from 60 to 3,600."],
      ["orders", { ...tags, tagVerified: "typed, with comma" }, "tagVerified", "Shopify separates tags with commas"],
    ];
    for (const [section, posted, name, message] of refusals) {
      const refused = await adminFetch(server, section, posted);
      expect(refused.status).toBe(422);
      const refusedHtml = await refused.text();
      const tag = control(refusedHtml, name);
      expect(tag).toContain('aria-invalid="true"');
      const describedBy = /aria-describedby="([^"]*)"/.exec(tag)![1].split(" ");
      const errorId = describedBy.find((id) => id.endsWith("Error"))!;
      const errorBlock = new RegExp(`id="${errorId.replace(/[:]/g, "\\$&")}"[\\s\\S]*?</div></div>`).exec(refusedHtml)![0];
      expect(errorBlock).toContain(message);
      expect(formValues(refusedHtml, [name])).toEqual({ [name]: posted[name] });
      expect(refusedHtml).not.toMatch(/ saved</);
    }

    const saved = await adminFetch(server, "codes", { ...form, otpTtlSeconds: "900", otpEnabled: "false" });
    expect(saved.status).toBe(200);
    const savedHtml = await saved.text();
    expect(savedHtml).toContain("One-time codes saved");
    expect(formValues(savedHtml, ["otpTtlSeconds", "otpEnabled"])).toEqual({ otpTtlSeconds: "900", otpEnabled: "false" });
    expect(formValues(await (await adminFetch(server, "codes")).text(), ["otpTtlSeconds"])).toEqual({ otpTtlSeconds: "900" });
  });
});
