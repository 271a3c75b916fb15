import { postSigned, startServer, type RunningServer } from "../helpers/server";
import { outboxCode, readOutbox } from "../helpers/outbox";

const PHONE = "+14155550123";

describe("one-time codes in local mode (built server, outbox SMS)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("sends a code to the outbox, verifies it, then skips the returning customer", async () => {
    const sent = await postSigned(server, "/send-otp", { phone: PHONE, locale: "es" });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({ success: true, expiresIn: 600, resendAfter: 30, allowedModes: expect.arrayContaining(["cod"]), risk: { band: "low" } });

    const [line] = readOutbox(server.dataDir);
    expect(line).toMatchObject({ to: PHONE, channel: "sms", shop: "demo-shop.myshopify.com", id: expect.any(String), time: expect.any(String) });
    expect(line.body).toMatch(/^\d{6} es tu código de verificación de Demo Shop/);

    const code = outboxCode(server.dataDir, PHONE);
    const verified = await postSigned(server, "/verify-otp", { phone: PHONE, otp: code, selectedMode: "cod", cartToken: "tok" });
    expect(verified.status).toBe(200);
    const { success, proof, deviceToken } = await verified.json();
    expect(success).toBe(true);
    expect(proof).toMatch(/^v1\.14155550123\.cod\./);

    const again = await postSigned(server, "/send-otp", { phone: PHONE, deviceToken });
    expect(await again.json()).toMatchObject({ success: true, skipped: true, reason: "returning_customer", risk: { band: "low" } });
  });

  it("logs that a message went to the outbox, with the number masked, and prints no code or full number", async () => {
    const phone = "+14155550199";
    await postSigned(server, "/send-otp", { phone });
    const code = outboxCode(server.dataDir, phone);
    await new Promise((r) => setTimeout(r, 50));
    const output = server.output();
    // The built server runs with NODE_ENV=production: only local development prints the message itself.
    const lines = output.split("\n").filter((l) => l.includes('"msg":"outbox: message written"')).map((l) => JSON.parse(l) as unknown);
    expect(lines).toContainEqual(expect.objectContaining({ level: "info", channel: "sms", phone: "+1415•••0199", shop: "demo-shop.myshopify.com", file: expect.stringMatching(/outbox\.jsonl$/) }));
    expect(output).not.toContain(phone);
    expect(output).not.toContain(code);
  });
});
