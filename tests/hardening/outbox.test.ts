import fs from "node:fs";
import path from "node:path";
import { startServer } from "../helpers/server";
import { signedProxyUrl } from "./requests";

describe("the outbox SMS provider outside local development", () => {
  it("is refused in production unless local mode is asked for, and the refusal says why", async () => {
    await expect(startServer({ LOCAL_MODE: "false", SMS_PROVIDER: "outbox" })).rejects.toThrow(/SMS_PROVIDER=outbox is refused in production/);
  }, 60_000);

  it("with LOCAL_MODE=true in production it warns loudly and never prints a code or a token", async () => {
    const server = await startServer({ LOCAL_MODE: "true", SMS_PROVIDER: "outbox" });
    try {
      expect(server.output()).toMatch(/NO SMS IS SENT/);
      const res = await fetch(signedProxyUrl(server.url, "/send-otp"), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ phone: "+14155550123" }),
      });
      expect(res.status).toBe(200);
      const line = JSON.parse(fs.readFileSync(path.join(server.dataDir, "outbox.jsonl"), "utf8").trim().split("\n").pop()!);
      const code = /\b(\d{6})\b/.exec(line.body)![1];
      await new Promise((r) => setTimeout(r, 100));
      expect(server.output()).toMatch(/"msg":"outbox: message written","channel":"sms","phone":"\+1415•••0123"/);
      expect(server.output()).not.toContain(code);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
